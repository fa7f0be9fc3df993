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
        guard head.count >= 4, head[0] == 0x50, head[1] == 0x4B, head[2] == 0x03, head[3] == 0x04 else { return .no }
        return .strong
    }

    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? { XLSXImporter() }
}

/// How XLSX input is read (`ReadOptions.xlsx`).
public struct XLSXReadSettings: Sendable, Hashable {
    /// The sheet to read; nil reads the first.
    public var sheet: String?

    /// The first sheet.
    public init() {}

    /// `--sheet`.
    static let options: [FormatOption<ReadOptions>] = [
        FormatOption(
            "sheet", .value(name: "NAME", choices: nil, repeatable: false), help: "XLSX input: the sheet to read.", default: "the first sheet"
        ) { values, options throws(TimelineError) in options.xlsx.sheet = values[0] }
    ]
}

private enum XLSXReadSettingsKey: FormatSettingsKey {
    static let defaultValue = XLSXReadSettings()
}

extension ReadOptions {
    /// How XLSX input is read.
    public var xlsx: XLSXReadSettings {
        get { formatSettings[XLSXReadSettingsKey.self] }
        set { formatSettings[XLSXReadSettingsKey.self] = newValue }
    }
}

/// Reads a sheet into a CSV table in memory — one line per sheet row, a blank line for each
/// row the sheet leaves out, so that the line of a record is its row number — and hands it
/// to `CSVImporter`. Every row is as wide as the widest (a sheet stores no empty cells
/// after a row's last value). The workbook is read whole: its parts are compressed.
struct XLSXImporter: TimelineImporter {
    func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        let bytes = try input.readAll()
        let rows: [Workbook.Row]
        do throws(Workbook.Failure) {
            rows = try Workbook(bytes).rows(sheet: context.options.xlsx.sheet)
        } catch {
            throw TimelineError(.data, "cannot read '\(input.name)' as an XLSX workbook: \(error.message)", at: SourceLocation(file: input.name), code: "xlsx")
        }
        let width = rows.map { $0.cells.lastIndex { !$0.isEmpty }.map { $0 + 1 } ?? 0 }.max() ?? 0
        var csv: [UInt8] = []
        var line = 1
        for row in rows {
            while line < row.number {
                csv.append(0x0A)
                line += 1
            }
            for column in 0..<width {
                if column > 0 { csv.append(UInt8(ascii: ",")) }
                let cell = column < row.cells.count ? row.cells[column] : ""
                if cell.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) {
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
        var importer = CSVImporter(defaultDelimiter: UInt8(ascii: ","))
        importer.spreadsheetRows = true
        try importer.read(from: InputReader(name: input.name, bytes: csv), context: context)
    }
}
