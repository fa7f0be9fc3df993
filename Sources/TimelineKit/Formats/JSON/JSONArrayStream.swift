/// Reads the elements of a top-level JSON array one at a time from a stream, holding only
/// the current element and one chunk: the scanner finds where each element ends (outside
/// strings, at nesting depth zero) and hands over just those bytes.
final class JSONArrayStream {
    enum Step {
        /// One element's bytes and the byte offset where it starts.
        case element([UInt8], offset: Int)
        /// The closing `]` was read.
        case end
        /// The array is malformed or cut short at this byte offset.
        case malformed(offset: Int, message: String)
    }

    private let input: InputReader
    // A running line count, only ever moved forward: up to `countedTo` (an absolute offset)
    // there were `line - 1` line breaks, the last ending at `lineStart`.
    private var countedTo = 0
    private var line = 1
    private var lineStart = 0
    private var buffer: [UInt8] = []
    private var position = 0
    private var consumedBefore = 0  // bytes dropped from the front of `buffer`
    private var eof = false
    /// Where the scanner is: before `[`, where an element (or `]` for an empty array) may
    /// come, after an element (`,` or `]` next), or after a `,` (an element must come).
    private enum State { case beforeArray, firstElement, afterElement, nextElement }
    private var state = State.beforeArray
    private var finished = false

    /// The longest element read; a longer one is malformed input.
    private let maxElement: Int

    init(input: InputReader, maxElement: Int = ReadOptions.defaultMaxRecordSize) {
        self.input = input
        self.maxElement = maxElement
    }

    /// The byte offset (from the start of the input) of `position`.
    var offset: Int { consumedBefore + position }

    /// The next element, the end of the array, or where it went wrong.
    func next() throws(TimelineError) -> Step {
        guard !finished else { return .end }
        while true {
            if let step = scan() { return step }
            guard !eof else {
                return .malformed(
                    offset: consumedBefore + buffer.count,
                    message: "unexpected end of input inside the array")
            }
            if position > 0 {
                advanceLineCount(to: consumedBefore + position)
                consumedBefore += position
                buffer.removeFirst(position)
                position = 0
            }
            guard buffer.count <= maxElement else {
                return .malformed(
                    offset: consumedBefore,
                    message: "a record longer than \(ByteCount.text(maxElement))")
            }
            // At least as much again as is held: an element longer than a chunk is scanned a
            // bounded number of times over, not once per chunk.
            let held = buffer.count
            while buffer.count < min(2 * held, maxElement + 1) || buffer.count == 0 {
                guard let chunk = try input.nextChunk() else {
                    eof = true
                    break
                }
                buffer.append(contentsOf: chunk)
            }
        }
    }

    /// Counts line breaks up to `offset` (which must not be behind the bytes still buffered).
    private func advanceLineCount(to offset: Int) {
        var k = max(countedTo, consumedBefore) - consumedBefore
        let stop = min(offset - consumedBefore, buffer.count)
        while k < stop {
            if buffer[k] == 0x0A {
                line += 1
                lineStart = consumedBefore + k + 1
            }
            k += 1
        }
        countedTo = max(countedTo, consumedBefore + stop)
    }

    /// The 1-based line and column of `offset`; offsets must be asked for in increasing order.
    func location(of offset: Int) -> (line: Int, column: Int) {
        advanceLineCount(to: offset)
        return (line, offset - lineStart + 1)
    }

    /// One step on the buffered bytes; nil when more input is needed.
    private func scan() -> Step? {
        var i = position
        let n = buffer.count
        func skipSpace() {
            while i < n,
                buffer[i] == 0x20 || buffer[i] == 0x0A || buffer[i] == 0x0D || buffer[i] == 0x09
            { i += 1 }
        }
        while true {
            skipSpace()
            guard i < n else { return nil }
            switch state {
            case .beforeArray:
                guard buffer[i] == UInt8(ascii: "[") else {
                    return .malformed(
                        offset: consumedBefore + i, message: "expected '[' starting the records")
                }
                i += 1
                position = i
                state = .firstElement
                continue
            case .firstElement, .afterElement:
                if buffer[i] == UInt8(ascii: "]") {
                    finished = true
                    position = i + 1
                    return .end
                }
                if state == .afterElement {
                    guard buffer[i] == UInt8(ascii: ",") else {
                        return .malformed(
                            offset: consumedBefore + i,
                            message: "expected ',' or ']' after a record")
                    }
                    i += 1
                    position = i
                    state = .nextElement
                    continue
                }
            case .nextElement:
                break
            }
            break
        }
        let start = i
        let (end, complete) = buffer.withByteView { Self.elementEnd(in: $0, from: start) }
        guard complete || eof else { return nil }
        position = end
        state = .afterElement
        return .element(Array(buffer[start..<end]), offset: consumedBefore + start)
    }

    /// Where the array element starting at `start` of `bytes` ends — after its closing
    /// bracket or quote, or, for a bare literal, at the first comma, bracket or space at
    /// depth zero — and whether it ends before the bytes do. Only strings and nesting are
    /// looked at: whether the element is JSON is for its parser to say. A string's content
    /// is skipped eight bytes at a time, to its quote or backslash.
    static func elementEnd(in bytes: ByteView, from start: Int) -> (end: Int, complete: Bool) {
        let n = bytes.count
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        var i = start
        var depth = 0
        while i < n {
            let b = bytes[i]
            if b == quote {
                // To the closing quote, over escaped characters.
                i += 1
                while true {
                    i = bytes.firstIndex(of: quote, backslash, quote, from: i)
                    guard i < n else { return (n, false) }
                    if bytes[i] == quote { break }
                    i += 2
                }
                if depth == 0 { return (i + 1, true) }
            } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                depth += 1
            } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                if depth == 0 { return (i, true) }
                depth -= 1
                if depth == 0 { return (i + 1, true) }
            } else if depth == 0
                && (b == UInt8(ascii: ",") || b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09)
            {
                return (i, true)
            }
            i += 1
        }
        return (n, false)
    }
}
