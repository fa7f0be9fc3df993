/// Writes nothing: for runs that only look at the events (`timeline validate`).
final class DiscardingExporter: EventEncodingExporter {
    init() {}
    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}
    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {}
    func finish(to out: OutputWriter) throws(TimelineError) {}
    func encode(_ event: Event, into bytes: inout EncodedBytes) {}
}
