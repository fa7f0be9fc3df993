/// The formats the toolkit knows: the one list. Order matters where several formats could
/// claim an input (extensions, content) and for the order help lists them in.
enum FormatRegistry {
    static let all: [any FormatPlugin.Type] = [
        CSVFormat.self,
        TSVFormat.self,
        JSONFormat.self,
        NDJSONFormat.self,
        ICSFormat.self,
        CanonicalFormat.self,
        TextFormat.self,
        HTMLFormat.self,
        MarkdownFormat.self,
        XLSXFormat.self,
        ParquetFormat.self,
    ]

    /// The format with this id (case-insensitive).
    static func plugin(_ id: String) -> (any FormatPlugin.Type)? {
        let lower = id.lowercased()
        return all.first { $0.id == lower }
    }

    /// The ids of the formats that can be read, in registry order.
    /// (Worked out once: making a reader builds its vocabularies.)
    static let readableIDs: [String] = all.filter { $0.makeReader(ReadOptions()) != nil }.map {
        $0.id
    }
    /// The ids of the formats that can be written, in registry order.
    /// The formats that write selected fields (`--fields`).
    static let fieldsWritableIDs: [String] = all.filter { plugin in
        let selection = try? FieldSelection("id")
        return selection.flatMap { plugin.makeFieldsWriter(WriteOptions(), fields: $0) } != nil
    }.map { $0.id }
    static let writableIDs: [String] = all.filter { $0.makeWriter(WriteOptions()) != nil }.map {
        $0.id
    }

    /// The format a file name's extension names, if any.
    static func plugin(forPath path: String) -> (any FormatPlugin.Type)? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        return all.first { $0.extensions.contains(ext) }
    }

    /// The readable format most sure of `head`, an input's first bytes; the first in
    /// registry order among equally sure ones; nil when none recognises it.
    static func detect(_ head: Span<UInt8>) -> (any FormatPlugin.Type)? {
        var best: (plugin: any FormatPlugin.Type, confidence: SniffConfidence)?
        for plugin in all {
            let confidence = plugin.sniff(head)
            if confidence > (best?.confidence ?? .no) { best = (plugin, confidence) }
        }
        return best?.plugin
    }
}

/// A file format, as the library's API names it (`FileFormat.csv`, `FileFormat.named("ics")`).
public struct FileFormat: Hashable, Sendable, CustomStringConvertible {
    /// The id the command line uses (`csv`, `ndjson`, `ics`, …).
    public let id: String

    init(_ plugin: any FormatPlugin.Type) {
        id = plugin.id
    }

    /// The format with this id, or nil (`FileFormat.named("tsv")`).
    public static func named(_ id: String) -> FileFormat? {
        FormatRegistry.plugin(id).map(FileFormat.init)
    }

    /// The format a file name's extension names (`orders.csv`), or nil.
    public static func forFile(named name: String) -> FileFormat? {
        FormatRegistry.plugin(forPath: name).map(FileFormat.init)
    }

    /// Every format, in the order the command line lists them.
    public static var all: [FileFormat] { FormatRegistry.all.map(FileFormat.init) }

    /// One line saying what the format is.
    public var summary: String { SettingText.rendered(plugin.summary, for: .library) }
    /// File name extensions that select it.
    public var extensions: [String] { plugin.extensions }
    /// Whether the toolkit can read it.
    public var isReadable: Bool { FormatRegistry.readableIDs.contains(id) }
    /// Whether the toolkit can write it.
    public var isWritable: Bool { FormatRegistry.writableIDs.contains(id) }

    public var description: String { id }

    /// The options the format declares for reading and writing (for the command line).
    /// Whether the format's files are binary (XLSX, Parquet) rather than text.
    package var isBinary: Bool { plugin.isBinary }
    package var readOptions: [FormatOption<ReadOptions>] { plugin.readOptions }
    package var writeOptions: [FormatOption<WriteOptions>] { plugin.writeOptions }

    /// Checks the format's own settings in `options` for combinations that make no sense.
    package func check(_ options: ReadOptions) throws(TimelineError) { try plugin.check(options) }

    var plugin: any FormatPlugin.Type { FormatRegistry.plugin(id)! }
}

extension FileFormat {
    /// The writer `options` ask for: whole events, or the selected fields.
    /// - Throws: a usage error for a format that cannot be written, or cannot write
    ///   selected fields.
    func makeWriter(_ options: WriteOptions) throws(TimelineError) -> any TimelineExporter {
        if let fields = options.fields {
            guard let exporter = plugin.makeFieldsWriter(options, fields: fields) else {
                let able = FormatRegistry.fieldsWritableIDs
                throw TimelineError(
                    .usage,
                    "\(.fields) writes \(able.joined(separator: ", ")) only, not '\(id)'; leave \(.fields) out to write whole events"
                )
            }
            return exporter
        }
        guard let exporter = plugin.makeWriter(options) else {
            throw TimelineError(
                .usage,
                "writing '\(id)' is not supported; writable formats: \(FormatRegistry.writableIDs.joined(separator: ", "))"
            )
        }
        return exporter
    }
}
