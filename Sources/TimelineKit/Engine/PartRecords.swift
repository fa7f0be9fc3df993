/// A sorted conversion into an exporter that builds its output from parts (Parquet), drawn
/// from records rather than from held events: each event becomes a record (`EventRunCodec`)
/// on the worker thread that mapped it, the records are sorted as bytes
/// (`EncodedRecordSorter`, spilling and merging within `--memory`), and each chunk of sorted
/// records is turned back into events and built into a part on a worker thread
/// (`PartRecordWriter`); the parts are written in order.
final class EventRecordEncoder: EventRecordEncoding {
    func encode(_ event: Event, into bytes: inout EncodedBytes) {
        EventRunCodec.append(event, to: &bytes)
    }
}

/// Builds the parts of sorted record chunks on worker threads, a few at a time, and writes
/// them in order.
final class PartRecordWriter {
    private let exporter: any PartBuildingExporter
    private let output: OutputWriter
    private let work = OrderedWork<Result<any ExportPart, TimelineError>>(limit: 4)

    init(_ exporter: any PartBuildingExporter, to output: OutputWriter) {
        self.exporter = exporter
        self.output = output
    }

    /// Decodes `records` and builds them into a part, on a worker thread.
    func add(records: [UInt8]) throws(TimelineError) {
        let exporter = exporter
        try work.submit(
            {
                Result { () throws(TimelineError) in
                    var part = exporter.makePart()
                    try EventRunCodec.forEach(in: records) { part.add($0) }
                    return part
                }
            }, deliver: write)
    }

    /// Writes every part still being built.
    func finish() throws(TimelineError) { try work.finish(deliver: write) }

    /// Waits for the parts being built, writing none (after an error).
    func abandon() { work.abandon() }

    private func write(_ done: consuming Result<any ExportPart, TimelineError>)
        throws(TimelineError)
    {
        try exporter.write(part: try done.get(), to: output)
    }
}
