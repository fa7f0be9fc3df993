/// Writes nothing: for runs that only look at the events (`timeline validate`).
package final class DiscardingExporter: EventEncodingExporter {
    package init() {}
    package func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}
    package func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {}
    package func finish(to out: OutputWriter) throws(TimelineError) {}
    package func encode(_ event: Event, into bytes: inout [UInt8]) {}
}
