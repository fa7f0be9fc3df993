/// What the validation rules read of one event, taken once as the event is mapped so that
/// eight rules do not each decode it and the event need not be kept for them: plain values
/// (the start's parts, where the event came from as numbers) and the texts examples show as
/// places in the batch's text arenas — reading or copying facts never retains a string.
struct EventFacts {
    // In this order so that the fields pack into 88 bytes (Swift lays a struct out in
    // declaration order): a batch held for the partitioned rules keeps one per event.

    /// The source record number (0 without a source).
    let record: Int
    /// The start's instant and offset, when it has a time (`hasTime`): stored flat rather
    /// than as optionals, which would make every batch held for the partitioned rules a
    /// third larger.
    private let seconds: Int64
    /// The start as written (`raw`, else RFC 3339), in `ValidationBatch.starts`.
    let startText: TextArena.Text
    /// The source file's number in the batch (`ValidationBatch.files`).
    let file: Int32
    /// The id, in `ValidationBatch.ids`; nil when it is the id importers give a record that
    /// has none (`Event.generatedID`), which only a few checks need to see.
    let id: TextArena.Text?
    let basis: TimeBasis
    let hasSource: Bool
    let marks: Marks
    /// The series' number in the batch (`ValidationBatch.series`), -1 without a series.
    let series: Int32
    /// The source line, -1 when unknown.
    let line: Int32
    /// Which system wrote the event, when a column says so (`EventFacts.originKeys`): a
    /// hash of its value, 0 without one.
    let origin: UInt32
    private let nanoseconds: Int32
    private let offsetSeconds: Int32
    /// The event's end in `ValidationBatch.ends`, -1 without one (few events have one).
    let endNumber: Int32
    /// The start's zone (in `ValidationBatch.assumedZones`), kept only when a time was read
    /// in the assumed zone (the only finding that names it); -1 otherwise.
    let assumedZone: Int32
    let date: CivilDate?
    private let hasTime: Bool

    /// What TZ102 reads of how a start was written and where the event happened.
    struct Marks: OptionSet {
        let rawValue: UInt8
        /// The start is written with an offset and names a zone (a zone column, a `[Zone]`
        /// suffix) that has that offset at that instant: the offset is explained by its zone.
        static let offsetFitsItsZone = Marks(rawValue: 1)
        /// The start is written in UTC itself (`Z`): a server's clock, not a place's.
        static let writtenInUTC = Marks(rawValue: 2)
        /// The event has a location: it happened at a place.
        static let atAPlace = Marks(rawValue: 4)
    }

    var offsetFitsItsZone: Bool { marks.contains(.offsetFitsItsZone) }

    init(
        file: Int32, series: Int32, line: Int32, record: Int, hasSource: Bool, basis: TimeBasis,
        marks: Marks,
        time: (instant: Instant, offset: UTCOffset)?, date: CivilDate?, startText: TextArena.Text,
        id: TextArena.Text?,
        assumedZone: Int32, endNumber: Int32, origin: UInt32
    ) {
        self.file = file
        self.series = series
        self.line = line
        self.origin = origin
        self.record = record
        seconds = time?.instant.seconds ?? 0
        nanoseconds = time?.instant.nanoseconds ?? 0
        offsetSeconds = Int32(time?.offset.seconds ?? 0)
        self.startText = startText
        self.id = id
        self.assumedZone = assumedZone
        self.date = date
        self.endNumber = endNumber
        self.basis = basis
        self.hasSource = hasSource
        self.marks = marks
        hasTime = time != nil
    }

    var instant: Instant? { hasTime ? Instant(unchecked: seconds, nanoseconds: nanoseconds) : nil }
    var offset: UTCOffset? { hasTime ? UTCOffset(seconds: Int(offsetSeconds)) : nil }
    /// The start's wall time as written, in seconds since 1970-01-01T00:00 of that wall
    /// clock (instant + offset): its day and time of day without a calendar conversion.
    var localSeconds: Int64? { hasTime ? seconds + Int64(offsetSeconds) : nil }

    /// Attribute names that say which system wrote an event (compared without case): the
    /// feeds a timeline merges, each of which may have its own clock.
    static let originKeys: Set<String> = [
        "source", "system", "channel", "carrier", "courier", "origin", "provider", "feed",
        "platform", "app", "来源", "渠道", "系统",
    ]

