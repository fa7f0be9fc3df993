/// Reads an input file or standard input in chunks, without loading it whole unless asked.
/// Strips a UTF-8 byte-order mark at the start.
package final class InputReader {
    /// The name used in diagnostics: the path as given, or `-` for standard input (or the
    /// file a slice belongs to).
    package var name: String
    /// Where the bytes begin in the file `name` names when they are a slice of it; nil for a
    /// whole file.
    package var slice: SourcePosition?
    /// The records and lines of the file before these bytes (none for a whole file).
    package var position: SourcePosition { slice ?? SourcePosition() }
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false
    private var checkedBOM = false
    /// Whether the input began with a UTF-8 byte-order mark (skipped: reading never sees it).
    package private(set) var hadBOM = false
    package static let chunkSize = 1 << 16
    /// Counts the bytes read from the source (before any transcoding), for progress.
    package var meter: ReadMeter?
    /// The longest line `nextLine` returns; a longer one stops the run.
    package var maxLine = ReadOptions.defaultMaxRecordSize

    /// Opens `path`, or standard input for `-`.
    package init(path: String) throws(TimelineError) {
        name = path
        if path == "-" {
            fd = 0
            ownsDescriptor = false
            return
        }
        if System.kind(of: path) == .directory {
            throw TimelineError(
                .inputUnavailable, "cannot read '\(path)': it is a directory; name a file")
        }
        let opened: Int32
        switch System.openForReading(path) {
        case .success(let descriptor): opened = descriptor
        case .failure(let failure):
            throw TimelineError(
                .inputUnavailable, "cannot read '\(path)': \(failure.reason)",
                notes: ["check the path, or pass '-' to read standard input"])
        }
        fd = opened
        ownsDescriptor = true
    }

    /// Reads an open file descriptor (a pipe, a socket, a file handle the caller owns); it is
    /// not closed.
    package init(name: String, fileDescriptor: Int32) {
        self.name = name
        fd = fileDescriptor
        ownsDescriptor = false
    }

    /// Reads from bytes in memory (tests, benchmarks), `chunkSize` bytes at a time so that
    /// record boundaries can fall anywhere.
    package init(name: String, bytes: [UInt8], chunkSize: Int? = nil) {
        self.name = name
        fd = -1
        ownsDescriptor = false
        if let chunkSize {
            memory = bytes[...]
            memoryChunk = max(1, chunkSize)
        } else {
            buffer = bytes
            eof = true
        }
    }

    /// Reads what `produce` makes, a chunk per call until it returns nil: bytes generated
    /// as they are read (an XLSX sheet's rows as CSV text), never held whole.
    package init(name: String, producing produce: @escaping () throws(TimelineError) -> [UInt8]?) {
        self.name = name
        fd = -1
        ownsDescriptor = false
        producer = produce
    }

    private var memory: ArraySlice<UInt8> = []
    private var memoryChunk = 0
    private var producer: (() throws(TimelineError) -> [UInt8]?)?
    private var transcoder: Transcoder?

    /// Reads the rest of the input as `encoding`, converted to UTF-8 as it streams. Call
    /// before reading anything. UTF-8 needs no conversion.
    package func setEncoding(_ encoding: TextEncoding) throws(TimelineError) {
        guard encoding != .utf8 else { return }
        transcoder = try Transcoder(from: encoding)
        if !buffer.isEmpty {
            let raw = buffer
            buffer = transcoder!.convert(raw, final: eof)
            start = 0
            contentScannedTo = 0
        }
    }

    /// How many invalid sequences `--encoding` conversion replaced with U+FFFD, and where the
    /// first was (byte offset in the source); nil when none.
    package var replacedSequences: (count: Int, firstOffset: Int)? {
        guard let t = transcoder, t.replacedSequences > 0 else { return nil }
        return (t.replacedSequences, t.firstReplacementOffset ?? 0)
    }

    deinit {
        if ownsDescriptor { System.closeQuietly(fd) }
    }

    /// Fills the buffer with at least `count` unread bytes if the input has them.
    private func fill(atLeast count: Int) throws(TimelineError) {
        nextLF = nil
        while buffer.count - start < count && !eof {
            if start > 0 && start >= buffer.count / 2 {
                buffer.removeFirst(start)
                contentScannedTo = max(0, contentScannedTo - start)
                start = 0
            }
            if let producer {
                if let chunk = try producer() {
                    buffer.append(contentsOf: chunk)
                } else {
                    eof = true
                }
                continue
            }
            if fd < 0 {
                // In memory: hand over the next slice.
                let take = memory.prefix(memoryChunk)
                memory = memory.dropFirst(take.count)
                meter?.add(take.count)
                if let transcoder {
                    buffer.append(
                        contentsOf: transcoder.convert(Array(take), final: memory.isEmpty))
                } else {
                    buffer.append(contentsOf: take)
                }
                if take.isEmpty { eof = true }
                continue
            }
            let old = buffer.count
            let got: Int
            switch System.readChunk(from: fd, appendingTo: &buffer, upTo: InputReader.chunkSize) {
            case .success(let count): got = count
            case .failure(let failure):
                throw TimelineError(.inputUnavailable, "cannot read '\(name)': \(failure.reason)")
            }
            if got == 0 { eof = true }
            meter?.add(got)
            if let transcoder {
                let raw = Array(buffer[old...])
                buffer.removeLast(buffer.count - old)
                buffer.append(contentsOf: transcoder.convert(raw, final: eof))
            }
        }
        if !sawContent {
            // Only what arrived since the last look: a long run of whitespace is read through once.
            sawContent = buffer[max(start, contentScannedTo)...].contains {
                $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09
            }
            contentScannedTo = buffer.count
        }
        if !checkedBOM && (buffer.count - start >= 3 || eof) {
            checkedBOM = true
            if buffer.count - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB,
                buffer[start + 2] == 0xBF
            {
                start += 3
                hadBOM = true
            }
        }
    }

    /// Up to `count` bytes from the current position, without consuming them.
    package func peek(_ count: Int) throws(TimelineError) -> ArraySlice<UInt8> {
        try fill(atLeast: count)
        return buffer[start..<min(buffer.count, start + count)]
    }

    /// The unread bytes up to and past the first that is not whitespace (space, tab, CR,
    /// LF), looking as far as `limit` bytes, and that byte's index in them; nil when the
    /// input has nothing else. Beyond `limit` of whitespace it stops the run: input that
    /// holds a value is never taken for an empty one.
    package func peekPastWhitespace(limit: Int) throws(TimelineError) -> (
        head: ArraySlice<UInt8>, first: Int
    )? {
        var head = try peek(4096)
        while true {
            if let first = head.firstIndex(where: {
                $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09
            }) {
                return (head, first)
            }
            guard head.count < limit else {
                throw TimelineError(
                    .data, "the input begins with more than \(ByteCount.text(limit)) of whitespace",
                    at: SourceLocation(file: name, line: 1))
            }
            let more = try peek(head.count * 2)
            if more.count == head.count { return nil }  // the end of the input
            head = more
        }
    }

    /// Whether a byte that is not whitespace has been read (or peeked) so far.
    package private(set) var sawContent = false
    /// Below this index of `buffer`, every byte was looked at for `sawContent`.
    private var contentScannedTo = 0

    /// The next line without its terminator (LF, CRLF or lone CR), or nil at the end.
    package func nextLine() throws(TimelineError) -> ArraySlice<UInt8>? {
        guard let range = try nextLineRange() else { return nil }
        return buffer[range]
    }

    /// The next block of unread bytes (what is buffered, else one read), or nil at the end.
    /// For callers that split records themselves in one tight loop.
    package func nextChunk() throws(TimelineError) -> [UInt8]? {
        try fill(atLeast: 1)
        guard start < buffer.count else { return nil }
        let chunk = start == 0 ? buffer : Array(buffer[start...])
        nextLF = nil
        buffer.removeAll(keepingCapacity: true)
        start = 0
        contentScannedTo = 0
        return chunk
    }

    /// The first LF at or after the current line's start (`buffer.count` when there is
    /// none), while the buffer is as it was when it was found: nil once `fill` changes it.
    /// Kept so that input with no LF (lines ended by CR alone) is searched through once, not
    /// again for every line.
    private var nextLF: Int?

    /// The buffer range of the next line, consuming it and its terminator.
    private func nextLineRange() throws(TimelineError) -> Range<Int>? {
        var scanFrom = start
        while true {
            let count = buffer.count
            // Lines end in LF nearly always: memchr finds it, then a CR before it, which
            // ends the line there (CRLF, or a lone CR).
            let known = nextLF ?? -1
            let (terminator, lf) = buffer.withByteView { p -> (Int?, Int) in
                let lf = known >= scanFrom ? known : p.firstIndex(of: 0x0A, from: scanFrom) ?? count
                return (
                    p.firstIndex(of: 0x0D, from: scanFrom, before: lf) ?? (lf < count ? lf : nil),
                    lf
                )
            }
            nextLF = lf
            if let i = terminator {
                guard i - start <= maxLine else { throw lineTooLong() }
                let isCR = buffer[i] == 0x0D
                if isCR && i + 1 == count && !eof {
                    // A CR at the end of the buffer: need the next byte to know if LF follows.
                    let consumed = i - start
                    try fill(atLeast: count - start + 1)
                    scanFrom = start + consumed
                    continue
                }
                let range = start..<i
                start = (isCR && i + 1 < count && buffer[i + 1] == 0x0A) ? i + 2 : i + 1
                return range
            }
            if eof {
                guard start < count else { return nil }
                guard count - start <= maxLine else { throw lineTooLong() }
                let range = start..<count
                start = count
                return range
            }
            let consumed = count - start
            guard consumed <= maxLine else { throw lineTooLong() }
            try fill(atLeast: consumed + 1)
            scanFrom = start + consumed
        }
    }

    private func lineTooLong() -> TimelineError {
        TimelineError(
            .data, "a line longer than \(ByteCount.text(maxLine))", at: SourceLocation(file: name),
            notes: ["a larger \(.maxRecordSize) reads it"])
    }

    /// Everything not yet read.
    package func readAll() throws(TimelineError) -> [UInt8] {
        while !eof { try fill(atLeast: buffer.count - start + InputReader.chunkSize) }
        if !checkedBOM { try fill(atLeast: 3) }
        let rest = Array(buffer[start...])
        start = buffer.count
        return rest
    }
}
