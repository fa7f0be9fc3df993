/// `json`: JSON records — a top-level array, the array at `--records PATH`, or the one array
/// of objects inside a wrapping object — or a canonical timeline document, which is read as
/// it is (`JSONRecordsImporter`). Written as the canonical document.
enum JSONFormat: FormatPlugin {
    static let id = "json"
    static let summary =
        "JSON records (array, wrapped array, \(.records, "PATH")) or the canonical document"
    static let extensions = ["json"]
    static var readOptions: [FormatOption<ReadOptions>] { JSONReadSettings.options }

    /// A document that starts with `{` or `[`.
    static func sniff(_ head: Span<UInt8>) -> SniffConfidence {
        guard let first = head.firstNonBlank else { return .no }
        return head[first] == UInt8(ascii: "{") || head[first] == UInt8(ascii: "[") ? .strong : .no
    }

    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? {
        JSONRecordsImporter()
    }
    static func declaredZone(in input: InputReader, parser: DateParser) throws(TimelineError)
        -> DeclaredZone?
    {
        try ZoneColumn.inDocument(input, parser: parser)
    }
    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        CanonicalDocumentExporter()
    }
    static func makeFieldsWriter(_ options: WriteOptions, fields: FieldSelection) -> (
        any TimelineExporter
    )? {
        ProjectedArrayExporter(fields: fields)
    }
}

/// How JSON and NDJSON records are found (`ReadOptions.json`).
package struct JSONReadSettings: Sendable, Hashable {
    /// The dotted path of the records array (`data`, `result.traces`); nil takes a top-level
    /// array, NDJSON lines, or the one array of objects in a top-level object.
    public var recordsPath: String?

    /// The records found by the document's shape.
    public init() {}

    /// `--records`.
    static let options: [FormatOption<ReadOptions>] = [
        FormatOption(
            "records", .value(name: "PATH", choices: nil, repeatable: false),
            help: "JSON: the dotted path of the records array, e.g. data or result.traces.",
            default: "the top-level array, or the one array of objects"
        ) { values, options throws(TimelineError) in options.json.recordsPath = values[0] }
    ]
}

private enum JSONReadSettingsKey: FormatSettingsKey {
    static let defaultValue = JSONReadSettings()
}

extension ReadOptions {
    /// How JSON and NDJSON records are found.
    package var json: JSONReadSettings {
        get { formatSettings[JSONReadSettingsKey.self] }
        set { formatSettings[JSONReadSettingsKey.self] = newValue }
    }
}
