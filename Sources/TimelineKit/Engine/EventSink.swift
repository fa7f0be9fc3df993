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
    private let observer: (any EventStreamObserver)?
    private let onProgress: (Int) -> Void
    private let progressInterval: Int
    /// Events handed over one at a time are shown to the observer in batches too.
    private var pending: (any EventObservation)?
    /// Encoded bytes and events of the largest batch so far: the next batch reserves as much,
    /// plus `encodingHeadroom` bytes.
    private let largestBatch = LockedBox((bytes: 0, events: 0))

    /// - Parameter stage: where to write when streaming; nil holds every event.
    init(stage: ExportStage?, encoder: (any EventEncodingExporter)?, observer: (any EventStreamObserver)?, progressInterval: Int, onProgress: @escaping (Int) -> Void) {
        self.stage = stage
        self.encoder = stage == nil ? nil : encoder
        self.observer = observer
        self.progressInterval = progressInterval
        self.onProgress = onProgress
    }

    /// One event, from an importer that emits them one by one.
    func take(_ event: Event) throws(TimelineError) {
        count(1)
        if let observer {
            if pending == nil { pending = observer.makeObservation(expectedCount: 1024) }
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
            encoder: encoder, keepsEvents: false, observation: observer?.makeObservation(expectedCount: max(largest.events, 1024)), encodedCapacity: largest.bytes + Self.encodingHeadroom,
            eventCapacity: largest.events)
    }

    func prepare(_ batch: consuming EventBatch) -> PreparedEvents {
        let digest = batch.observation?.digest()
        let size = (bytes: batch.encoded.count, events: batch.events.count)
        largestBatch.withLock { $0 = (max($0.bytes, size.bytes), max($0.events, size.events)) }
        guard encoder != nil else { return PreparedEvents(events: batch.events, digest: digest) }
        return PreparedEvents(events: [], encoded: batch.encoded, count: batch.count, digest: digest)
    }

    func deliver(_ batch: consuming PreparedEvents) throws(TimelineError) {
        count(batch.count)
        if let digest = batch.digest {
            observePending()
            digest.absorb()
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
        guard let batch = pending else { return }
        batch.digest().absorb()
        pending = nil
    }
}
