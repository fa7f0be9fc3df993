/// `xlsx`: an Excel workbook (WeChat Pay and many banks export their statements so). The
/// first sheet, or `--sheet NAME`, is read as a CSV table would be — the header found after
/// a preamble, presets, the field mapping — with date-formatted cells as ISO 8601 text.
enum XLSXFormat: FormatPlugin {
    static let id = "xlsx"
    static let summary = "Excel workbook (the first sheet, or --sheet NAME)"
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

/// Reads a sheet as a CSV table — one line per sheet row, a blank line for each row the
/// sheet leaves out, so that the line of a record is its row number — made a chunk at a
/// time as `CSVImporter` reads it. Each row has its own cells (a sheet stores no empty
/// cells after a row's last value; the importer pads rows to the header). The workbook's
/// bytes are read whole: its parts are compressed.
struct XLSXImporter: TimelineImporter {
    func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        let bytes = try input.readAll()
        func failure(_ error: Workbook.Failure) -> TimelineError {
            TimelineError(
                .data, "cannot read '\(input.name)' as an XLSX workbook: \(error.message)",
                at: SourceLocation(file: input.name), code: "xlsx",
                notes: error.tooLarge ? ["a larger --memory reads larger workbooks"] : [])
        }
        var table: SheetCSV
        do throws(Workbook.Failure) {
            table = SheetCSV(
                rows: try Workbook(bytes, memory: context.memory).rows(
                    sheet: context.options.xlsx.sheet))
        } catch {
            throw failure(error)
        }
        let csv = InputReader(name: input.name) { () throws(TimelineError) -> [UInt8]? in
            do throws(Workbook.Failure) {
                return try table.next()
            } catch {
                throw failure(error)
            }
        }
        var importer = CSVImporter(defaultDelimiter: UInt8(ascii: ","))
        importer.spreadsheetRows = true
        try importer.read(from: csv, context: context)
    }
}

/// A sheet's rows as CSV text, about `chunkSize` bytes at a time.
struct SheetCSV {
    private var rows: Workbook.SheetRows
    /// The CSV line the next row begins on.
    private var line = 1
    static let chunkSize = InputReader.chunkSize

    init(rows: Workbook.SheetRows) {
        self.rows = rows
    }

    /// The next rows' text, nil after the last.
    mutating func next() throws(Workbook.Failure) -> [UInt8]? {
        var csv: [UInt8] = []
        while csv.count < Self.chunkSize, let row = try rows.next() {
            // Row numbers are at most 1,048,576 and increase: the blank lines of a whole
            // sheet take at most a megabyte.
            if line < row.number {
                csv += repeatElement(0x0A, count: row.number - line)
                line = row.number
            }
            for (column, cell) in row.cells.enumerated() {
                if column > 0 { csv.append(UInt8(ascii: ",")) }
                if cell.utf8.contains(where: {
                    $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
                }) {
                    csv.append(UInt8(ascii: "\""))
                    for b in cell.utf8 {
                        if b == UInt8(ascii: "\"") { csv.append(b) }
                        if b == 0x0A { line += 1 }
                        csv.append(b)
                    }
                    csv.append(UInt8(ascii: "\""))
                } else {
                    csv.append(contentsOf: cell.utf8)
                }
            }
            csv.append(0x0A)
            line += 1
        }
        return csv.isEmpty ? nil : csv
    }
}
