/// One row of a table as read — a CSV record or a spreadsheet's row: its fields, where it
/// starts, and its raw text.
struct TableRow: Sendable {
    var fields: [String]
    /// 1-based physical line where the record starts.
    var line: Int
    /// The record's bytes as they were in the file (without the line terminator). Empty
    /// from a block reader, which leaves it to its owner (see `span`).
    var raw: String
    /// Where the record's raw bytes lie in a block reader's block.
    var span: Range<Int> = 0..<0
    /// With `CSVReader.keepsBytes`: the record's bytes exactly as in the file, its line end
    /// included, and where each field lies in them (a quoted field with its quotes).
    var bytes: [UInt8] = []
    var fieldRanges: [Range<Int>] = []
    /// With `CSVReader.yieldsCells`: where each field lies in the block, `fields` left empty
    /// (`TableColumnPlan.text(of:in:)` makes them for a row that is read as strings or
    /// rejected).
    var cells: [TableCell] = []

    /// An empty line (or one holding only `""`), or a sheet row with no cells: not a record.
    var isBlank: Bool { fields.count == 1 && fields[0].isEmpty }

    /// The record without its last field when it is one wider than `width` and that field is
    /// empty (a trailing delimiter on every row, as JD and ICBC exports write); nil otherwise.
    func trimmedTrailingEmpty(to width: Int) -> TableRow? {
        guard fields.count == width + 1, fields[width].trimmingWhitespaces.isEmpty
        else { return nil }
        var record = self
        record.fields.removeLast()
        return record
    }

    /// The record with empty fields added up to `count`.
    func padded(to count: Int) -> TableRow {
        var record = self
        record.fields += repeatElement("", count: max(0, count - fields.count))
        return record
    }

    /// The row as a CSV line would hold it (`,` between fields, a field with a comma, quote
    /// or line break quoted): what a rejected spreadsheet row shows as its raw text.
    var csvText: String {
        var text: [UInt8] = []
        for (column, field) in fields.enumerated() {
            if column > 0 { text.append(UInt8(ascii: ",")) }
            CSVExporter.appendField(field, delimiter: UInt8(ascii: ","), to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Where a field of a CSV block's record lies in the block: its content, without the
/// quotes of a quoted field.
struct TableCell: Sendable {
    var range: Range<Int>
    /// A quoted field's content holds `""` for each `"`.
    var hasDoubledQuotes: Bool
}

/// Why a record could not be split into fields (the run goes on).
struct TableRowError: Error, Sendable {
    var line: Int
    var raw: String
    var message: String
    /// The record's bytes are not valid UTF-8 (rather than badly quoted).
    var isEncoding = false
    /// With `CSVReader.keepsBytes`: the record's bytes exactly as in the file.
    var bytes: [UInt8] = []
}
