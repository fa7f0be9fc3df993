/// `xlsx`: an Excel workbook (WeChat Pay and many banks export their statements so). The
/// first sheet, or `--sheet NAME`, is read as a table, as CSV is — the header found after
/// a preamble, presets, the field mapping — with date-formatted cells as ISO 8601 text.
enum XLSXFormat: FormatPlugin {
    static let id = "xlsx"
    static let summary = "Excel workbook (the first sheet, or \(.sheet, "NAME"))"
    static let extensions = ["xlsx", "xlsm"]
    static let isBinary = true
    static var readOptions: [FormatOption<ReadOptions>] {
        XLSXReadSettings.options + CSVReadSettings.options.filter { $0.name != "delimiter" }
    }

    /// A ZIP archive's local file header (no other readable format is a ZIP file).
    static func sniff(_ head: Span<UInt8>) -> SniffConfidence {
        guard head.count >= 4, head[0] == 0x50, head[1] == 0x4B, head[2] == 0x03, head[3] == 0x04
        else { return .no }
        return .strong
    }

    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? { XLSXImporter() }
}

/// How XLSX input is read (`ReadOptions.xlsx`).
package struct XLSXReadSettings: Sendable, Hashable {
    /// The sheet to read; nil reads the first.
    public var sheet: String?

    /// The first sheet.
    public init() {}

    /// `--sheet`.
    static let options: [FormatOption<ReadOptions>] = [
        FormatOption(
            "sheet", .value(name: "NAME", choices: nil, repeatable: false),
            help: "XLSX input: the sheet to read.", default: "the first sheet"
        ) { values, options throws(TimelineError) in options.xlsx.sheet = values[0] }
    ]
}

private enum XLSXReadSettingsKey: FormatSettingsKey {
    static let defaultValue = XLSXReadSettings()
}

extension ReadOptions {
    /// How XLSX input is read.
    package var xlsx: XLSXReadSettings {
        get { formatSettings[XLSXReadSettingsKey.self] }
        set { formatSettings[XLSXReadSettingsKey.self] = newValue }
    }
}

/// Reads a sheet as a table (`TableImporter`), its rows as the workbook holds them: the line
/// of a record is its row number. The workbook's bytes are read whole: its parts are
/// compressed.
struct XLSXImporter: TimelineImporter {
    func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        let bytes = try input.readAll()
        let file = input.name
        let failure = { (error: Workbook.Failure) -> TimelineError in
            TimelineError(
                .data, "cannot read '\(file)' as an XLSX workbook: \(error.message)",
                at: SourceLocation(file: file), code: "xlsx",
                notes: error.tooLarge ? ["a larger \(.memory) reads larger workbooks"] : [])
        }
        var rows: Workbook.SheetRows
        do throws(Workbook.Failure) {
            rows = try Workbook(bytes, memory: context.memory).rows(
                sheet: context.options.xlsx.sheet)
        } catch {
            throw failure(error)
        }
        var delimiter: UInt8? = UInt8(ascii: ",")
        let named = try context.options.csv.columns.map { columns throws(TimelineError) in
            try columns.names(delimiter: &delimiter)
        }
        var source = SheetRowSource(rows: rows, failure: failure)
        try TableImporter.read(&source, columns: named, input: input, context: context)
    }
}

/// A sheet's rows, one at a time and then in blocks of about `RecordBlocks.targetSize`
/// bytes of cell text.
struct SheetRowSource: TableRowSource {
    private var rows: Workbook.SheetRows
    private let failure: (Workbook.Failure) -> TimelineError
    private var recordsRead = 0

    init(rows: Workbook.SheetRows, failure: @escaping (Workbook.Failure) -> TimelineError) {
        self.rows = rows
        self.failure = failure
    }

    var rowsEndAtLastCell: Bool { true }

    /// A row read while the header is looked for keeps its raw text: it may be rejected
    /// outside any block.
    mutating func nextRow() throws(TimelineError) -> Result<TableRow, TableRowError>? {
        guard var row = try next() else { return nil }
        row.raw = row.csvText
        return .success(row)
    }

    mutating func nextBlock() throws(TimelineError) -> SheetBlock? {
        var block = SheetBlock(rows: [], recordsBefore: recordsRead)
        var size = 0
        while size < RecordBlocks.targetSize, let row = try next() {
            size += row.fields.reduce(row.fields.count) { $0 + $1.utf8.count }
            if !row.isBlank { recordsRead += 1 }
            block.rows.append(row)
        }
        return block.rows.isEmpty ? nil : block
    }

    /// The next row; a row with no cells is blank, as an empty line of a CSV file is.
    private mutating func next() throws(TimelineError) -> TableRow? {
        let row: Workbook.Row?
        do throws(Workbook.Failure) {
            row = try rows.next()
        } catch {
            throw failure(error)
        }
        return row.map {
            TableRow(fields: $0.cells.isEmpty ? [""] : $0.cells, line: $0.number, raw: "")
        }
    }
}

/// Rows of a sheet, already in cells.
struct SheetBlock: TableBlock {
    var rows: [TableRow]
    var recordsBefore: Int

    func makeRows(inPlace: Bool) -> SheetBlockRows { SheetBlockRows(rows: rows.makeIterator()) }

    func raw(of row: TableRow) -> String { row.csvText }

    var cellBytes: [UInt8] { [] }
}

/// A sheet block's rows, in order.
struct SheetBlockRows: TableBlockRows {
    var rows: IndexingIterator<[TableRow]>

    mutating func next() -> Result<TableRow, TableRowError>? { rows.next().map { .success($0) } }

    mutating func recycle(_ row: consuming TableRow) {}
}
