/// `ndjson`: newline-delimited JSON, one record (or canonical event) per line; written as
/// canonical NDJSON, one event per line, streamed.
package enum NDJSONFormat: FormatPlugin {
    package static let id = "ndjson"
    package static let summary = "newline-delimited JSON, one record or event per line"
    package static let extensions = ["ndjson", "jsonl"]
    package static var readOptions: [FormatOption<ReadOptions>] { JSONReadSettings.options }

    /// A first line that is a whole object, followed by a line that starts another.
    package static func sniff(_ head: Span<UInt8>) -> SniffConfidence {
        guard let first = head.firstNonBlank, head[first] == UInt8(ascii: "{") else { return .no }
        let (line, next) = head.line(from: first)
        guard let last = line.reversed().first(where: { head[$0] != 0x20 && head[$0] != 0x09 }), head[last] == UInt8(ascii: "}"),
            let rest = next, let second = head.extracting(rest...).firstNonBlank
        else { return .no }
        return head[rest + second] == UInt8(ascii: "{") ? .certain : .no
    }

    package static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? { JSONRecordsImporter() }
    package static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? { CanonicalNDJSONExporter() }
}
