/// The pieces both sorters share (`ExternalSorter` for events, `EncodedRecordSorter` for
/// encoded output records): a run file on disk, its reader, and the k-way merge.
///
/// A run is a sequence of records, each `[input index: 8 bytes][length: 4 bytes][length
/// bytes]`, integers little endian, in the order the sort put them.
enum SortedRuns {
    /// Appends a record's framing — its input index and payload length — to `out`.
    static func appendFrame(index: Int, length: Int, to out: inout [UInt8]) {
        FixedWriter.appending(to: &out, capacity: 12) { w in
            w.integer(UInt64(index))
            w.integer(UInt32(length))
        }
    }

    /// Creates a run file in `directory` that no other process can open (it has no name):
    /// the system removes it when its descriptor is closed, the process ends or is killed,
    /// whatever happens. `purpose` completes the error's "… in DIR": what the file was for.
    static func createFile(in directory: String, purpose: String = "to sort in")
        throws(TimelineError) -> Int32
    {
        switch System.createAnonymousFile(in: directory) {
        case .success(let fd):
            return fd
        case .failure(let f):
            throw TimelineError(
                .ioError,
                "cannot create a temporary file in '\(directory)' \(purpose): \(f.reason)",
                notes: ["name another directory with \(.tempDir), or raise \(.memory)"])
        }
    }

    /// Writes `bytes` to the run file `fd` (in `directory`; `what` the file holds, for the
    /// message).
    static func write(
        _ bytes: [UInt8], to fd: Int32, directory: String, what: String = "a sorted run"
    ) throws(TimelineError) {
        if case .failure(let f) = System.writeAll(bytes, to: fd) {
            throw TimelineError(
                .ioError, "cannot write \(what) to '\(directory)': \(f.reason)",
                notes: [
                    "free space there, name another directory with \(.tempDir), or raise \(.memory)"
                ])
        }
    }

    /// Makes a written run readable from its start.
    static func rewind(_ fd: Int32) throws(TimelineError) {
        if case .failure(let f) = System.rewind(fd) {
            throw TimelineError(.ioError, "cannot read back a sorted run: \(f.reason)")
        }
    }

    /// Hands the items of `sources` sorted runs to `body` in the order `precedes` gives,
    /// keeping one head per source in a binary heap. `next(i)` gives source `i`'s next item
    /// (nil at its end); items of one source come in order.
    static func merge<Item>(
        sources: Int, next: (Int) throws(TimelineError) -> Item?, precedes: (Item, Item) -> Bool,
        body: (Item) throws(TimelineError) -> Void
    ) throws(TimelineError) {
        var heads: [Item?] = []
        for i in 0..<sources { heads.append(try next(i)) }
        var heap = (0..<sources).filter { heads[$0] != nil }
        func less(_ a: Int, _ b: Int) -> Bool { precedes(heads[a]!, heads[b]!) }
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
            try body(heads[top]!)
            heads[top] = try next(top)
            if heads[top] == nil {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
            }
            down(0)
        }
    }
}

/// Reads a run's records back in order, 64 KiB at a time (a merge reads from many runs at
/// once; the system reads ahead anyway). A sorted run is read once: with `discarding`, what
/// has been read is given back to the system every few megabytes (`System.discardStart`),
/// so that while the runs are merged into the output the disk holds the data about once,
/// not twice, and the output's pages take the memory the runs' cached pages gave up.
///
/// A value, not a class: a merge calls `next()` for every record, and a class's stored
/// properties would each be checked for exclusive access at run time on every call.
struct RunReader {
    private let fd: Int32
    /// What was read; a record returned by `next()` lies here until the next call.
    private(set) var bytes: [UInt8] = []
    private var position = 0
    private var ended = false
    /// Bytes read from the file, and the offset up to which they have been discarded.
    private var read = 0
    private var discarded = 0
    private let discarding: Bool
    private static let discardStep = 4 << 20

    init(fd: Int32, discarding: Bool = false) {
        self.fd = fd
        self.discarding = discarding
    }

    /// Makes at least `count` bytes available from `position`; false at the end of the run.
    private mutating func ensure(_ count: Int) throws(TimelineError) -> Bool {
        while bytes.count - position < count {
            guard !ended else { return false }
            if position > 0 {
                bytes.removeFirst(position)
                position = 0
            }
            switch System.readChunk(from: fd, appendingTo: &bytes, upTo: max(1 << 16, count)) {
            case .success(0): ended = true
            case .success(let n):
                read += n
                if discarding, read - discarded >= Self.discardStep {
                    System.discardStart(of: fd, length: read)
                    discarded = read
                }
            case .failure(let f):
                throw TimelineError(.ioError, "cannot read back a sorted run: \(f.reason)")
            }
        }
        return true
    }

    /// The next record: its input index, where its length field starts in `bytes` (the
    /// payload follows it) and the payload's length; nil at the end of the run.
    mutating func next() throws(TimelineError) -> (index: Int, lengthAt: Int, length: Int)? {
        // Nearly every record lies whole in what was read already.
        if bytes.count - position >= 12 {
            let (index, length) = frame(at: position)
            if bytes.count - position - 12 >= length { return take(index: index, length: length) }
        }
        guard try ensure(12) else {
            guard bytes.count == position else {
                throw TimelineError(.ioError, "a sorted run ends inside a record")
            }
            return nil
        }
        let (index, length) = frame(at: position)
        guard try ensure(12 + length) else {
            throw TimelineError(.ioError, "a sorted run ends inside a record")
        }
        return take(index: index, length: length)
    }

    /// The input index and payload length of the frame at `at` (12 bytes there).
    private func frame(at: Int) -> (index: Int, length: Int) {
        bytes.withByteView { view in
            (
                Int(truncatingIfNeeded: view.integer(at: at, as: UInt64.self)),
                Int(view.integer(at: at + 8, as: UInt32.self))
            )
        }
    }

    private mutating func take(index: Int, length: Int) -> (index: Int, lengthAt: Int, length: Int)
    {
        let lengthAt = position + 8
        position += 12 + length
        return (index, lengthAt, length)
    }
}
