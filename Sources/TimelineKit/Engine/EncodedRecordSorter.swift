import Foundation

/// Puts a conversion's output records in timeline order within a memory budget, for an
/// exporter whose records are self-contained bytes (`EventEncodingExporter`: NDJSON). The
/// events are encoded where they are mapped (on the worker threads, as when streaming), each
/// with its sort key; what is held is the encoded bytes, batch by batch as they came, and a
/// small key per record — a third of the memory the events themselves take, and nothing to
/// encode on one thread at the end. Past half the budget the records are sorted and spilled
/// as a run on a thread of their own while the next half fills (the thread that hands the
/// batches over, and so the workers mapping them, do not wait for the disk); the runs and
/// what is held are merged at the end.
///
/// The order is exactly `ExternalSorter`'s (the sort key, then input order), so the output
/// is the same bytes as writing the sorted events one by one.
final class EncodedRecordSorter {
    /// One held record: its key and where its bytes lie.
    fileprivate struct Item {
        var key: TimelineSortKey
        var batch: Int32
        var start: Int32
        var length: Int32
    }

    private let order: SortOrder
    /// The display zone, which all-day dates and days are counted in.
    let zone: ZoneRules
    private let budget: Int
    private let directory: String?
    private let encoder: any EventRecordEncoding
    /// The held records' bytes, a batch per array, never copied into one.
    private var batches: [[UInt8]] = []
    /// Events handed over one at a time are encoded here until it is closed as a batch.
    private var open = EncodedBytes()
    private var items: [Item] = []
    private var heldBytes = 0
    /// What a held record costs besides its bytes: its item, and as much again for the
    /// scratch space sorting the items takes.
    private static let itemCost = 2 * MemoryLayout<Item>.stride
    /// The input index the next record gets.
    private var nextIndex = 0
    private var runs: [Int32] = []
    private let onSpill: (SortProgress) -> Void
    /// The run being written, at most one at a time (`RunSpill`).
    private var spill: RunSpill?

    /// How many runs went to disk.
    var runCount: Int { runs.count }
    /// How many records were added.
    var count: Int { nextIndex }

    /// - Parameters:
    ///   - budget: about how many bytes the conversion may take while sorting; as for
    ///     `ExternalSorter`, a quarter (at most 64 MB) is left for the rest of the run.
    ///   - directory: where runs spill; nil holds everything in memory.
    init(
        order: SortOrder, zone: ZoneRules, budget: Int, directory: String?,
        encoder: any EventRecordEncoding,
        onSpill: @escaping (SortProgress) -> Void = { _ in }
    ) {
        precondition(order != .input, "input order needs no sort")
        self.order = order
        self.zone = zone
        self.budget = budget - min(64 << 20, budget / 4)
        self.directory = directory
        self.encoder = encoder
        self.onSpill = onSpill
    }

    deinit {
        // A run still being written writes to its descriptor until it is done.
        _ = spill?.wait()
        for fd in runs { System.closeQuietly(fd) }
    }

    /// One event, encoded here (from an importer that emits events one by one).
    func add(_ event: Event) throws(TimelineError) {
        let start = open.count
        encoder.encode(event, into: &open)
        let key = TimelineSortKey(event: event, index: nextIndex, zone: zone)
        nextIndex += 1
        items.append(
            Item(
                key: key, batch: Int32(batches.count), start: Int32(start),
                length: Int32(open.count - start)))
        heldBytes += open.count - start + Self.itemCost
        if open.count >= 1 << 20 { closeOpen() }
        try spillIfFull()
    }

    /// A batch encoded on a worker thread: `bytes` holds its records one after another,
    /// record `i` from `starts[i]`, with sort key `keys[i]` (their input index is set here).
    func add(encoded bytes: [UInt8], starts: [Int], keys: [TimelineSortKey]) throws(TimelineError) {
        precondition(starts.count == keys.count, "a key per record")
        guard !keys.isEmpty else { return }
        closeOpen()
        let batch = Int32(batches.count)
        batches.append(bytes)
        for i in keys.indices {
            var key = keys[i]
            key.index = nextIndex
            nextIndex += 1
            let end = i + 1 < starts.count ? starts[i + 1] : bytes.count
            items.append(
                Item(
                    key: key, batch: batch, start: Int32(starts[i]), length: Int32(end - starts[i]))
            )
        }
        heldBytes += bytes.capacity + keys.count * Self.itemCost
        try spillIfFull()
    }

