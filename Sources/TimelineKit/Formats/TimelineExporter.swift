/// Settings every exporter shares.
public struct ExportOptions: Sendable {
    /// The display zone (`--zone`): where days are counted and times shown.
    public var displayZone: ResolvedZone = .utc
    /// CSV: how times are written (`--time-format`); nil is RFC 3339 in the display zone.
    public var timeFormat: DateOutputFormat?
    /// CSV: neutralise formula-looking cells (`--safe-csv`).
    public var safeCSV = false
    /// ICS: write every time in UTC instead of TZID + VTIMEZONE (`--ics-utc`).
    public var icsUTC = false
    /// Text: language, colour, the moment relative times count from (`--now`; nil = Unix epoch
    /// 0 is never used — the CLI passes the clock), and the grouping unit.
    public var textLocale: TextLocale = .english
    public var color = false
    public var now: Instant?
    public var grouping: GroupingUnit = .none
    /// Text: income left of the line, expense right (`--layout split`).
    public var splitLayout = false
    /// Text/HTML order themselves: descending when asked, else ascending (input order means
    /// nothing on a timeline read by people).
    public var descending = false

    public init() {}
}

/// An output format. Exporters receive events one at a time; one that needs them all
/// (grouped text, ICS with generated VTIMEZONEs) collects them itself.
public protocol TimelineExporter: AnyObject {
    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError)
    func write(_ event: Event, to out: OutputWriter) throws(TimelineError)
    func finish(to out: OutputWriter) throws(TimelineError)
}

/// An exporter whose bytes for an event depend on that event alone (not on the events
/// before it), so a streaming conversion can encode events on worker threads, several
/// batches at once, and write the bytes in input order. `encode` must not touch mutable
/// state of the exporter.
public protocol EventEncodingExporter: TimelineExporter {
    /// Appends exactly what `write(event, to:)` would write.
    func encode(_ event: Event, into bytes: inout [UInt8])
}
