/// The lines of a file that start in the byte range (A, B] — from byte 0 for the range that
/// starts there — as Hadoop's line reader cuts a file into splits, so that the tasks of a
/// distributed job each read their split of the file themselves and together read every
/// line once: a range that starts inside a line leaves it to the range before, and a range
/// ends with the line that runs over its end.
final class ByteRangeInput {
    private let fd: Int32
    private let end: Int
    /// The file offset of the next byte read.
    private var position: Int
    /// Still looking for the end of the line the range starts in.
    private var skipping: Bool
    private var finished = false

    /// Opens `path` at the start of `range`.
    /// - Throws: `.inputUnavailable` when the file cannot be opened or positioned.
    init(path: String, range: Range<Int>) throws(TimelineError) {
        switch System.openForReading(path) {
        case .success(let fd): self.fd = fd
        case .failure(let failure):
            throw TimelineError(.inputUnavailable, "cannot read '\(path)': \(failure.reason)")
        }
        end = range.upperBound
        position = range.lowerBound
        skipping = range.lowerBound > 0
        if case .failure(let failure) = System.seek(fd, to: range.lowerBound) {
            System.closeQuietly(fd)
            throw TimelineError(.inputUnavailable, "cannot read '\(path)': \(failure.reason)")
        }
    }

    deinit { System.closeQuietly(fd) }

    /// The next chunk of the range's lines; nil after the last.
    func next() throws(TimelineError) -> [UInt8]? {
        while !finished {
            var chunk: [UInt8] = []
            switch System.readChunk(from: fd, appendingTo: &chunk, upTo: InputReader.chunkSize) {
            case .success(0):
                finished = true
                return nil
            case .success: break
            case .failure(let failure):
                throw TimelineError(.ioError, "cannot read the input: \(failure.reason)")
            }
            let chunkStart = position
            position += chunk.count
            var from = 0
            if skipping {
                guard let newline = chunk.firstIndex(of: 0x0A) else { continue }
                skipping = false
                // A line that runs past the range's end from before its start: none of the
                // range's lines start in it.
                if chunkStart + newline >= end {
                    finished = true
                    return nil
                }
                from = newline + 1
            }
            // The range ends with the first line end at or after its last byte.
            let lastOffset = end - chunkStart
            var to = chunk.count
            if lastOffset < chunk.count,
                let newline = chunk[max(from, max(0, lastOffset))...].firstIndex(of: 0x0A)
            {
                to = newline + 1
                finished = true
            }
            if from < to { return Array(chunk[from..<to]) }
        }
        return nil
    }
}