    private func closeOpen() {
        guard open.count > 0 else { return }
        batches.append(open.take())
    }

    /// Past half the budget: waits for the run being written, if any, then hands what is
    /// held to a new one, so at most one half is written while the other fills.
    private func spillIfFull() throws(TimelineError) {
        guard heldBytes >= budget / 2, let directory else { return }
        try finishSpill()
        closeOpen()
        let fd = try SortedRuns.createFile(in: directory)
        runs.append(fd)
        let count = items.count
        spill = RunSpill(items: items, batches: batches, order: order, fd: fd, directory: directory)
        batches = []
        items = []
        items.reserveCapacity(count)
        heldBytes = 0
    }

    /// Waits for the run being written and reports it, or throws why it could not be.
    private func finishSpill() throws(TimelineError) {
        guard let spill else { return }
        self.spill = nil
        try spill.wait().get()
        onSpill(.spilled(runs: runs.count))
    }

    /// Puts the held items in timeline order (`TimelineSortKey.sortedPositions`).
    private func sortItems() {
        items = Self.sorted(items, in: order)
    }

    fileprivate static func sorted(_ items: [Item], in order: SortOrder) -> [Item] {
        TimelineSortKey.sortedPositions(count: items.count, in: order) { items[$0].key }.map {
            items[$0]
        }
    }

    /// Hands every record to `body` in order, gathered into chunks of about 1 MiB with the
    /// number of records in each: what is held alone when nothing was spilled, else the merge
    /// of the runs and what is held. The merge runs on a thread of its own, a few chunks
    /// ahead of `body` (which writes them out): reading the runs and writing the output each
    /// take a core's worth of copying.
    func drain(_ body: ([UInt8], Int) throws(TimelineError) -> Void) throws(TimelineError) {
        try finishSpill()
        closeOpen()
        sortItems()
        let held = (batches: batches, items: items)
        batches = []
        items = []
        guard !runs.isEmpty else {
            var chunk = RecordChunk()
            for item in held.items {
                try chunk.append(
                    held.batches[Int(item.batch)], Int(item.start)..<Int(item.start + item.length),
                    flushingTo: body)
            }
            return try chunk.finish(flushingTo: body)
        }
        let chunks = BoundedChannel<(bytes: [UInt8], records: Int)>(capacity: 4)
        chunks.startProducer(name: "timeline.merge") {
            [runs, held, order] chunks throws(TimelineError) in
            try Self.merge(runs, held, in: order) { (bytes, records) throws(TimelineError) in
                try chunks.send((bytes, records))
            }
        }
        // The merge reads the runs' descriptors until it has finished, even when the output
        // fails and stops it.
        defer { chunks.waitUntilFinished() }
        while let chunk = chunks.next() {
            do throws(TimelineError) {
                try body(chunk.bytes, chunk.records)
            } catch {
                chunks.cancel()
                throw error
            }
        }
        if let error = chunks.error { throw error }
    }

    /// Merges the runs with what is held (sorted), in chunks for `body`.
    private static func merge(
        _ runs: [Int32], _ held: (batches: [[UInt8]], items: [Item]), in order: SortOrder,
        _ body: RecordChunk.Body
    ) throws(TimelineError) {
        var chunk = RecordChunk()
        // Locals: the merge reads them for every record.
        let (batches, items) = held
        var readers = runs.map { RunReader(fd: $0, discarding: true) }
        var nextHeld = 0
        // A head is a run's record (in its reader's bytes, after the key) or a held one.
        typealias Head = (key: TimelineSortKey, reader: Int, batch: Int, range: Range<Int>)
        try SortedRuns.merge(
            sources: readers.count + 1,
            next: { (source: Int) throws(TimelineError) -> Head? in
                guard source < readers.count else {
                    guard nextHeld < items.count else { return nil }
                    let item = items[nextHeld]
                    nextHeld += 1
                    return (
                        item.key, -1, Int(item.batch),
                        Int(item.start)..<Int(item.start + item.length)
                    )
                }
                guard let record = try readers[source].next() else { return nil }
                let keyAt = record.lengthAt + 4
                guard record.length >= TimelineSortKey.encodedSize else {
                    throw TimelineError(.ioError, "a sorted run was damaged on disk")
                }
                let key = TimelineSortKey(
                    reading: readers[source].bytes, at: keyAt, index: record.index)
                return (
                    key, source, -1, keyAt + TimelineSortKey.encodedSize..<keyAt + record.length
                )
            },
            precedes: { $0.key.precedes($1.key, in: order) },
            body: { (head: Head) throws(TimelineError) in
                if head.reader >= 0 {
                    try chunk.append(readers[head.reader].bytes, head.range, flushingTo: body)
                } else {
                    try chunk.append(batches[head.batch], head.range, flushingTo: body)
                }
            })
        try chunk.finish(flushingTo: body)
    }
}

