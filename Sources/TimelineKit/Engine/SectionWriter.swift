/// Renders sections on worker threads, a few at a time, and writes them in order: the
/// sections of a sorted conversion are independent once cut, and drawing them is most of a
/// readable output's cost.
final class SectionWriter {
    private let exporter: any SectionExporter
    private let output: OutputWriter
    private let work = OrderedWork<(section: TimelineGroup, bytes: [UInt8])>(limit: 4)

    init(_ exporter: any SectionExporter, to output: OutputWriter) {
        self.exporter = exporter
        self.output = output
    }

    func add(_ section: TimelineGroup) throws(TimelineError) {
        let exporter = exporter
        try work.submit({ (section, exporter.render(section: section)) }, deliver: write)
    }

    /// Writes every section still being rendered.
    func finish() throws(TimelineError) { try work.finish(deliver: write) }

    /// Waits for the sections being rendered, writing none (after an error).
    func abandon() { work.abandon() }

    private func write(_ done: consuming (section: TimelineGroup, bytes: [UInt8]))
        throws(TimelineError)
    {
        try exporter.write(rendered: done.bytes, of: done.section, to: output)
    }
}
