/// Renders sections on worker threads, a few at a time, and writes them in order: the
/// sections of a sorted conversion are independent once cut, and drawing them is most of a
/// readable output's cost.
final class SectionWriter {
    private let exporter: any SectionExporter
    private let output: OutputWriter
    private let work = OrderedWork<Result<(section: TimelineGroup, bytes: [UInt8]), TimelineError>>(
        limit: 4)

    init(_ exporter: any SectionExporter, to output: OutputWriter) {
        self.exporter = exporter
        self.output = output
    }

    /// Makes a section of sorted records (`SectionRecordEncoder`) and renders it on a worker
    /// thread, where its events are also let go of: destroying a section's events costs about
    /// as much as drawing them, and the thread that writes the sections in order must not do
    /// it for every section. The section comes back with its bytes, without its events.
    func add(records: [UInt8], from encoder: SectionRecordEncoder) throws(TimelineError) {
        let exporter = exporter
        try work.submit(
            {
                Result { () throws(TimelineError) in
                    Self.render(try encoder.section(of: records), by: exporter)
                }
            }, deliver: write)
    }

    private static func render(_ section: TimelineGroup, by exporter: any SectionExporter) -> (
        section: TimelineGroup, bytes: [UInt8]
    ) {
        var shell = section
        let bytes = exporter.render(section: shell)
        shell.events = []
        return (shell, bytes)
    }

    /// Writes every section still being rendered.
    func finish() throws(TimelineError) { try work.finish(deliver: write) }

    /// Waits for the sections being rendered, writing none (after an error).
    func abandon() { work.abandon() }

    private func write(
        _ done: consuming Result<(section: TimelineGroup, bytes: [UInt8]), TimelineError>
    ) throws(TimelineError) {
        let rendered = try done.get()
        try exporter.write(rendered: rendered.bytes, of: rendered.section, to: output)
    }
}
