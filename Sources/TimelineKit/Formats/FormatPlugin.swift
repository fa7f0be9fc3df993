/// How sure a format is that an input's first bytes are its content. Detection takes the
/// surest; among equally sure formats, the first in `FormatRegistry.all`.
enum SniffConfidence: Int, Comparable, Sendable {
    case no = 0
    /// The bytes fit, as they would many formats' (a comma in the first line).
    case weak
    /// The bytes fit this format better than the weakly fitting ones (a tab in the first line).
    case fair
    /// The bytes fit this format's shape (a document starting with `{` or `[`).
    case strong
    /// The bytes can only be this format (`BEGIN:VCALENDAR`, two lines that are objects).
    case certain

    static func < (a: SniffConfidence, b: SniffConfidence) -> Bool { a.rawValue < b.rawValue }
}

/// One file format, declared once: its id, file extensions, how to recognise its content,
/// its options, and how to read and write it. `FormatRegistry.all` lists the declarations;
/// the command line's `--from`/`--to` choices, detection, help and option lists all come
/// from there, so a new format is its declaration file and one line in that list.
protocol FormatPlugin: Sendable {
    /// The id used by `--from`/`--to` (`csv`, `ics`, …).
    static var id: String { get }
    /// One line for help: what the format is.
    static var summary: String { get }
    /// The format's files are not text (an XLSX workbook is a ZIP archive): read as bytes,
    /// with no encoding detected or converted.
    static var isBinary: Bool { get }
    /// File name extensions, lower case, without the dot.
    static var extensions: [String] { get }
    /// Options only this format reads (the command line offers them for reading).
    static var readOptions: [FormatOption<ReadOptions>] { get }
    /// Options only this format writes with.
    static var writeOptions: [FormatOption<WriteOptions>] { get }
    /// How sure the format is that `head`, an input's first bytes (a UTF-8 byte-order mark
    /// already removed), is its content.
    static func sniff(_ head: Span<UInt8>) -> SniffConfidence
    /// Checks settings that only make sense together; throws a usage error naming them.
    static func check(_ options: ReadOptions) throws(TimelineError)
    /// A reader for this format; nil when it cannot be read.
    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)?
    /// A writer for this format; nil when it cannot be written.
    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)?
    /// A writer of the `fields` of each event (`--fields`); nil when the format writes whole
    /// events only.
    static func makeFieldsWriter(_ options: WriteOptions, fields: FieldSelection) -> (
        any TimelineExporter
    )?
    /// The zone `input` says its times are in, read ahead of the run (a calendar's
    /// `X-WR-TIMEZONE`); nil for formats whose files declare none.
    static func declaredZone(in input: InputReader, parser: DateParser) throws(TimelineError)
        -> DeclaredZone?
}

extension FormatPlugin {
    static var isBinary: Bool { false }
    static var readOptions: [FormatOption<ReadOptions>] { [] }
    static var writeOptions: [FormatOption<WriteOptions>] { [] }
    static func sniff(_ head: Span<UInt8>) -> SniffConfidence { .no }
    static func check(_ options: ReadOptions) throws(TimelineError) {}
    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? { nil }
    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? { nil }
    static func makeFieldsWriter(_ options: WriteOptions, fields: FieldSelection) -> (
        any TimelineExporter
    )? {
        nil
    }
    static func declaredZone(in input: InputReader, parser: DateParser) throws(TimelineError)
        -> DeclaredZone?
    { nil }
}

/// Settings that belong to one format, stored in `ReadOptions`/`WriteOptions` by key so that
/// a format adds its own without a field in those types: the format's file declares a key
/// and a property (`options.csv`) that reads and writes it.
package protocol FormatSettingsKey {
    associatedtype Value: Sendable
    static var defaultValue: Value { get }
}

/// The settings of the formats that have any, by key (see `FormatSettingsKey`).
package struct FormatSettings: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// Every format's defaults.
    package init() {}

    package subscript<Key: FormatSettingsKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}
