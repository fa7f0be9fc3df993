/// `timeline`: the canonical timeline, as a document or NDJSON (`CanonicalImporter`); written
/// as the document. JSON and NDJSON input that is already canonical is read the same way.
package enum CanonicalFormat: FormatPlugin {
    package static let id = "timeline"
    package static let summary = "the canonical timeline document or NDJSON"
    package static let extensions = ["timeline"]

    package static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? { CanonicalImporter() }
    package static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? { CanonicalDocumentExporter() }
}
