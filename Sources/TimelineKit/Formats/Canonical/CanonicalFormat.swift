/// `timeline`: the canonical timeline, as a document or NDJSON (`CanonicalImporter`); written
/// as the document. JSON and NDJSON input that is already canonical is read the same way.
enum CanonicalFormat: FormatPlugin {
    static let id = "timeline"
    static let summary = "the canonical timeline document or NDJSON"
    static let extensions = ["timeline"]

    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? {
        CanonicalImporter()
    }
    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        CanonicalDocumentExporter()
    }
}
