/// A batch of events mapped on a worker thread: the events, and (when the consumer encodes
/// on the worker too) their encoded bytes — then the events are kept only if the consumer
/// still wants to look at them.
struct PreparedEvents: Sendable {
    var events: [Event]
    var encoded: [UInt8]?
    /// For a sort of encoded records: where each event's bytes start in `encoded`, and its
    /// sort key (input index left to the sorter).
    var starts: [Int] = []
    var keys: [TimelineSortKey] = []
    /// The exporter's part built from the events (`PartBuildingExporter`); `events` then
    /// holds only those the output's limit refused.
    var part: (any ExportPart)?
    var count: Int
    /// What an observer of the stream (validation) took from the events, if one is watching.
    var digest: ObservationDigest?
    /// What a sorted readable output needs from the events encoded (`SectionFacts`).
    var facts: SectionFacts?

    init(
        events: [Event], encoded: [UInt8]? = nil, count: Int? = nil,
        digest: ObservationDigest? = nil
    ) {
        self.events = events
        self.encoded = encoded
        self.count = count ?? events.count
        self.digest = digest
    }
}

/// Events mapped on a worker thread, gathered for their consumer: each is shown to the
/// stream's observer (validation) and encoded as it comes when the consumer streams into an
/// `EventEncodingExporter` (the event is then read where it lies, not copied out of an
/// array), and kept only when the consumer needs the events themselves. Not copyable: a batch
/// has one owner at a time, so its encoded bytes are cut to length in place when it is
/// handed on (`takeEncoded`), never copied whole.
struct EventBatch: ~Copyable {
    private(set) var events: [Event] = []
    private var encoded = EncodedBytes()
    private(set) var count = 0
    /// Where each event's bytes start and its sort key, when `sortZone` is set.
    private(set) var starts: [Int] = []
    private(set) var keys: [TimelineSortKey] = []
    /// The display zone of a sort of encoded records (`EncodedRecordSorter`): each event's
    /// sort key is worked out here, on the worker thread.
    let sortZone: ZoneRules?
    /// Set when events are encoded as they are added.
    let encoder: (any EventRecordEncoding)?
    /// Set when events go into an exporter's part as they are added. Those `limit` refuses
    /// are kept as events instead, here and when they are encoded.
    private(set) var part: (any ExportPart)?
    /// Whether `part` is set, known without copying the existential out to compare it.
    private let buildsPart: Bool
    let limit: OutputLimit?
    let keepsEvents: Bool
    /// Set when an observer of the stream (validation) is shown each event as it is added.
    let observation: (any EventObservation)?
    /// Set when a sorted readable output needs facts of every event encoded.
    private(set) var facts: SectionFacts?

    /// - Parameters:
    ///   - encodedCapacity: bytes to reserve for the encoding (a batch that grows from
    ///     nothing copies itself a dozen times on the way).
    ///   - eventCapacity: events to reserve room for when they are kept (the same).
    init(
        encoder: (any EventRecordEncoding)?, keepsEvents: Bool,
        observation: (any EventObservation)? = nil,
        sortZone: ZoneRules? = nil, encodedCapacity: Int = 0, eventCapacity: Int = 0,
        part: (any ExportPart)? = nil, limit: OutputLimit? = nil, facts: SectionFacts? = nil
    ) {
        self.encoder = encoder
        self.facts = encoder == nil ? nil : facts
        self.part = part
        buildsPart = part != nil
        self.limit = part == nil && encoder == nil ? nil : limit
        self.sortZone = encoder == nil ? nil : sortZone
        self.observation = observation
        self.keepsEvents = keepsEvents || (encoder == nil && part == nil)
        if encoder != nil { encoded = EncodedBytes(capacity: encodedCapacity) }
        if self.keepsEvents { events.reserveCapacity(eventCapacity) }
    }

    /// Borrows `event` (it is copied only when kept): importers write each record over the
    /// last one's event. `idIsGenerated`: whether the importer gave the event the id of a
    /// record without one (`Event.generatedID`), when it knows — validation then need not
    /// compare the id's bytes to find out.
    mutating func add(_ event: borrowing Event, idIsGenerated: Bool? = nil) {
        count += 1
        if let observation {
            EventRef.lending(event, idIsGenerated: idIsGenerated) { observation.add($0) }
        }
        if let encoder {
            if let limit, limit.reason(event) != nil { return events.append(copy event) }
            facts?.add(event)
            if let sortZone {
                starts.append(encoded.count)
                keys.append(TimelineSortKey(event: event, index: 0, zone: sortZone))
            }
            encoder.encode(event, into: &encoded)
        }
        if buildsPart {
            if let limit, limit.reason(event) != nil {
                events.append(copy event)
            } else {
                part!.add(event)
            }
        }
        if keepsEvents { events.append(copy event) }
    }

    /// The bytes of the events encoded.
    var encodedCount: Int { encoded.count }

    /// Takes the bytes of the events encoded.
    mutating func takeEncoded() -> [UInt8] { encoded.take() }
}

/// How the consumer of an import takes events that importers map on worker threads:
/// `makeBatch` and `prepare` run on those threads (a streaming NDJSON conversion encodes
/// there), inside `OrderedWork` jobs, and change nothing but state behind a lock; `deliver`
/// runs on the importer's thread, batch after batch in input order, and alone changes the
/// consumer's own state. (Not `Sendable`: the jobs that call it are not, see `OrderedWork`.)
protocol EventBatchConsumer: AnyObject {
    func makeBatch() -> EventBatch
    func prepare(_ batch: consuming EventBatch) -> PreparedEvents
    func deliver(_ batch: consuming PreparedEvents) throws(TimelineError)
}
