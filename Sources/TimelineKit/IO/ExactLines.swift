import Dispatch

/// The lines of an input with their line ends, for jobs that write the input back with a few
/// bytes changed: each line's content and its end (`\n`, `\r\n`, or nothing at the end of
/// the input) exactly as read. Lines break only at LF, so a lone CR stays in its line and
/// comes back as it was.
enum ExactLines {
    /// Calls `body` with each line of `bytes` (its index from 0, content, line end); the last
    /// line may have no end.
    static func forEach(in bytes: ByteView, _ body: (Int, ByteView, ByteView) -> Void) {
        var start = 0
        var index = 0
        while start < bytes.count {
            let end = bytes.firstIndex(of: 0x0A, from: start)
            let contentEnd =
                end.map { $0 > start && bytes[$0 - 1] == 0x0D ? $0 - 1 : $0 } ?? bytes.count
            let next = end.map { $0 + 1 } ?? bytes.count
            body(index, bytes[start..<contentEnd], bytes[contentEnd..<next])
            index += 1
            start = next
        }
    }

    /// Cuts `input` into blocks of whole lines (about `blockSize` bytes), transforms them on
    /// worker threads (`transform` gets a block and returns what it made of it) and hands the
    /// results to `deliver` in input order, with the number of lines before the block. At
    /// most a few blocks are in flight, so memory stays bounded. A line longer than `maxLine`
    /// bytes stops the run.
    static func map<Result>(
        _ input: InputReader, blockSize: Int = 1 << 18,
        maxLine: Int = ReadOptions.defaultMaxRecordSize,
        transform: @escaping @Sendable ([UInt8]) -> (result: Result, lines: Int),
        deliver: (Result, _ linesBefore: Int) throws(TimelineError) -> Void
    ) throws(TimelineError) {
        let work = OrderedWork<(result: Result, lines: Int)>(limit: RecordBlocks.inFlight)
        var linesBefore = 0
        let hand = { (done: consuming (result: Result, lines: Int)) throws(TimelineError) in
            let (result, lines) = done
            try deliver(result, linesBefore)
            linesBefore += lines
        }
        var carry: [UInt8] = []
        // The last LF in `carry`, found in each chunk as it arrives: a line longer than a
        // chunk is never searched again.
        var lastLF: Int?
        while let chunk = try input.nextChunk() {
            if let i = chunk.lastIndex(of: 0x0A) { lastLF = carry.count + i }
            carry += chunk
            guard let cut = lastLF else {
                guard carry.count <= maxLine else {
                    throw TimelineError(
                        .data, "line \(linesBefore + 1) is longer than \(ByteCount.text(maxLine))",
                        at: SourceLocation(file: input.name),
                        notes: ["a larger \(.maxRecordSize) reads it"])
                }
                continue
            }
            guard carry.count >= blockSize else { continue }
            let block = Array(carry[...cut])
            carry.removeFirst(cut + 1)
            lastLF = nil
            try work.submit({ transform(block) }, deliver: hand)
        }
        if !carry.isEmpty {
            let block = carry
            try work.submit({ transform(block) }, deliver: hand)
        }
        try work.finish(deliver: hand)
    }
}
