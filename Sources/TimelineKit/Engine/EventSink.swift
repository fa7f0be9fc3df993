import Synchronization

/// Where a conversion's events go as they are read: written through the export stage when
/// the run streams, else held for sorting or grouping; shown to the observer (validation);
/// counted for the summary. Takes events one at a time from importers that emit them so,
/// and in batches mapped on worker threads (`EventBatchConsumer`): each event is shown to
/// the observer's per-batch observation and encoded (when the exporter allows:
/// `EventEncodingExporter`) as the batch is filled, the observation is digested there too,
/// and the batch is delivered in input order. The worker threads' side (`makeBatch`,
/// `prepare`) reads the sink's settings and updates only `largestBatch`, under its mutex;
/// the counts, the held events and the pending observation change on the delivering thread.
final class EventSink: EventBatchConsumer {
    var summary = ConvertSummary()
    /// The events kept for sorting or grouping (none when streaming or spilling).
    private(set) var held: [Event] = []
    private let stage: ExportStage?
    /// Where events go to be sorted, when the run sorts them as events.
    private let sorter: ExternalSorter?
    /// Where encoded records go to be sorted, when the run sorts the exporter's records.
    private let encodedSorter: EncodedRecordSorter?
    private let encoder: (any EventRecordEncoding)?
    /// Set when a streaming run's exporter builds its output from parts made on the
    /// mapping threads.
    private let partBuilder: (any PartBuildingExporter)?
    private let observer: (any EventStreamObserver)?
    private let onProgress: (Int) -> Void
    private let progressInterval: Int
    /// Events handed over one at a time are shown to the observer in batches too.
    private var pending: (any EventObservation)?
    /// What the output cannot hold (an event outside the years 0001–9999 in the display
    /// zone where it shows times, Parquet's nanoseconds): such an event is rejected rather
    /// than written.
    private let limit: OutputLimit?
    /// What a sorted readable output needs from every event it will write, when it needs
    /// anything (`SectionFacts`): gathered per batch on the mapping threads, merged here.
    private(set) var facts: SectionFacts?
    /// The facts to gather, none gathered: what each batch starts from (read on the mapping
    /// threads, so never changed).
    private let noFacts: SectionFacts?
    /// Receives every rejected record, the sink's own and the importers'.
    private let forwardReject: (RejectedRecord) -> Void
    /// Encoded bytes and events of the largest batch so far: the next batch reserves as much,
    /// plus `encodingHeadroom` bytes.
    private let largestBatch = Mutex((bytes: 0, events: 0))

    /// - Parameters:
    ///   - stage: where to write when streaming; nil holds every event.
    ///   - limit: what the output cannot hold, when it has a limit (a streaming run then does
    ///     not encode on the mapping threads: the check happens as events are delivered; a
    ///     sort of encoded records encodes those the limit lets through).
    init(
        stage: ExportStage?, encoder: (any EventRecordEncoding)?,
        observer: (any EventStreamObserver)?, limit: OutputLimit?,
        sorter: ExternalSorter? = nil, encodedSorter: EncodedRecordSorter? = nil,
        facts: SectionFacts? = nil,
        progressInterval: Int, onProgress: @escaping (Int) -> Void,
        onReject: @escaping (RejectedRecord) -> Void
    ) {
        self.facts = facts
        self.noFacts = facts?.empty
        self.stage = stage
        self.sorter = sorter
        self.encodedSorter = encodedSorter
        self.encoder =
            encodedSorter != nil || (stage != nil && limit == nil) ? encoder : nil
        partBuilder = stage?.exporter as? any PartBuildingExporter
        self.limit = limit
        self.forwardReject = onReject
        self.observer = observer
        self.progressInterval = progressInterval
        self.onProgress = onProgress
    }

    /// One event, from an importer that emits them one by one.
    func take(_ event: Event) throws(TimelineError) {
        if let limit, let reason = limit.reason(event) {
            return reject(Self.rejection(event, reason: reason))
        }
        count(1)
        if let observer {
            if pending == nil { pending = observer.makeObservation(expectedCount: 1024) }
            EventRef.lending(event) { pending!.add($0) }
            if pending!.count >= 1024 { observePending() }
        }
        if let stage {
            try stage.write(event)
            summary.written += 1
        } else if let encodedSorter {
            facts?.add(event)
            try encodedSorter.add(event)
        } else if let sorter {
            try sorter.add(event)
        } else {
            held.append(event)
        }
    }