    /// What the rules read of an end.
    struct End {
        let basis: TimeBasis
        let instant: Instant?
        let date: CivilDate?
        /// As written (else RFC 3339), in `ValidationBatch.notes`.
        let text: TextArena.Text
    }

    var hasSeries: Bool { series >= 0 }
    /// The day of the start's wall time as written (days since 1970-01-01) and the second
    /// of that day.
    var written: (day: Int64, second: Int64)? {
        localSeconds.map { LocalDateTime.dayAndSecond(ofSecondsAsIfUTC: $0) }
    }
}

/// The validator's observation of a batch (see `EventStreamObserver`): fills a
/// `ValidationBatch` event by event as the events are mapped. A class only to be shared
/// with the batch of events; the batch is a value inside it, so adding an event is one
/// access to the class's state, not one (checked at run time) per field.
final class ValidationObservation: EventObservation {
    var batch: ValidationBatch
    private let validator: Validator

    init(capacity: Int, validator: Validator) {
        batch = ValidationBatch(capacity: capacity)
        self.validator = validator
    }

    var count: Int { batch.count }

    func add(_ e: EventRef) {
        batch.add(e)
    }

    func digest() -> ObservationDigest {
        let digest = validator.digest(batch)
        return ObservationDigest { [validator] in validator.absorb(digest) }
    }
}

/// One batch of events as the rules read it, filled event by event as the events are
/// mapped (the events themselves are not kept): their facts, the texts examples may show,
/// and the source files and series they name, numbered within the batch (the validator
/// translates the numbers to the run's).
struct ValidationBatch: Sendable {
    private(set) var facts: [EventFacts] = []
    /// The ends of the events that have one (`EventFacts.endNumber`).
    private(set) var ends: [EventFacts.End] = []
    /// Source file names by batch number (`-` for events without a source), and the
    /// prefix of the ids generated for their records (`Event.generatedIDPrefix`, UTF-8).
    private(set) var files: [String] = []
    private(set) var generatedIDPrefixes: [[UInt8]] = []
    private(set) var series = StringIndex()
    /// The zones times were assumed in (`EventFacts.assumedZone`).
    private(set) var assumedZones: [String] = []
    /// Start texts, ids, and the ends'.
    private(set) var starts = TextArena()
    private(set) var ids = TextArena()
    private(set) var notes = TextArena()
    private var lastSeries: (name: String, number: Int32)?
    /// The rules of the zones starts name, by name (nil: not an IANA zone).
    private var zoneRules: [String: ZoneRules?] = [:]

    /// The earliest and the latest instant written with an offset (what TZ102's zones are
    /// looked up over).
    private(set) var offsetSpan: ClosedRange<Int64>?

    /// Whether the generated ids of each file (by batch number) may equal another id of the
    /// run; empty, as it is until the validator has shown otherwise (`GeneratedIDs`): all may.
    var generatedIDsMayCollide: [Bool] = []

    func generatedIDsMayCollide(in file: Int32) -> Bool {
        generatedIDsMayCollide.isEmpty || generatedIDsMayCollide[Int(file)]
    }

    var count: Int { facts.count }

    /// Gives back the room reserved and not used (facts and texts), for a batch kept to the
    /// end of a run.
    mutating func compact() {
        if facts.capacity > facts.count + facts.count / 4 {
            var exact: [EventFacts] = []
            exact.reserveCapacity(facts.count)
            exact.append(contentsOf: facts)
            facts = exact
        }
        starts.compact()
        ids.compact()
        notes.compact()
    }

    /// About the bytes the batch holds: its facts and the texts written (room reserved and
    /// never written costs address space, not memory).
    var approximateBytes: Int {
        facts.count * MemoryLayout<EventFacts>.stride + ends.count
            * MemoryLayout<EventFacts.End>.stride + starts.byteCount + ids.byteCount
            + notes.byteCount
    }

    init(capacity: Int = 0) {
        facts.reserveCapacity(capacity)
    }

    /// An empty batch of events read back from a partition (`KeyedFactCodec`), whose file
    /// numbers are the run's.
    init(replaying files: [String], capacity: Int) {
        facts.reserveCapacity(capacity)
        for name in files { _ = fileNumber(name) }
    }

