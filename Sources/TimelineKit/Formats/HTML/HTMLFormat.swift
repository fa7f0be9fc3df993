/// `html`: one self-contained page with the timeline (`HTMLTimelineExporter`).
enum HTMLFormat: FormatPlugin {
    static let id = "html"
    static let summary = "a self-contained HTML timeline page"
    static let extensions = ["html", "htm"]

    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        HTMLTimelineExporter(export: options)
    }
}
