/// What the validation rules read of an event, taken once per event so that eight rules do
/// not each copy the whole event (every copy retains all of its strings): the strings they
/// may keep, and the start time's parts as plain values.
public struct EventFacts {
    public private(set) var id: String
    public private(set) var series: String?
    /// The source file, `-` when the event has no source.
    public private(set) var file: String
    public private(set) var hasSource: Bool
    public private(set) var line: Int?
    public private(set) var record: Int
    public private(set) var basis: TimeBasis
    public private(set) var instant: Instant?
    public private(set) var offset: UTCOffset?
    public private(set) var local: LocalDateTime?
    public private(set) var date: CivilDate?
    public private(set) var zone: String?
    /// The start as written (`raw`), else as RFC 3339: what examples show.
    public private(set) var startText: String
    public private(set) var end: TimeValue?

    init(_ e: UnsafePointer<Event>) {
        id = e.pointee.id
        series = e.pointee.series
        hasSource = e.pointee.source != nil
        file = e.pointee.source?.file ?? "-"
        line = e.pointee.source?.line
        record = e.pointee.source?.record ?? 0
        let start = e.pointee.start
        basis = start.basis
        instant = start.instant
        offset = start.offset
        local = start.local
        date = start.date
        zone = start.zone
        startText = start.raw ?? start.rfc3339
        end = e.pointee.end
    }

    /// An example for findings: where the event came from and its start as written.
    public func example(note: String? = nil, value: String? = nil) -> Finding.Example {
        Finding.Example(file: file, line: line, value: value ?? startText, note: note)
    }
}

extension UnsafeBufferPointer where Element == EventFacts {
    /// Calls `body` with a pointer to each element, whose fields are then read in place (a
    /// `for` loop would copy each, retaining its strings, once per rule).
    @inline(__always)
    func forEachFact(_ body: (UnsafePointer<EventFacts>) -> Void) {
        guard let base = baseAddress else { return }
        for i in 0..<count { body(base + i) }
    }
}