    /// Takes what the rules read of the event at `e`.
    mutating func add(_ e: EventRef) {
        let start = e.startParts
        let basis = e.startBasis
        var endNumber: Int32 = -1
        var assumed = basis == .assumed
        if let end = e.end {
            endNumber = Int32(ends.count)
            ends.append(
                EventFacts.End(
                    basis: end.basis, instant: end.instant, date: end.date,
                    text: notes.append(end.raw ?? end.rfc3339)))
            assumed = assumed || end.basis == .assumed
        }
        // `if let`, not `source != nil`: that compares two optional sources as values.
        var file: Int32 = 0
        var record = 0
        var line: Int32 = -1
        var hasSource = false
        if let source = e.sourcePlace {
            file = fileNumber(source.file)
            record = source.record
            line = Int32(clamping: source.line ?? -1)
            hasSource = true
        } else {
            file = fileNumber("-")
        }
        let generatedID =
            hasSource
            && (e.idIsGenerated
                ?? (e.withIDBytes {
                    Event.generatedRecord($0, prefix: generatedIDPrefixes[Int(file)])
                } == record))
        let time = start.instant.map { ($0, start.offset!) }
        var marks: EventFacts.Marks = []
        if offsetFitsItsZone(e, basis: basis, instant: start.instant, offset: start.offset) {
            marks.insert(.offsetFitsItsZone)
        }
        if basis == .offset, start.offset?.seconds == 0, e.startWrittenInUTC {
            marks.insert(.writtenInUTC)
        }
        if e.hasLocation { marks.insert(.atAPlace) }
        facts.append(
            EventFacts(
                file: file, series: seriesNumber(e.series), line: line, record: record,
                hasSource: hasSource,
                basis: basis, marks: marks,
                time: time, date: start.date, startText: starts.append(e.startText),
                id: generatedID ? nil : ids.append(e.id),
                assumedZone: assumed ? assumedZoneNumber(e.startZone) : -1, endNumber: endNumber,
                origin: Self.origin(e)))
        if basis == .offset, let instant = start.instant { widenOffsetSpan(instant.seconds) }
    }

    /// Whether the start's offset is the one the zone it names has at that instant.
    private mutating func offsetFitsItsZone(
        _ e: EventRef, basis: TimeBasis, instant: Instant?, offset: UTCOffset?
    ) -> Bool {
        guard basis == .offset, let name = e.startZone, let instant, let offset else {
            return false
        }
        if zoneRules[name] == nil { zoneRules[name] = .some(ZoneResolver.ianaRules(name)) }
        guard let rules = zoneRules[name]! else { return false }
        return rules.offset(at: instant) == offset
    }

    private mutating func widenOffsetSpan(_ seconds: Int64) {
        offsetSpan =
            offsetSpan.map { min($0.lowerBound, seconds)...max($0.upperBound, seconds) }
            ?? seconds...seconds
    }

    /// Takes an event read back from a partition: only what the partitioned rules read.
    mutating func addReplayed(
        file: Int32, line: Int32, record: Int, hasSource: Bool, basis: TimeBasis,
        marks: EventFacts.Marks,
        time: (instant: Instant, offset: UTCOffset, origin: UInt32)?, start: ByteView,
        series: ByteView?, id: ByteView?
    ) {
        facts.append(
            EventFacts(
                file: file, series: series.map { seriesNumber($0.string) } ?? -1, line: line,
                record: record, hasSource: hasSource, basis: basis,
                marks: marks, time: time.map { ($0.instant, $0.offset) }, date: nil,
                startText: starts.append(bytes: start), id: id.map { ids.append(bytes: $0) },
                assumedZone: -1, endNumber: -1,
                origin: time?.origin ?? 0))
        if basis == .offset, let time { widenOffsetSpan(time.instant.seconds) }
    }

    /// The end of `e`, if it has one.
    func end(of e: EventFacts) -> EventFacts.End? {
        e.endNumber < 0 ? nil : ends[Int(e.endNumber)]
    }

    /// Calls `body` with the start as written of `e`.
    func withStartBytes<R>(_ e: EventFacts, _ body: (ByteView) -> R) -> R {
        starts.withBytes(e.startText, body)
    }

    /// Calls `body` with the id of `e`, or `generated` when it has the id importers give.
    func withIDBytes<R>(_ e: EventFacts, orGenerated generated: [UInt8], _ body: (ByteView) -> R)
        -> R
    {
        guard let id = e.id else { return generated.withByteView(body) }
        return ids.withBytes(id, body)
    }