/// One sorted run being written on a thread of its own: the records held, sorted and
/// written to `fd` (created by the sorter, so the runs keep their order), then rewound.
/// The sorter waits for it once, before the next run, the merge or its own end.
private struct RunSpill {
    private let job: BackgroundJob<Result<Void, TimelineError>>

    init(
        items: [EncodedRecordSorter.Item], batches: [[UInt8]], order: SortOrder, fd: Int32,
        directory: String
    ) {
        job = BackgroundJob(on: Self.queue) {
            Result { () throws(TimelineError) in
                try Self.write(items, from: batches, in: order, to: fd, directory: directory)
            }
        }
    }

    /// Waits for the run (call once) and gives whether it was written.
    func wait() -> Result<Void, TimelineError> { job.wait() }

    private static let queue = DispatchQueue(label: "timeline.sort-spill")

    private static func write(
        _ held: [EncodedRecordSorter.Item], from batches: [[UInt8]], in order: SortOrder,
        to fd: Int32, directory: String
    ) throws(TimelineError) {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        for item in EncodedRecordSorter.sorted(held, in: order) {
            SortedRuns.appendFrame(
                index: item.key.index, length: TimelineSortKey.encodedSize + Int(item.length),
                to: &out)
            item.key.append(to: &out)
            batches[Int(item.batch)].withByteView {
                $0[Int(item.start)..<Int(item.start + item.length)].append(to: &out)
            }
            if out.count >= 1 << 20 {
                try SortedRuns.write(out, to: fd, directory: directory)
                out.removeAll(keepingCapacity: true)
            }
        }
        try SortedRuns.write(out, to: fd, directory: directory)
        try SortedRuns.rewind(fd)
    }
}

/// Gathers records into chunks of about 1 MiB for the output.
private struct RecordChunk {
    typealias Body = ([UInt8], Int) throws(TimelineError) -> Void
    private var bytes: [UInt8] = []
    private var records = 0

    init() {
        bytes.reserveCapacity(1 << 20 + 1 << 16)
    }

    mutating func append(_ source: borrowing [UInt8], _ range: Range<Int>, flushingTo body: Body)
        throws(TimelineError)
    {
        source.withByteView { $0[range].append(to: &bytes) }
        records += 1
        if bytes.count >= 1 << 20 { try flush(body) }
    }

    mutating func finish(flushingTo body: Body) throws(TimelineError) {
        if records > 0 { try flush(body) }
    }

    private mutating func flush(_ body: Body) throws(TimelineError) {
        try body(bytes, records)
        // A chunk handed to another thread is its now: this makes a new one.
        bytes.removeAll(keepingCapacity: true)
        records = 0
    }
}

extension TimelineSortKey {
    /// Bytes of a key in a run record (all but the input index, which frames the record).
    static let encodedSize = 41

    /// Appends the key but its index: day, timed, instant, recorded day, recorded — integers
    /// little endian.
    func append(to out: inout [UInt8]) {
        FixedWriter.appending(to: &out, capacity: Self.encodedSize) { w in
            w.integer(day)
            w.byte(timed ? 1 : 0)
            w.integer(instant.seconds)
            w.integer(instant.nanoseconds)
            w.integer(recordedDay)
            w.integer(recorded.seconds)
            w.integer(recorded.nanoseconds)
        }
    }

    /// The key `append(to:)` wrote at `offset` of `bytes`, with input index `index`.
    init(reading bytes: [UInt8], at offset: Int, index: Int) {
        self = bytes.withByteView { view in
            TimelineSortKey(
                day: view.integer(at: offset), timed: view[offset + 8] != 0,
                instant: Instant(
                    seconds: view.integer(at: offset + 9),
                    nanoseconds: view.integer(at: offset + 17)),
                recordedDay: view.integer(at: offset + 21),
                recorded: Instant(
                    seconds: view.integer(at: offset + 29),
                    nanoseconds: view.integer(at: offset + 37)), index: index)
        }
    }
}
