/// A JSON input read chunk by chunk and parsed in place, so that a large document is never
/// held whole: the bytes from the reading position on, and those kept for a block being
/// cut (`keep(from:)`); the rest are dropped as the next chunks come. Offsets are the
/// input's throughout, and `location(of:)` counts lines as `LineCounter` does over a whole
/// document.
///
/// Each step (`step`, `nextValue`) first reads until what it looks at is held whole with
/// `margin` bytes after it, or the input has ended, so a parser run there sees what it
/// would see over the whole input and gives the same values and errors at the same offsets.
final class JSONInputWindow {
    private let input: InputReader
    /// The bytes held; `bytes[0]` is at input offset `base`.
    private(set) var bytes: [UInt8] = []
    private(set) var base = 0
    /// The reading position, as an input offset.
    private(set) var offset = 0
    private var keptFrom: Int?
    private var ended = false
    private var lines = LineCounter()
    /// Bytes held past a value before it is parsed: a parser stops within a value's bounds
    /// as strings and nesting give them (`JSONArrayStream.elementEnd`), or a byte after a
    /// bare literal, so this is ample.
    static let margin = 64

    init(input: InputReader) {
        self.input = input
    }

    /// Keeps the bytes from input offset `start` on (until called with nil) even once the
    /// position has passed them.
    func keep(from start: Int?) {
        keptFrom = start
    }

    /// Moves the reading position to input offset `offset` (at or after where it is).
    func move(to offset: Int) {
        self.offset = offset
    }

    /// The line and column of input offset `offset`; offsets must not decrease between
    /// calls, nor lie before the reading position of any earlier step.
    func location(of offset: Int) -> (line: Int, column: Int) {
        bytes.withByteView { lines.location(of: offset, in: $0, base: base) }
    }

    /// Where the next value (after whitespace) lies, as input offsets, and whether it ends
    /// before the input does, once it is held with `margin` bytes after it (or the input
    /// ended). `end == start` where no value begins (`,`, `]`, the end of input).
    func nextValue() throws(TimelineError) -> (start: Int, end: Int, complete: Bool) {
        var scannedFrom = offset
        while true {
            let start = firstNonSpace(from: scannedFrom)
            if start - base < bytes.count {
                let (end, complete) = bytes.withByteView {
                    JSONArrayStream.elementEnd(in: $0, from: start - base)
                }
                if complete && end + Self.margin <= bytes.count || ended {
                    return (start, base + end, complete)
                }
            } else if ended {
                return (start, start, false)
            }
            scannedFrom = start
            try read()
        }
    }

    /// Runs `body` on a parser at the reading position and moves to where it stopped; with
    /// `value`, once the next value is held whole (for a parse of a value or a key), else
    /// once the next byte that is not whitespace is (for punctuation). A syntax error's
    /// offset is the input's.
    func step<T>(value: Bool = false, _ body: (inout JSONParser) throws(JSONSyntaxError) -> T)
        throws -> T
    {
        if value {
            _ = try nextValue()
        } else {
            while firstNonSpace(from: offset) - base + Self.margin > bytes.count, !ended {
                try read()
            }
        }
        var parser = JSONParser(bytes: bytes, offset: offset - base)
        do {
            let result = try body(&parser)
            offset = base + parser.offset
            return result
        } catch {
            throw JSONSyntaxError(offset: base + error.offset, message: error.message)
        }
    }

    private func firstNonSpace(from start: Int) -> Int {
        var i = start - base
        while i < bytes.count,
            bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09
        { i += 1 }
        return base + i
    }

    /// Reads at least as much again as is held (so a value longer than a chunk is scanned
    /// a bounded number of times over), dropping what is behind the position and not kept.
    private func read() throws(TimelineError) {
        let drop = min(offset, keptFrom ?? offset) - base
        if drop > 0 {
            _ = location(of: base + drop)  // counted before it goes
            bytes.removeFirst(drop)
            base += drop
        }
        let wanted = max(bytes.count, 1)
        var got = 0
        while got < wanted {
            guard let chunk = try input.nextChunk() else {
                ended = true
                return
            }
            bytes.append(contentsOf: chunk)
            got += chunk.count
        }
    }
}
