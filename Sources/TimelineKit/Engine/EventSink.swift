/// An `EventStreamObserver` of any observation and digest type, as closures.
struct StreamObservation {
    let makeObservation: (Int) -> any EventObservation
    let digest: (any EventObservation) -> Any
    let absorb: (Any) -> Void

    init<Observer: EventStreamObserver>(_ observer: Observer) {
        makeObservation = { observer.makeObservation(expectedCount: $0) }
        digest = { observer.digest($0 as! Observer.Observation) }
        absorb = { observer.absorb($0 as! Observer.Digest) }
    }
}

/// Where a conversion's events go as they are read: written through the export stage when
/// the run streams, else held for sorting or grouping; shown to the observer (validation);
/// counted for the summary. Takes events one at a time from importers that emit them so,
/// and in batches mapped on worker threads (`EventBatchConsumer`): each event is shown to
/// the observer's per-batch observation and encoded (when the exporter allows:
/// `EventEncodingExporter`) as the batch is filled, the observation is digested there too,
/// and the batch is delivered in input order.
final class EventSink: EventBatchConsumer, @unchecked Sendable {
    var summary = ConvertSummary()
    /// The events kept for sorting or grouping (none when streaming).
    private(set) var held: [Event] = []
    private let stage: ExportStage?
    private let encoder: (any EventEncodingExporter)?
    private let observation: StreamObservation?
    private let onProgress: (Int) -> Void
    private let progressInterval: Int
    /// Events handed over one at a time are shown to the observer in batches too.
    private var pending: (any EventObservation)?
    /// Encoded bytes and events of the largest batch so far: the next batch reserves as much,
    /// plus `encodingHeadroom` bytes.
    private let largestBatch = LockedBox((bytes: 0, events: 0))

    /// - Parameter stage: where to write when streaming; nil holds every event.
    init(stage: ExportStage?, encoder: (any EventEncodingExporter)?, observation: StreamObservation?, progressInterval: Int, onProgress: @escaping (Int) -> Void) {
        self.stage = stage
        self.encoder = stage == nil ? nil : encoder
        self.observation = observation
        self.progressInterval = progressInterval
        self.onProgress = onProgress
    }

    /// One event, from an importer that emits them one by one.
    func take(_ event: Event) throws(TimelineError) {
        count(1)
        if let observation {
            if pending == nil { pending = observation.makeObservation(1024) }
            EventRef.lending(event) { pending!.add($0) }
            if pending!.count >= 1024 { observePending() }
        }
        if let stage {
            try stage.write(event)
            summary.written += 1
        } else {
            held.append(event)
        }
    }

    func reject(_ record: RejectedRecord) {
        summary.read += 1
        summary.rejected += 1
        if record.code == .naiveTime { summary.naive += 1 }
    }

    /// Shows the last events to the observer and waits until every streamed one is written.
    func finish() throws(TimelineError) {
        observePending()
        try stage?.finish()
    }

    // MARK: EventBatchConsumer (batches mapped on worker threads)

    /// Encoders append room for the most an event can take and then give back what it did
    /// not (`CanonicalEncoder.append`): without this margin the last event of a batch as
    /// large as the largest one so far would make the batch copy itself into twice the room.
    static let encodingHeadroom = 1 << 16

    func makeBatch() -> EventBatch {
        let largest = largestBatch.withLock { $0 }
        return EventBatch(
            encoder: encoder, keepsEvents: false, observation: observation?.makeObservation(max(largest.events, 1024)), encodedCapacity: largest.bytes + Self.encodingHeadroom,
            eventCapacity: largest.events)
    }

    func prepare(_ batch: consuming EventBatch) -> PreparedEvents {
        let digest = observation.flatMap { o in batch.observation.map { o.digest($0) } }
        let size = (bytes: batch.encoded.count, events: batch.events.count)
        largestBatch.withLock { $0 = (max($0.bytes, size.bytes), max($0.events, size.events)) }
        guard encoder != nil else { return PreparedEvents(events: batch.events, digest: digest) }
        return PreparedEvents(events: [], encoded: batch.encoded, count: batch.count, digest: digest)
    }

    func deliver(_ batch: consuming PreparedEvents) throws(TimelineError) {
        count(batch.count)
        if let observation, let digest = batch.digest {
            observePending()
            observation.absorb(digest)
        }
        guard let stage else {
            held.append(contentsOf: batch.events)
            return
        }
        if let encoded = batch.encoded {
            try stage.write(encoded: encoded)
        } else {
            for event in batch.events { try stage.write(event) }
        }
        summary.written += batch.count
    }

    private func count(_ n: Int) {
        let before = summary.read
        summary.read += n
        if before / progressInterval != summary.read / progressInterval { onProgress(summary.read) }
    }

    private func observePending() {
        guard let observation, let batch = pending else { return }
        observation.absorb(observation.digest(batch))
        pending = nil
    }
}
