/// Where a table's rows come from: CSV or TSV text, or a spreadsheet's sheet. The header is
/// looked for among rows read one at a time (`nextRow`); the rows after those come in blocks
/// (`nextBlock`), each read and mapped on a worker thread.
protocol TableRowSource {
    associatedtype Block: TableBlock

    /// Rows end at their last filled cell, as a spreadsheet stores them: a row narrower than
    /// the header is padded to it, a header is confirmed by a row no wider than it, and a
    /// summary line after the table is told by its few filled cells rather than its width.
    var rowsEndAtLastCell: Bool { get }

    /// The next row, a row that could not be read, or nil after the last.
    mutating func nextRow() throws(TimelineError) -> Result<TableRow, TableRowError>?

    /// The rows after those `nextRow` gave, a block at a time; nil after the last. Each
    /// block counts the records before it from the first block on.
    mutating func nextBlock() throws(TimelineError) -> Block?
}

/// A run of a table's rows, read on any thread.
protocol TableBlock: Sendable {
    associatedtype Rows: TableBlockRows

    /// Records (not counting blank lines) before this block.
    var recordsBefore: Int { get set }

    /// The block's rows, from the first; with `inPlace`, rows that can be left where they
    /// lie give their `cells` in `cellBytes` instead of their fields.
    func makeRows(inPlace: Bool) -> Rows

    /// The raw text of `row`, one of this block's rows, for a rejection.
    func raw(of row: TableRow) -> String

    /// The bytes `TableRow.cells` of this block's rows lie in (none for a block whose rows
    /// hold their fields).
    var cellBytes: [UInt8] { get }
}

extension TableBlock {
    /// The block's rows, from the first, each with its fields.
    func makeRows() -> Rows { makeRows(inPlace: false) }
}

/// Reads a block's rows in order.
protocol TableBlockRows {
    /// The next row, a row that could not be read, or nil after the last.
    mutating func next() -> Result<TableRow, TableRowError>?

    /// Takes back a row the caller is done with, so that the next row may reuse its storage.
    mutating func recycle(_ row: consuming TableRow)
}
