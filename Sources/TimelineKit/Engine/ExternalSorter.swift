import Dispatch

/// Puts a conversion's events in timeline order (`SortOrder.asc`/`.desc`) within a memory
/// budget. Events are held until they take about `budget` bytes; then they are sorted and
/// spilled as one run of binary records (`EventRunCodec`) to a file in `directory`, and the
/// runs are merged (k-way, with a heap) when the input ends. Input that fits is never
/// written out. The order is exactly the in-memory sort's: the sort key, then input order
/// (each record carries its input index), so the output is the same bytes either way.
///
/// A run's file is unlinked as soon as it is created and read back through its open
/// descriptor: the system removes it when the run is done, the process ends or is killed,
/// whatever happens.
final class ExternalSorter {
    private let order: SortOrder
    private let zone: ZoneRules
    private let budget: Int
    /// Where runs spill; nil keeps every event in memory.
    private let directory: String?
    /// The events held (in chunks: a plain array of events, a few hundred bytes each, would
    /// copy itself at every doubling and briefly take three times its size).
    private var buffer = ChunkedArray<Event>()
    private var bufferBytes = 0
    /// The input index of `buffer[0]`.
    private var firstIndex = 0
    private var runs: [Int32] = []
    private let onSpill: (SortProgress) -> Void

    /// How many runs went to disk.
    var runCount: Int { runs.count }
    /// How many events were added.
    var count: Int { firstIndex + buffer.count }

    /// - Parameter budget: about how many bytes the conversion may take while sorting. A
    ///   quarter of it (at most 64 MB) is left for what the conversion holds beside the
    ///   events (blocks being mapped, the sort keys of a run, the output's buffers); the
    ///   events take the rest.
    /// - Parameter directory: where runs spill; nil holds every event in memory.
    init(
        order: SortOrder, zone: ZoneRules, budget: Int, directory: String?,
        onSpill: @escaping (SortProgress) -> Void = { _ in }
    ) {
        precondition(order != .input, "input order needs no sort")
        self.onSpill = onSpill
        self.order = order
        self.zone = zone
        self.budget = budget - min(64 << 20, budget / 4)
        self.directory = directory
    }

    deinit {
        // A run still being written writes to its descriptor until it is done.
        _ = pendingSpill?.wait()
        for fd in runs { System.closeQuietly(fd) }
    }

    func add(_ event: Event) throws(TimelineError) {
        bufferBytes += event.approximateSize
        buffer.append(event)
        if bufferBytes >= budget / 2, directory != nil { try spill() }
    }

    /// The buffer's positions in the sort's order.
    private func sortedBuffer() -> [Int] {
        Self.sortedPositions(of: buffer, firstIndex: firstIndex, zone: zone, order: order)
    }

    private static func sortedPositions(
        of buffer: ChunkedArray<Event>, firstIndex: Int, zone: ZoneRules, order: SortOrder
    ) -> [Int] {
        let keys = buffer.indices.map {
            TimelineSortKey(event: buffer[$0], index: firstIndex + $0, zone: zone)
        }
        return TimelineSortKey.sortedPositions(count: keys.count, in: order) { keys[$0] }
    }

    /// The run being sorted and written, at most one at a time.
    private var pendingSpill: BackgroundJob<Result<Void, TimelineError>>?
    private static let spillQueue = DispatchQueue(label: "timeline.event-spill")

    /// Hands the buffer, past half the budget, to a run sorted and written on a thread of
    /// its own while the next half fills (the reading thread, and so the workers mapping
    /// records, do not wait for the sort and the disk); the run before it is waited for
    /// first, so at most one is written at a time.
    private func spill() throws(TimelineError) {
        guard !buffer.isEmpty, let directory else { return }
        try finishSpilling()
        let fd = try SortedRuns.createFile(in: directory)
        runs.append(fd)
        let (held, first, zone, order) = (buffer, firstIndex, zone, order)
        pendingSpill = BackgroundJob(on: Self.spillQueue) {
            Result { () throws(TimelineError) in
                try Self.write(
                    held, firstIndex: first, zone: zone, order: order, to: fd,
                    directory: directory)
            }
        }
        firstIndex += buffer.count
        buffer = ChunkedArray()
        bufferBytes = 0
    }