    /// The hash of the event's origin column (`EventFacts.originKeys`), 0 without one.
    private static func origin(_ e: EventRef) -> UInt32 {
        let attributes = e.attributes
        guard !attributes.isEmpty else { return 0 }
        // The smallest origin key the event has, so that an event with two (`source` and
        // `channel`) gives the same origin whatever order its dictionary lists them in.
        var chosen: (key: String, value: String)?
        for (key, value) in attributes where !value.isEmpty {
            // Most attribute names (`note`, `location`) start with a byte no origin key does.
            guard let first = key.utf8.first, originFirstBytes[Int(first)] else { continue }
            guard EventFacts.originKeys.contains(key.lowercased()),
                chosen.map({ key < $0.key }) ?? true
            else { continue }
            chosen = (key, value)
        }
        return chosen.map { UInt32(truncatingIfNeeded: StringIndex.hash($0.value)) | 1 } ?? 0
    }

    /// By byte, whether an origin key's name (in any case) can start with it.
    private static let originFirstBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for key in EventFacts.originKeys {
            for variant in [key, key.uppercased()] {
                if let first = variant.utf8.first { table[Int(first)] = true }
            }
        }
        return table
    }()

    /// Events of a batch almost always share one file, and a series' events follow each
    /// other: both are numbered comparing with the last one first.
    private mutating func fileNumber(_ name: String) -> Int32 {
        if !files.isEmpty, files[files.count - 1] == name { return Int32(files.count - 1) }
        if let i = files.firstIndex(of: name) { return Int32(i) }
        files.append(name)
        generatedIDPrefixes.append(Array(Event.generatedIDPrefix(file: name).utf8))
        return Int32(files.count - 1)
    }

    /// The number of the zone an assumed time was read in, comparing with the last one
    /// first (a run assumes one zone, or a zone column names a few).
    private mutating func assumedZoneNumber(_ name: String?) -> Int32 {
        guard let name else { return -1 }
        if let i = assumedZones.lastIndex(of: name) { return Int32(i) }
        assumedZones.append(name)
        return Int32(assumedZones.count - 1)
    }

    private mutating func seriesNumber(_ name: String?) -> Int32 {
        guard let name else { return -1 }
        return seriesNumber(name)
    }

    private mutating func seriesNumber(_ name: String) -> Int32 {
        if let last = lastSeries, last.name == name { return last.number }
        let n = Int32(series.number(of: name).number)
        lastSeries = (name, n)
        return n
    }

    func startText(_ e: EventFacts) -> String { starts[e.startText] }

    /// An example for findings: where the event came from and its start as written.
    func example(_ e: EventFacts, note: String? = nil, value: String? = nil) -> Finding.Example {
        Finding.Example(
            file: files[Int(e.file)], line: e.line < 0 ? nil : Int(e.line),
            value: value ?? startText(e), note: note)
    }
}

/// The files and series of a whole run, numbered in first-seen order: rules keep numbers
/// and look the names up when they report. A partition of keyed facts is checked with the
/// run's files and a series numbering of its own.
struct RunNames {
    private(set) var files = StringIndex()
    private(set) var series = StringIndex()
    /// The earliest and the latest instant written with an offset, of the whole run.
    private(set) var offsetSpan: ClosedRange<Int64>?

    /// The run's numbers for a batch's files and series (registering new names).
    mutating func numbers(
        for files: [String], series batchSeries: StringIndex, offsetSpan span: ClosedRange<Int64>?
    ) -> BatchNumbers {
        if let span {
            offsetSpan =
                offsetSpan.map {
                    min($0.lowerBound, span.lowerBound)...max($0.upperBound, span.upperBound)
                } ?? span
        }
        return BatchNumbers(
            files: files.map { Int32(self.files.number(of: $0).number) },
            series: (0..<batchSeries.count).map {
                Int32(
                    series.number(of: batchSeries.strings[$0], hash: batchSeries.hash(at: $0))
                        .number)
            })
    }

    /// The names for checking one partition: the run's files and offset span, no series yet.
    func forPartition() -> RunNames {
        var names = RunNames()
        names.files = files
        names.offsetSpan = offsetSpan
        return names
    }
}

/// A batch's file and series numbers translated to the run's (`RunNames`).
struct BatchNumbers {
    let files: [Int32]
    let series: [Int32]
}
