/// Texts a rule keeps for examples it may show at the end, back to back in byte chunks: a
/// kept text costs its bytes, not a string object that stays allocated (and retained) until
/// the report — rules keep one per series, or one per event. A digest's arena is one chunk;
/// folding it into the rule's arena moves that chunk in whole (no copy, and the rule's
/// arena never grows by copying itself).
struct TextArena {
    /// Where a text is: its offset in the arena's bytes taken end to end, and its length.
    struct Text {
        var start: Int
        var count: Int32
    }

    /// Full chunks, and where each starts in the bytes taken end to end.
    private var chunks: [[UInt8]] = []
    private var chunkStarts: [Int] = []
    /// The chunk texts are appended to; it starts at `currentStart`.
    private var current: [UInt8] = []
    private var currentStart = 0

    var byteCount: Int { currentStart + current.count }

    mutating func append(_ text: String) -> Text {
        var text = text
        let start = byteCount
        text.withUTF8 { current.append(contentsOf: $0) }
        return Text(start: start, count: Int32(clamping: byteCount - start))
    }

    /// Moves a later batch's texts in; returns what to add to their `start`s.
    mutating func append(_ later: consuming TextArena) -> Int {
        let base = byteCount
        seal()
        later.seal()
        for (chunk, start) in zip(later.chunks, later.chunkStarts) {
            chunks.append(chunk)
            chunkStarts.append(base + start)
        }
        currentStart = base + later.byteCount
        return base
    }

    /// Ends the current chunk (texts never straddle chunks).
    private mutating func seal() {
        guard !current.isEmpty else { return }
        chunks.append(current)
        chunkStarts.append(currentStart)
        currentStart += current.count
        current = []
    }

    subscript(_ text: Text) -> String {
        guard text.count > 0 else { return "" }
        if text.start >= currentStart {
            let offset = text.start - currentStart
            return String(decoding: current[offset..<offset + Int(text.count)], as: UTF8.self)
        }
        // The last chunk starting at or before the text.
        var low = 0
        var high = chunkStarts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if chunkStarts[mid] <= text.start { low = mid } else { high = mid }
        }
        let offset = text.start - chunkStarts[low]
        return String(decoding: chunks[low][offset..<offset + Int(text.count)], as: UTF8.self)
    }
}
