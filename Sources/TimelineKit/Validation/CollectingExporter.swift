/// Passes events on to another exporter (if any) and keeps a copy of each, for validation
/// after the run. Holds every event in memory.
public final class CollectingExporter: TimelineExporter {
    public private(set) var events: [Event] = []
    private let next: (any TimelineExporter)?

    public init(forwardingTo next: (any TimelineExporter)? = nil) {
        self.next = next
    }

    public func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {
        try next?.begin(header, to: out)
    }

    public func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        events.append(event)
        try next?.write(event, to: out)
    }

    public func finish(to out: OutputWriter) throws(TimelineError) {
        try next?.finish(to: out)
    }
}

extension CollectingExporter: GroupingExporter {
    /// Keeps the grouped events and passes the groups on, when the wrapped exporter can
    /// write groups.
    public func write(groups: [TimelineGroup], header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {
        guard let grouping = next as? any GroupingExporter else {
            throw TimelineError(.usage, "--group needs an output that holds groups (json, timeline); use --group none")
        }
        events += groups.flatMap(\.events)
        try grouping.write(groups: groups, header: header, to: out)
    }
}
