/// What the validation rules read of one event, taken once per event so that eight rules do
/// not each decode it: plain values only (the start's parts, where the event came from as
/// numbers), so reading or copying facts never retains a string. The event's text (its
/// start as written, its end) is read through `event`, which is valid only while the batch
/// is being digested — rules read it for the few examples they keep.
struct EventFacts {
    let event: UnsafePointer<Event>
    /// The source file's number in the batch (`ValidationBatch.files`).
    let file: Int32
    /// The series' number in the batch (`ValidationBatch.series`), -1 without a series.
    let series: Int32
    /// The source line, -1 when unknown.
    let line: Int32
    /// The source record number (0 without a source).
    let record: Int
    let hasSource: Bool
    let basis: TimeBasis
    let instant: Instant?
    let offset: UTCOffset?
    /// The start's wall time as written, in seconds since 1970-01-01T00:00 of that wall
    /// clock (instant + offset): its day and time of day without a calendar conversion.
    let localSeconds: Int64?
    let date: CivilDate?

    var hasSeries: Bool { series >= 0 }
    /// The day of the start's wall time as written, as days since 1970-01-01.
    var writtenDay: Int64? { localSeconds.map { Self.day($0) } }

    /// The day (days since 1970-01-01) of a wall time in seconds since 1970-01-01T00:00.
    static func day(_ localSeconds: Int64) -> Int64 {
        localSeconds >= 0 ? localSeconds / 86400 : (localSeconds - 86399) / 86400
    }
    var zone: String? { event.pointee.start.zone }
    /// The start as written (`raw`), else as RFC 3339: what examples show.
    var startText: String { event.pointee.start.raw ?? event.pointee.start.rfc3339 }
    var end: TimeValue? { event.pointee.end }
}

/// One batch of events as the rules read it: their facts, and the source files and series
/// they name, numbered within the batch (the validator translates the numbers to the run's).
struct ValidationBatch {
    private(set) var facts: [EventFacts] = []
    /// Source file names by batch number (`-` for events without a source).
    private(set) var files: [String] = []
    private(set) var series = StringIndex()
    private var lastSeries: (name: String, number: Int32)?

    init(_ events: UnsafeBufferPointer<Event>) {
        facts.reserveCapacity(events.count)
        events.forEachEvent { add($0) }
    }

    private mutating func add(_ e: UnsafePointer<Event>) {
        // The start through a pointer to it: binding it to a constant would copy it.
        let start = TimeValue.parts(at: e.pointer(to: \.start)!)
        let source = e.pointee.source
        facts.append(EventFacts(
            event: e, file: fileNumber(source?.file ?? "-"), series: seriesNumber(e.pointee.series),
            line: Int32(clamping: source?.line ?? -1), record: source?.record ?? 0, hasSource: source != nil,
            basis: e.pointee.start.basis, instant: start.instant, offset: start.offset,
            localSeconds: start.instant.map { $0.seconds + Int64(start.offset!.seconds) }, date: start.date))
    }

    /// Events of a batch almost always share one file, and a series' events follow each
    /// other: both are numbered comparing with the last one first.
    private mutating func fileNumber(_ name: String) -> Int32 {
        if !files.isEmpty, files[files.count - 1] == name { return Int32(files.count - 1) }
        if let i = files.firstIndex(of: name) { return Int32(i) }
        files.append(name)
        return Int32(files.count - 1)
    }

    private mutating func seriesNumber(_ name: String?) -> Int32 {
        guard let name else { return -1 }
        if let last = lastSeries, last.name == name { return last.number }
        let n = Int32(series.number(of: name).number)
        lastSeries = (name, n)
        return n
    }

    /// An example for findings: where the event came from and its start as written.
    func example(_ e: EventFacts, note: String? = nil, value: String? = nil) -> Finding.Example {
        Finding.Example(file: files[Int(e.file)], line: e.line < 0 ? nil : Int(e.line), value: value ?? e.startText, note: note)
    }
}

/// The files and series of a whole run, numbered in first-seen order: rules keep numbers
/// and look the names up when they report.
struct RunNames {
    private(set) var files = StringIndex()
    private(set) var series = StringIndex()

    /// The run's numbers for a batch's files and series (registering new names).
    mutating func numbers(for files: [String], series batchSeries: StringIndex) -> BatchNumbers {
        BatchNumbers(
            files: files.map { Int32(self.files.number(of: $0).number) },
            series: (0..<batchSeries.count).map { Int32(series.number(of: batchSeries.strings[$0], hash: batchSeries.hash(at: $0)).number) })
    }
}

/// A batch's file and series numbers translated to the run's (`RunNames`).
struct BatchNumbers {
    let files: [Int32]
    let series: [Int32]
}
