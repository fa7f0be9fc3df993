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

    private var chunks: [[UInt8]] = []
    /// Where each chunk starts in the bytes taken end to end.
    private var chunkStarts: [Int] = []
    private(set) var byteCount = 0

    mutating func append(_ text: String) -> Text {
        if chunks.isEmpty {
            chunks.append([])
            chunkStarts.append(0)
        }
        var text = text
        let start = byteCount
        text.withUTF8 { chunks[chunks.count - 1].append(contentsOf: $0) }
        byteCount = chunkStarts[chunks.count - 1] + chunks[chunks.count - 1].count
        return Text(start: start, count: Int32(clamping: byteCount - start))
    }

    /// Moves a later batch's texts in; returns what to add to their `start`s.
    mutating func append(_ later: consuming TextArena) -> Int {
        let base = byteCount
        for (chunk, start) in zip(later.chunks, later.chunkStarts) where !chunk.isEmpty {
            chunkStarts.append(base + start)
            chunks.append(chunk)
        }
        byteCount = base + later.byteCount
        return base
    }

    subscript(_ text: Text) -> String {
        guard text.count > 0 else { return "" }
        // The last chunk starting at or before the text (texts never straddle chunks).
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
