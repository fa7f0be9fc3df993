/// An event lent in place for the length of one call — inside the batch being filled, or
/// an array being validated — whose fields are read where they lie: binding the event to a
/// constant, iterating an array of events, or even a `borrowing` parameter copies the whole
/// event here (every string retained, then released), and the validator reads every event
/// of a run.
struct EventRef {
    private let event: UnsafePointer<Event>
    /// Whether the id is the one importers give a record that has none
    /// (`Event.generatedID`), when the importer that made the event says; nil when unknown.
    let idIsGenerated: Bool?

    private init(_ event: UnsafePointer<Event>, idIsGenerated: Bool? = nil) {
        self.event = event
        self.idIsGenerated = idIsGenerated
    }

    /// Lends `event` to `body`, with whether its id was generated when that is known.
    @inline(__always)
    static func lending<R>(
        _ event: borrowing Event, idIsGenerated: Bool? = nil, _ body: (EventRef) -> R
    ) -> R {
        withUnsafePointer(to: event) { body(EventRef($0, idIsGenerated: idIsGenerated)) }
    }

    /// Lends each event of `events` to `body`, in order, `range` only when given.
    @inline(__always)
    static func forEach(in events: [Event], range: Range<Int>? = nil, _ body: (EventRef) -> Void) {
        events.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            for i in range ?? 0..<all.count { body(EventRef(base + i)) }
        }
    }

    private var start: UnsafePointer<TimeValue> { event.pointer(to: \.start)! }

    /// The start's instant, offset and date, read field by field.
    var startParts: (instant: Instant?, offset: UTCOffset?, date: CivilDate?) {
        let p = start
        guard p.pointee.basis != .date else {
            return (nil, nil, CivilDate(daysSinceEpoch: p.pointee.seconds))
        }
        return (
            Instant(unchecked: p.pointee.seconds, nanoseconds: p.pointee.nanoseconds),
            UTCOffset(seconds: Int(p.pointee.offsetSeconds)), nil
        )
    }

    var startBasis: TimeBasis { start.pointee.basis }
    /// The start as written: its raw text, else RFC 3339.
    var startText: String { start.pointee.raw ?? start.pointee.rfc3339 }
    var startZone: String? { start.pointee.zone }
    /// Whether the start as written ends in `Z`: UTC itself, not an offset of a place.
    var startWrittenInUTC: Bool { start.pointee.rawEndsInZ }
    /// Whether the event names a place.
    var hasLocation: Bool { !(event.pointer(to: \.location)!.pointee?.isEmpty ?? true) }
    var end: TimeValue? { event.pointee.end }
    var source: SourceReference? { event.pointee.source }
    /// The source's file, record and line, read in place: the whole `SourceReference` would
    /// bring its format's string along, retained and released for nothing.
    var sourcePlace: (file: String, record: Int, line: Int?)? {
        let source = event.pointer(to: \.source)!
        guard let record = source.pointee?.record else { return nil }
        return (source.pointee!.file, record, source.pointee!.line)
    }
    var id: String { event.pointer(to: \.identity)!.pointee.text }
    var series: String? { event.pointer(to: \.series)!.pointee }
    var attributes: [String: String] { event.pointer(to: \.attributes)!.pointee }

    /// Lends the id's UTF-8 bytes to `body`.
    func withIDBytes<R>(_ body: (ByteView) -> R) -> R {
        event.pointer(to: \.identity)!.pointee.text.withByteView(body)
    }
}
