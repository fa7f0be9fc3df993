import Foundation

/// One file format the toolkit knows, and what it can do with it.
public struct FormatDescriptor: Sendable {
    public var id: String
    public var summary: String
    public var extensions: [String]
    /// Makes an importer; nil when the format cannot be read (yet).
    public var makeImporter: (@Sendable () -> any TimelineImporter)?
    /// Makes an exporter; nil when the format cannot be written (yet).
    public var makeExporter: (@Sendable (ExportOptions) -> any TimelineExporter)?
}

/// The explicit list of formats (no runtime discovery), with detection from a file name
/// or from the first bytes of the content.
public enum FormatRegistry {
    public static let formats: [FormatDescriptor] = [
        FormatDescriptor(
            id: "csv", summary: "comma/semicolon/tab/pipe separated values", extensions: ["csv"],
            makeImporter: { CSVImporter() }, makeExporter: { CSVExporter(options: $0) }),
        FormatDescriptor(
            id: "tsv", summary: "tab separated values", extensions: ["tsv", "tab"],
            makeImporter: { CSVImporter(defaultDelimiter: 0x09) }, makeExporter: { CSVExporter(options: $0, delimiter: 0x09) }),
        FormatDescriptor(
            id: "json", summary: "JSON records (array, wrapped array, --records PATH) or the canonical document", extensions: ["json"],
            makeImporter: { JSONRecordsImporter() }, makeExporter: { _ in CanonicalDocumentExporter() }),
        FormatDescriptor(
            id: "ndjson", summary: "newline-delimited JSON, one record or event per line", extensions: ["ndjson", "jsonl"],
            makeImporter: { JSONRecordsImporter() }, makeExporter: { _ in CanonicalNDJSONExporter() }),
        FormatDescriptor(
            id: "ics", summary: "iCalendar (RFC 5545)", extensions: ["ics", "ical", "ifb"],
            makeImporter: { ICSImporter() }, makeExporter: { ICSExporter(options: $0) }),
        FormatDescriptor(
            id: "timeline", summary: "the canonical timeline document or NDJSON", extensions: ["timeline"],
            makeImporter: { CanonicalImporter() }, makeExporter: { _ in CanonicalDocumentExporter() }),
        FormatDescriptor(
            id: "text", summary: "a readable plain-text timeline", extensions: ["txt"],
            makeExporter: { export in
                var options = TextTimelineExporter.Options(now: export.now ?? Instant(seconds: 0))
                options.locale = export.textLocale
                options.color = export.color
                options.grouping = export.grouping
                options.split = export.splitLayout
                return TextTimelineExporter(export: export, options: options)
            }),
        FormatDescriptor(
            id: "html", summary: "a self-contained HTML timeline page", extensions: ["html", "htm"],
            makeExporter: { HTMLTimelineExporter(export: $0) }),
    ]

    /// Formats accepted by `--from`.
    public static let inputFormatIDs = ["csv", "tsv", "json", "ndjson", "ics", "timeline"]
    /// Formats accepted by `--to`.
    public static let outputFormatIDs = ["json", "ndjson", "csv", "ics", "text", "html", "timeline"]

    public static func format(_ id: String) -> FormatDescriptor? {
        formats.first { $0.id == id.lowercased() }
    }

    /// The format a file name's extension names, if any.
    public static func format(forPath path: String) -> FormatDescriptor? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        return formats.first { $0.extensions.contains(ext) }
    }

    /// The format the first bytes of an input suggest: `{`/`[` JSON (NDJSON when the first
    /// line is a whole object and another follows), `BEGIN:VCALENDAR`/`BEGIN:VEVENT` ICS,
    /// otherwise CSV or TSV from the delimiters on the first line.
    public static func detect(content head: ArraySlice<UInt8>) -> FormatDescriptor? {
        let text = String(decoding: head, as: UTF8.self)
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let first = trimmed.first else { return nil }
        if first == "{" || first == "[" {
            if first == "{" {
                let lines = trimmed.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { $0.trimmingCharacters(in: .whitespaces) }
                if lines.count > 1, lines[0].hasSuffix("}"), lines[1].hasPrefix("{") { return format("ndjson") }
            }
            return format("json")
        }
        if trimmed.uppercased().hasPrefix("BEGIN:VCALENDAR") || trimmed.uppercased().hasPrefix("BEGIN:VEVENT") { return format("ics") }
        let firstLine = trimmed.prefix { $0 != "\n" && $0 != "\r" }
        if firstLine.contains("\t") { return format("tsv") }
        if firstLine.contains(",") || firstLine.contains(";") || firstLine.contains("|") { return format("csv") }
        return nil
    }
}