    /// Waits for the run being written and reports it, or throws why it could not be (the
    /// merge does this first; a caller that reports the runs before it does it earlier).
    func finishSpilling() throws(TimelineError) {
        guard let job = pendingSpill else { return }
        pendingSpill = nil
        try job.wait().get()
        onSpill(.spilled(runs: runs.count))
    }

    /// Writes `held`, sorted, as a run to `fd`, and rewinds it.
    private static func write(
        _ held: ChunkedArray<Event>, firstIndex: Int, zone: ZoneRules, order: SortOrder,
        to fd: Int32, directory: String
    ) throws(TimelineError) {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        for i in sortedPositions(of: held, firstIndex: firstIndex, zone: zone, order: order) {
            let index = UInt64(firstIndex + i)
            for b in 0..<8 { out.append(UInt8(truncatingIfNeeded: index >> (8 * UInt64(b)))) }
            EventRunCodec.append(held[i], to: &out)  // its length, then its fields
            if out.count >= 1 << 20 {
                try SortedRuns.write(out, to: fd, directory: directory)
                out.removeAll(keepingCapacity: true)
            }
        }
        try SortedRuns.write(out, to: fd, directory: directory)
        try SortedRuns.rewind(fd)
    }

    /// Hands every event to `body` in order: the buffer alone when nothing was spilled, else
    /// the merge of the runs and the buffer.
    func drain(_ body: (Event) throws(TimelineError) -> Void) throws(TimelineError) {
        try finishSpilling()
        let memory = sortedBuffer()
        defer { buffer = ChunkedArray() }
        guard !runs.isEmpty else {
            for i in memory { try body(buffer[i]) }
            return
        }
        var readers = runs.map { RunReader(fd: $0, discarding: true) }
        var nextInMemory = 0
        try SortedRuns.merge(
            sources: readers.count + 1,
            next: { (source: Int) throws(TimelineError) -> (key: TimelineSortKey, event: Event)? in
                guard source < readers.count else {
                    guard nextInMemory < memory.count else { return nil }
                    let i = memory[nextInMemory]
                    nextInMemory += 1
                    return (
                        TimelineSortKey(event: buffer[i], index: firstIndex + i, zone: zone),
                        buffer[i]
                    )
                }
                guard let record = try readers[source].next() else { return nil }
                do throws(EventRunCodec.Corrupt) {
                    let event = try EventRunCodec.decode(readers[source].bytes, at: record.lengthAt)
                        .event
                    return (TimelineSortKey(event: event, index: record.index, zone: zone), event)
                } catch {
                    throw TimelineError(.ioError, "a sorted run was damaged on disk")
                }
            },
            precedes: { $0.key.precedes($1.key, in: order) },
            body: { (item: (key: TimelineSortKey, event: Event)) throws(TimelineError) in
                try body(item.event)
            })
    }
}

extension Event {
    /// About how many bytes the event takes in memory, for the sort's budget: its fixed part
    /// and what it allocates — strings longer than 15 bytes (shorter ones are stored in
    /// place) with their object header, the lists and the attribute table. The source's file
    /// name is shared by every event of a file and not counted.
    var approximateSize: Int {
        func heap(_ s: String?) -> Int {
            guard let n = s?.utf8.count, n > 15 else { return 0 }
            return 32 + (n + 15) & ~15
        }
        // The event, and its sort key and position when its run is sorted.
        var n =
            MemoryLayout<Event>.stride + MemoryLayout<TimelineSortKey>.stride + 8 + heap(id)
            + heap(title) + heap(detail) + heap(category)
            + heap(location) + heap(series)
        n += heap(start.rawText) + heap(end?.rawText) + heap(recorded?.rawText) + heap(start.zone)
        if !links.isEmpty { n += 32 + links.reduce(0) { $0 + 16 + heap($1) } }
        if !tags.isEmpty { n += 32 + tags.reduce(0) { $0 + 16 + heap($1) } }
        if !attributes.isEmpty {
            n += 64 + attributes.reduce(0) { $0 + 48 + heap($1.key) + heap($1.value) }
        }
        return n
    }
}
