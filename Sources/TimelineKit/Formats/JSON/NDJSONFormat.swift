/// `ndjson`: newline-delimited JSON, one record (or canonical event) per line; written as
/// canonical NDJSON, one event per line, streamed.
enum NDJSONFormat: FormatPlugin {
    static let id = "ndjson"
    static let summary = "newline-delimited JSON, one record or event per line"
    static let extensions = ["ndjson", "jsonl"]
    static var readOptions: [FormatOption<ReadOptions>] { JSONReadSettings.options }

    /// A first line that is a whole object, followed by a line that starts another.
    static func sniff(_ head: Span<UInt8>) -> SniffConfidence {
        guard let first = head.firstNonBlank, head[first] == UInt8(ascii: "{") else { return .no }
        let (line, next) = head.line(from: first)
        guard let last = line.reversed().first(where: { head[$0] != 0x20 && head[$0] != 0x09 }),
            head[last] == UInt8(ascii: "}"),
            let rest = next, let second = head.extracting(rest...).firstNonBlank
        else { return .no }
        return head[rest + second] == UInt8(ascii: "{") ? .certain : .no
    }

    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? {
        JSONRecordsImporter()
    }
    static func declaredZone(in input: InputReader, parser: DateParser) throws(TimelineError)
        -> DeclaredZone?
    {
        try ZoneColumn.inEvents(input, parser: parser)
    }
    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        CanonicalNDJSONExporter()
    }
    static func makeFieldsWriter(_ options: WriteOptions, fields: FieldSelection) -> (
        any TimelineExporter
    )? {
        ProjectedExporter(fields: fields, layout: .jsonLines)
    }
}
