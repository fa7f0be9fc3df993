/// `tsv`: tab separated values — CSV with a tab as the delimiter unless `--delimiter` says
/// otherwise; the same settings as CSV. Written as CSV output with tabs.
enum TSVFormat: FormatPlugin {
    static let id = "tsv"
    static let summary = "tab separated values"
    static let extensions = ["tsv", "tab"]
    static var readOptions: [FormatOption<ReadOptions>] { CSVReadSettings.options }
    static var writeOptions: [FormatOption<WriteOptions>] { CSVWriteSettings.options }

    /// A tab in the first line.
    static func sniff(_ head: Span<UInt8>) -> SniffConfidence {
        guard let line = head.firstContentLine else { return .no }
        return head.contains(anyOf: [0x09], in: line) ? .fair : .no
    }

    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? {
        CSVImporter(defaultDelimiter: 0x09)
    }
    static func declaredZone(in input: InputReader, parser: DateParser) throws(TimelineError)
        -> DeclaredZone?
    {
        try ZoneColumn.inTable(input, delimiter: 0x09, parser: parser)
    }
    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        CSVExporter(options: options, delimiter: 0x09)
    }
    static func makeFieldsWriter(_ options: WriteOptions, fields: FieldSelection) -> (
        any TimelineExporter
    )? {
        ProjectedExporter(fields: fields, layout: .delimited(0x09), safe: options.csv.safe)
    }
}
