/// An output format. Exporters receive events one at a time; one that needs them all
/// (grouped text, ICS with generated VTIMEZONEs) collects them itself.
protocol TimelineExporter: AnyObject {
    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError)
    func write(_ event: Event, to out: OutputWriter) throws(TimelineError)
    func finish(to out: OutputWriter) throws(TimelineError)
    /// Whether the output writes wall times in the display zone (CSV, the readable
    /// timelines), so that an event must stay in the years 0001–9999 there too.
    var showsTimesInDisplayZone: Bool { get }
    /// What the output cannot hold (Parquet's nanosecond instants), checked as events are
    /// delivered so that such an event is rejected with its reason rather than written.
    var limit: OutputLimit? { get }
}

extension TimelineExporter {
    var showsTimesInDisplayZone: Bool { false }
    var limit: OutputLimit? { nil }
}

/// An output's limit: the reason an event cannot be written there, or nil when it can.
struct OutputLimit: Sendable {
    let reason: @Sendable (Event) -> String?

    /// An output that shows wall times in `zone` (the readable timelines, CSV with
    /// `--time-format`) cannot show one outside the years 0001–9999 there.
    static func showingTimes(in zone: ZoneRules) -> OutputLimit {
        OutputLimit { event in
            event.unsupportedTime(shownIn: zone).map {
                "\($0) (the display zone, where this output shows times)"
            }
        }
    }

    /// Both limits: the first reason either gives.
    static func either(_ a: OutputLimit?, _ b: OutputLimit?) -> OutputLimit? {
        guard let a else { return b }
        guard let b else { return a }
        return OutputLimit { a.reason($0) ?? b.reason($0) }
    }
}

/// An exporter whose bytes for an event depend on that event alone (not on the events
/// before it), so a streaming conversion can encode events on worker threads, several
/// batches at once, and write the bytes in input order. `encode` must not touch mutable
/// state of the exporter.
protocol EventEncodingExporter: TimelineExporter, EventRecordEncoding {
    /// Appends exactly what `write(event, to:)` would write.
    func encode(_ event: Event, into bytes: inout EncodedBytes)
}

/// Makes each event's record for a sort of encoded records (`EncodedRecordSorter`) on the
/// worker thread that mapped it: an exporter's own bytes (`EventEncodingExporter`), or the
/// records sections are cut from and drawn on worker threads (`SectionRecords`). `encode`
/// reads nothing that changes. A class: each event added to a batch reads the batch's
/// encoder, and a class reference is copied with a retain, where a struct in an existential
/// is copied through its type's value witnesses.
protocol EventRecordEncoding: AnyObject {
    /// Appends the event's record.
    func encode(_ event: Event, into bytes: inout EncodedBytes)
}

/// An exporter that builds its output from parts, one per batch of events, each filled on
/// the worker thread that mapped the batch (a Parquet writer's columns); the parts are
/// written in input order. Only `makePart` and the part itself run on worker threads, and
/// neither may touch mutable state of the exporter.
protocol PartBuildingExporter: TimelineExporter {
    /// An empty part for the next batch.
    func makePart() -> any ExportPart
    /// Writes what `write(event, to:)` would for each of the part's events, in order.
    func write(part: consuming any ExportPart, to out: OutputWriter) throws(TimelineError)
}

/// What a `PartBuildingExporter` takes from one batch of events.
protocol ExportPart: Sendable {
    /// Takes `event`, which the exporter's `limit` lets through.
    mutating func add(_ event: borrowing Event)
    /// Events taken.
    var count: Int { get }
}
