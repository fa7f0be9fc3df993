/// A record that could not become an event, kept with its raw text and the reason.
public struct RejectedRecord: Hashable, Sendable {
    public var location: SourceLocation
    public var raw: String
    public var reason: String
    /// The finding code (`E001` for an unreadable value, …) when there is one.
    public var code: String?
    /// For CSV input: the record's fields and the file's header, so a rejects file can
    /// hold them unchanged.
    public var fields: [String]?
    public var header: [String]?

    public init(location: SourceLocation, raw: String, reason: String, code: String? = nil, fields: [String]? = nil, header: [String]? = nil) {
        self.location = location
        self.raw = raw
        self.reason = reason
        self.code = code
        self.fields = fields
        self.header = header
    }
}

/// Settings every importer shares.
public struct ImportOptions: Sendable {
    public var dates = DateParsingOptions()
    public var mapping = MappingOptions()
    /// CSV: the delimiter (`--delimiter`); nil detects it from the header line.
    public var delimiter: UInt8?
    /// CSV: false when the file has no header line (`--no-header`): columns are `1`, `2`, ….
    public var hasHeader = true
    /// JSON: the dotted path of the records array (`--records`).
    public var recordsPath: String?
    /// The text encoding of the inputs (`--encoding`); UTF-8 by default.
    public var encoding: TextEncoding = .utf8
    /// ICS: expand recurring series in this window (`--expand`); nil keeps each master.
    public var recurrence: RecurrenceExpansion?

    public init() {}
}

/// Where an importer sends what it reads, one record at a time as soon as it is complete.
public final class ImportContext {
    public let options: ImportOptions
    public let format: String
    public let dateParser: DateParser
    private let onEvent: (Event) throws(TimelineError) -> Void
    private let onReject: (RejectedRecord) -> Void
    private let onDiagnostic: (Diagnostic) -> Void
    private let batches: EventBatchConsumer?

    /// - Parameter batches: how the consumer takes events mapped on worker threads (see
    ///   `EventBatchConsumer`); nil hands each such event to `onEvent`, in order.
    public init(
        options: ImportOptions, format: String, dateParser: DateParser,
        onEvent: @escaping (Event) throws(TimelineError) -> Void,
        onReject: @escaping (RejectedRecord) -> Void,
        onDiagnostic: @escaping (Diagnostic) -> Void,
        batches: EventBatchConsumer? = nil
    ) {
        self.options = options
        self.format = format
        self.dateParser = dateParser
        self.onEvent = onEvent
        self.onReject = onReject
        self.onDiagnostic = onDiagnostic
        self.batches = batches
    }

    public func emit(_ event: consuming Event) throws(TimelineError) { try onEvent(event) }

    /// An empty batch for events mapped on a worker thread. Thread-safe.
    public func makeBatch() -> EventBatch {
        batches?.makeBatch() ?? EventBatch(encoder: nil, keepsEvents: true)
    }

    /// Makes a batch of events ready for delivery. Thread-safe: importers call it on the
    /// worker thread that mapped the events.
    public func prepare(_ batch: consuming EventBatch) -> PreparedEvents {
        guard let batches else { return PreparedEvents(events: batch.events) }
        return batches.prepare(batch)
    }

    /// Delivers a prepared batch; importers call it on their own thread, in input order.
    public func emit(_ batch: consuming PreparedEvents) throws(TimelineError) {
        if let batches {
            try batches.deliver(batch)
        } else {
            for event in batch.events { try onEvent(event) }
        }
    }
    public func reject(_ record: RejectedRecord) { onReject(record) }
    public func report(_ diagnostic: Diagnostic) { onDiagnostic(diagnostic) }

    /// Reports what the date engine decided for a record (TZ104/TZ105/TZ106) at its place.
    public func report(_ notices: [DateNotice], at location: SourceLocation) {
        for n in notices { onDiagnostic(Diagnostic(.warning, n.message, at: location, code: n.code)) }
    }
}

/// A batch of events mapped on a worker thread: the events, and (when the consumer encodes
/// on the worker too) their encoded bytes — then the events are kept only if the consumer
/// still wants to look at them.
public struct PreparedEvents: @unchecked Sendable {
    public var events: [Event]
    public var encoded: [UInt8]?
    public var count: Int
    /// What an observer of the stream (validation) took from the events, if one is watching.
    public var digest: Any?

    public init(events: [Event], encoded: [UInt8]? = nil, count: Int? = nil, digest: Any? = nil) {
        self.events = events
        self.encoded = encoded
        self.count = count ?? events.count
        self.digest = digest
    }
}

/// Events mapped on a worker thread, gathered for their consumer: each is shown to the
/// stream's observer (validation) and encoded as it comes when the consumer streams into an
/// `EventEncodingExporter` (the event is then read where it lies, not copied out of an
/// array), and kept only when the consumer needs the events themselves.
public struct EventBatch {
    public private(set) var events: [Event] = []
    public private(set) var encoded: [UInt8] = []
    public private(set) var count = 0
    /// Set when events are encoded as they are added.
    public let encoder: (any EventEncodingExporter)?
    public let keepsEvents: Bool
    /// Set when an observer of the stream (validation) is shown each event as it is added.
    public let observation: (any EventObservation)?

    /// - Parameters:
    ///   - encodedCapacity: bytes to reserve for the encoding (a batch that grows from
    ///     nothing copies itself a dozen times on the way).
    ///   - eventCapacity: events to reserve room for when they are kept (the same).
    public init(
        encoder: (any EventEncodingExporter)?, keepsEvents: Bool, observation: (any EventObservation)? = nil,
        encodedCapacity: Int = 0, eventCapacity: Int = 0
    ) {
        self.encoder = encoder
        self.observation = observation
        self.keepsEvents = keepsEvents || encoder == nil
        if encoder != nil { encoded.reserveCapacity(encodedCapacity) }
        if self.keepsEvents { events.reserveCapacity(eventCapacity) }
    }

    /// Borrows `event` (it is copied only when kept): importers write each record over the
    /// last one's event.
    public mutating func add(_ event: borrowing Event) {
        count += 1
        if let observation { withUnsafePointer(to: event) { observation.add($0) } }
        encoder?.encode(event, into: &encoded)
        if keepsEvents { events.append(copy event) }
    }
}

/// How the consumer of an import takes events that importers map on worker threads:
/// `prepare` runs on those threads (a streaming NDJSON conversion encodes there), `deliver`
/// on the importer's thread, batch after batch in input order.
public protocol EventBatchConsumer: AnyObject, Sendable {
    func makeBatch() -> EventBatch
    func prepare(_ batch: consuming EventBatch) -> PreparedEvents
    func deliver(_ batch: consuming PreparedEvents) throws(TimelineError)
}

/// An input format. Importers stream: they hand each record to the context as soon as it is
/// complete and never build the whole file in memory unless the format requires it.
public protocol TimelineImporter {
    /// Reads every record of `input`. Throws only for faults that stop the run (exit 65 or
    /// 66); a bad record is rejected through `context` and reading goes on.
    func read(from input: InputReader, context: ImportContext) throws(TimelineError)
}
