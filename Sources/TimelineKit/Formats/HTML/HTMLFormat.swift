/// `html`: one self-contained page with the timeline (`HTMLTimelineExporter`).
package enum HTMLFormat: FormatPlugin {
    package static let id = "html"
    package static let summary = "a self-contained HTML timeline page"
    package static let extensions = ["html", "htm"]

    package static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? { HTMLTimelineExporter(export: options) }
}
