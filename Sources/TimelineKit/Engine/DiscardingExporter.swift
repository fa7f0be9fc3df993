/// Writes nothing: for runs that only look at the events (`timeline validate`).
public final class DiscardingExporter: EventEncodingExporter {
    public init() {}
    public func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}
    public func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {}
    public func finish(to out: OutputWriter) throws(TimelineError) {}
    public func encode(_ event: Event, into bytes: inout [UInt8]) {}
}
