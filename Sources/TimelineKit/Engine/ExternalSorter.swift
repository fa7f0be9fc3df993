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
    private let directory: String
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

    /// - Parameter budget: about how many bytes the conversion may take while sorting. A
    ///   quarter of it (at most 64 MB) is left for what the conversion holds beside the
    ///   events (blocks being mapped, the sort keys of a run, the output's buffers); the
    ///   events take the rest.
    init(order: SortOrder, zone: ZoneRules, budget: Int, directory: String, onSpill: @escaping (SortProgress) -> Void = { _ in }) {
        precondition(order != .input, "input order needs no sort")
        self.onSpill = onSpill
        self.order = order
        self.zone = zone
        self.budget = budget - min(64 << 20, budget / 4)
        self.directory = directory
    }

    deinit {
        for fd in runs { System.closeQuietly(fd) }
    }

    func add(_ event: Event) throws(TimelineError) {
        bufferBytes += event.approximateSize
        buffer.append(event)
        if bufferBytes >= budget { try spill() }
    }

    /// Whether `a` goes before `b` (keys of distinct input indexes).
    private func precedes(_ a: TimelineSortKey, _ b: TimelineSortKey) -> Bool {
        let c = a.compareTime(b)
        if c == 0 { return a.index < b.index }
        return order == .asc ? c < 0 : c > 0
    }

    private func sortedBuffer() -> [Int] {
        let keys = buffer.indices.map { TimelineSortKey(event: buffer[$0], index: firstIndex + $0, zone: zone) }
        return keys.indices.sorted { precedes(keys[$0], keys[$1]) }
    }

    /// Writes the buffer, sorted, as a run.
    private func spill() throws(TimelineError) {
        guard !buffer.isEmpty else { return }
        let (fd, path): (Int32, String)
        switch System.createTemporaryFile(in: directory, prefix: "timeline-run-") {
        case .success(let created): (fd, path) = created
        case .failure(let f):
            throw TimelineError(.ioError, "cannot create a temporary file in '\(directory)' to sort in: \(f.reason)", notes: ["name another directory with --temp-dir, or raise --memory"])
        }
        System.removeQuietly(path)
        runs.append(fd)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        func flush() throws(TimelineError) {
            if case .failure(let f) = System.writeAll(out, to: fd) {
                throw TimelineError(.ioError, "cannot write a sorted run to '\(directory)': \(f.reason)", notes: ["free space there, name another directory with --temp-dir, or raise --memory"])
            }
            out.removeAll(keepingCapacity: true)
        }
        for i in sortedBuffer() {
            let index = UInt64(firstIndex + i)
            for b in 0..<8 { out.append(UInt8(truncatingIfNeeded: index >> (8 * UInt64(b)))) }
            EventRunCodec.append(buffer[i], to: &out)
            if out.count >= 1 << 20 { try flush() }
        }
        try flush()
        if case .failure(let f) = System.rewind(fd) { throw TimelineError(.ioError, "cannot read back a sorted run: \(f.reason)") }
        firstIndex += buffer.count
        buffer = ChunkedArray()
        bufferBytes = 0
        onSpill(.spilled(runs: runs.count))
    }

    /// Hands every event to `body` in order: the buffer alone when nothing was spilled, else
    /// the merge of the runs and the buffer.
    func drain(_ body: (Event) throws(TimelineError) -> Void) throws(TimelineError) {
        let memory = sortedBuffer()
        guard !runs.isEmpty else {
            for i in memory { try body(buffer[i]) }
            buffer = ChunkedArray()
            return
        }
        var sources: [RunSource] = runs.map { RunSource.file(RunReader(fd: $0)) }
        sources.append(.memory(memory, next: 0))
        var heads: [(key: TimelineSortKey, event: Event)?] = []
        for i in sources.indices { heads.append(try next(&sources[i])) }
        // A binary heap of source numbers, ordered by their heads.
        var heap = sources.indices.filter { heads[$0] != nil }
        func less(_ a: Int, _ b: Int) -> Bool { precedes(heads[a]!.key, heads[b]!.key) }
        func down(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < heap.count, less(heap[l], heap[m]) { m = l }
                if r < heap.count, less(heap[r], heap[m]) { m = r }
                if m == i { return }
                heap.swapAt(i, m)
                i = m
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { down(i) }
        while let top = heap.first {
            try body(heads[top]!.event)
            heads[top] = try next(&sources[top])
            if heads[top] == nil {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
            }
            down(0)
        }
        buffer = ChunkedArray()
    }

    private enum RunSource {
        case file(RunReader)
        case memory([Int], next: Int)
    }

    private func next(_ source: inout RunSource) throws(TimelineError) -> (key: TimelineSortKey, event: Event)? {
        switch source {
        case .file(let reader):
            guard let (index, event) = try reader.next() else { return nil }
            return (TimelineSortKey(event: event, index: index, zone: zone), event)
        case .memory(let order, let position):
            guard position < order.count else { return nil }
            source = .memory(order, next: position + 1)
            let event = buffer[order[position]]
            return (TimelineSortKey(event: event, index: firstIndex + order[position], zone: zone), event)
        }
    }
}

/// Reads a run's records back in order, 64 KiB at a time (a merge reads from many runs at
/// once; the system reads ahead anyway).
private final class RunReader {
    private let fd: Int32
    private var bytes: [UInt8] = []
    private var position = 0
    private var ended = false

    init(fd: Int32) {
        self.fd = fd
    }

    /// Makes at least `count` bytes available from `position`; false at the end of the run.
    private func ensure(_ count: Int) throws(TimelineError) -> Bool {
        while bytes.count - position < count {
            guard !ended else { return false }
            if position > 0 {
                bytes.removeFirst(position)
                position = 0
            }
            switch System.readChunk(from: fd, appendingTo: &bytes, upTo: max(1 << 16, count)) {
            case .success(0): ended = true
            case .success: break
            case .failure(let f): throw TimelineError(.ioError, "cannot read back a sorted run: \(f.reason)")
            }
        }
        return true
    }

    func next() throws(TimelineError) -> (index: Int, event: Event)? {
        guard try ensure(12) else {
            guard bytes.count == position else { throw TimelineError(.ioError, "a sorted run ends inside a record") }
            return nil
        }
        var index: UInt64 = 0
        for b in 0..<8 { index |= UInt64(bytes[position + b]) << (8 * UInt64(b)) }
        var length = 0
        for b in 0..<4 { length |= Int(bytes[position + 8 + b]) << (8 * b) }
        guard try ensure(12 + length) else { throw TimelineError(.ioError, "a sorted run ends inside a record") }
        do throws(EventRunCodec.Corrupt) {
            let (event, next) = try EventRunCodec.decode(bytes, at: position + 8)
            position = next
            return (Int(index), event)
        } catch {
            throw TimelineError(.ioError, "a sorted run was damaged on disk")
        }
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
        var n = MemoryLayout<Event>.stride + MemoryLayout<TimelineSortKey>.stride + 8 + heap(id) + heap(title) + heap(detail) + heap(category) + heap(location) + heap(series)
        n += heap(start.raw) + heap(end?.raw) + heap(recorded?.raw) + heap(start.zone)
        if !links.isEmpty { n += 32 + links.reduce(0) { $0 + 16 + heap($1) } }
        if !tags.isEmpty { n += 32 + tags.reduce(0) { $0 + 16 + heap($1) } }
        if !attributes.isEmpty { n += 64 + attributes.reduce(0) { $0 + 48 + heap($1.key) + heap($1.value) } }
        return n
    }
}
