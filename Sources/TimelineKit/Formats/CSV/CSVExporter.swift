/// `csv` / `tsv` output: RFC 4180 quoting, CRLF line ends, a fixed column order
///
///     id, start, zone, end, title, detail, status, category, amount, currency, direction,
///     location, series, recorded, links, tags, <attribute columns in sorted order>,
///     other_attributes
///
/// so that reading the file back gives the same events: `zone` is the start's zone (an
/// offset alone does not say which days a reader groups by), `direction` is `neutral` for
/// an amount that is neither income nor expense (the sign alone would make it one).
/// Times are RFC 3339 with their own offset, as NDJSON has them (dates stay `YYYY-MM-DD`),
/// or `timeFormat` in the display zone (`--time-format rfc3339` converts to it); links
/// and tags are joined with a space and `;`. Attribute columns are fixed by the first 1,000
/// events (held back until then, so memory stays bounded); an attribute first seen later
/// goes into `other_attributes` as a JSON object, so nothing is dropped. With `safe`, a
/// cell starting with `=`, `+`, `-` or `@` is prefixed with `'` so spreadsheets show it as
/// text instead of running it as a formula.
final class CSVExporter: TimelineExporter {
    var showsTimesInDisplayZone: Bool { timeFormat != nil }
    static let fixedColumns = [
        "id", "start", "zone", "end", "title", "detail", "status", "category", "amount", "currency",
        "direction", "location", "series",
        "recorded", "links", "tags",
    ]
    static let lookahead = 1000

    private let options: WriteOptions
    private let delimiter: UInt8
    /// The CSV settings, read once (they are looked up by key).
    private let timeFormat: DateOutputFormat?
    private let safe: Bool
    private var held: [Event] = []
    private var attributeColumns: [String]?
    /// The same names, to look one up without walking them all (a file may have thousands).
    private var columnSet: Set<String> = []
    private var days = DateOutputFormat.DayCache()

    init(options: WriteOptions, delimiter: UInt8 = 0x2C) {
        self.options = options
        self.delimiter = delimiter
        timeFormat = options.csv.timeFormat
        safe = options.csv.safe
    }

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        if attributeColumns != nil {
            try out.write(row(event))
            return
        }
        held.append(event)
        if held.count >= Self.lookahead { try flushHeld(to: out) }
    }

    func finish(to out: OutputWriter) throws(TimelineError) {
        if attributeColumns == nil { try flushHeld(to: out) }
    }

    private func flushHeld(to out: OutputWriter) throws(TimelineError) {
        let columns = Set(held.flatMap(\.attributes.keys)).subtracting(
            Self.fixedColumns + ["other_attributes"]
        ).sorted()
        attributeColumns = columns
        columnSet = Set(columns)
        var line = [UInt8]()
        for (i, name) in (Self.fixedColumns + columns + ["other_attributes"]).enumerated() {
            if i > 0 { line.append(delimiter) }
            appendCell(name, to: &line)
        }
        line += [0x0D, 0x0A]
        try out.write(line)
        for e in held { try out.write(row(e)) }
        held = []
    }

    private func time(_ value: TimeValue?) -> String {
        guard let value else { return "" }
        guard let timeFormat else { return value.rfc3339 }
        var bytes = [UInt8]()
        timeFormat.append(value, in: options.displayZone.rules, cache: &days, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func row(_ e: Event) -> [UInt8] {
        let columns = attributeColumns ?? []
        var cells: [String] = [
            e.id, time(e.start), e.start.zone ?? "", time(e.end), e.title, e.detail ?? "",
            e.status?.rawValue ?? "", e.category ?? "",
            e.amount?.value.description ?? "", e.amount?.currency ?? "",
            e.amount?.neutral == true ? "neutral" : "", e.location ?? "",
            e.series ?? "", time(e.recorded),
            e.links.joined(separator: " "), e.tags.joined(separator: ";"),
        ]
        for name in columns { cells.append(e.attributes[name] ?? "") }
        let extra = e.attributes.keys.filter { !columnSet.contains($0) }.sorted()
        if extra.isEmpty {
            cells.append("")
        } else {
            var w = JSONWriter()
            w.value(.object(extra.map { ($0, .string(e.attributes[$0]!)) }))
            cells.append(String(decoding: w.bytes, as: UTF8.self))
        }
        var line = [UInt8]()
        for (i, cell) in cells.enumerated() {
            if i > 0 { line.append(delimiter) }
            appendCell(cell, to: &line)
        }
        line += [0x0D, 0x0A]
        return line
    }

    private func appendCell(_ text: String, to line: inout [UInt8]) {
        Self.appendField(
            safe ? SpreadsheetSafety.neutralised(text) : text, delimiter: delimiter, to: &line)
    }

    /// `appendField` for a text, its UTF-8 read in place.
    static func appendField(_ text: String, delimiter: UInt8, to line: inout [UInt8]) {
        text.withByteView { appendField($0, delimiter: delimiter, to: &line) }
    }

    /// Appends a field's bytes, quoted (RFC 4180: `"` doubled) when they hold the delimiter,
    /// a quote or a line break.
    static func appendField(_ bytes: ByteView, delimiter: UInt8, to line: inout [UInt8]) {
        guard
            bytes.contains(where: { $0 == delimiter || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D })
        else {
            return bytes.append(to: &line)
        }
        line.append(0x22)
        for i in 0..<bytes.count {
            if bytes[i] == 0x22 { line.append(0x22) }
            line.append(bytes[i])
        }
        line.append(0x22)
    }
}

/// `--safe-csv`: a cell a spreadsheet would run as a formula gets a leading `'`, which shows
/// as nothing and makes it text (OWASP's advice on CSV injection). A formula starts with
/// `=`, `+`, `-` or `@` as the cell's first character — its first scalar, whatever marks
/// combine with it — or after a leading tab, carriage return or line feed, which spreadsheets
/// skip. A plain number (`-18.50`, `+3`) stays as it is, and numeric.
enum SpreadsheetSafety {
    static func neutralised(_ cell: String) -> String {
        guard let first = cell.utf8.first else { return cell }
        let triggers: [UInt8] = [
            UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
            0x0A,
        ]
        guard triggers.contains(first), !isPlainNumber(cell.utf8) else { return cell }
        return "'" + cell
    }

    /// `[+-]digits[.digits]`: what a spreadsheet reads as a number, never as a formula.
    static func isPlainNumber(_ bytes: String.UTF8View) -> Bool {
        var digits = 0
        var dot = false
        for (i, b) in bytes.enumerated() {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "+") where i == 0, UInt8(ascii: "-") where i == 0: continue
            case UInt8(ascii: ".") where !dot && digits > 0: dot = true
            default: return false
            }
        }
        return digits > 0 && bytes.last.map { $0 != UInt8(ascii: ".") } == true
    }
}