    func reject(_ record: RejectedRecord) {
        summary.read += 1
        summary.rejected += 1
        if record.code == .naiveTime { summary.naive += 1 }
        forwardReject(record)
    }

    /// The record of an event the output cannot hold (`OutputLimit`).
    private static func rejection(_ event: Event, reason: String) -> RejectedRecord {
        RejectedRecord(
            location: SourceLocation(file: event.source?.file ?? "-", line: event.source?.line),
            raw: event.start.raw ?? event.id, reason: reason, code: .outOfRange)
    }

    /// Shows the last events to the observer and waits until every streamed one is written.
    func finish() throws(TimelineError) {
        observePending()
        try stage?.finish()
    }

    // MARK: EventBatchConsumer (batches mapped on worker threads)

    /// Encoders ask for room for the most an event can take (`EncodedBytes.write`): without
    /// this margin the last event of a batch as large as the largest one so far would make
    /// the batch copy itself into twice the room.
    static let encodingHeadroom = 1 << 16

    func makeBatch() -> EventBatch {
        let largest = largestBatch.withLock { $0 }
        return EventBatch(
            encoder: encoder, keepsEvents: false,
            observation: observer?.makeObservation(expectedCount: max(largest.events, 1024)),
            sortZone: encodedSorter?.zone, encodedCapacity: largest.bytes + Self.encodingHeadroom,
            eventCapacity: largest.events, part: partBuilder?.makePart(), limit: limit,
            facts: noFacts)
    }

    func prepare(_ batch: consuming EventBatch) -> PreparedEvents {
        let digest = batch.observation?.digest()
        // Events counted, not kept: a streaming conversion keeps none, and its batches must
        // still reserve room for their validation facts.
        let size = (bytes: batch.encodedCount, events: batch.count)
        largestBatch.withLock { $0 = (max($0.bytes, size.bytes), max($0.events, size.events)) }
        if let part = batch.part {
            var prepared = PreparedEvents(events: batch.events, count: batch.count, digest: digest)
            prepared.part = part
            return prepared
        }
        guard encoder != nil else { return PreparedEvents(events: batch.events, digest: digest) }
        // The events kept are the ones the output's limit refused.
        var prepared = PreparedEvents(
            events: batch.events, encoded: batch.takeEncoded(),
            count: batch.count - batch.events.count,
            digest: digest)
        prepared.starts = batch.starts
        prepared.keys = batch.keys
        prepared.facts = batch.facts
        return prepared
    }

    func deliver(_ batch: consuming PreparedEvents) throws(TimelineError) {
        if let digest = batch.digest {
            observePending()
            digest.absorb()
        }
        if let part = batch.part, let stage {
            // The batch's events are the ones the output's limit refused.
            for event in batch.events {
                reject(Self.rejection(event, reason: limit?.reason(event) ?? ""))
            }
            count(part.count)
            try stage.write(part: part)
            summary.written += part.count
            return
        }
        if let encoded = batch.encoded {
            for event in batch.events {
                reject(Self.rejection(event, reason: limit?.reason(event) ?? ""))
            }
            if let later = batch.facts { facts?.merge(later) }
            count(batch.count)
            if let encodedSorter {
                try encodedSorter.add(encoded: encoded, starts: batch.starts, keys: batch.keys)
            } else if let stage {
                try stage.write(encoded: encoded)
                summary.written += batch.count
            }
            return
        }
        var events = batch.events
        // Looked for before filtering: removing from the batch's array would copy it whole.
        if let limit, events.contains(where: { limit.reason($0) != nil }) {
            events.removeAll { event in
                guard let reason = limit.reason(event) else { return false }
                reject(Self.rejection(event, reason: reason))
                return true
            }
        }
        count(events.count)
        guard let stage else {
            if let sorter {
                for i in events.indices { try sorter.add(events[i]) }
            } else {
                held.append(contentsOf: events)
            }
            return
        }
        for i in events.indices { try stage.write(events[i]) }
        summary.written += events.count
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
