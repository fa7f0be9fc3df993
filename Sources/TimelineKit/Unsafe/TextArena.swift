/// Texts kept for examples a finding may show at the end (start texts, ids), back to back in
/// byte chunks: a kept text costs its bytes and one copy, not a string object that stays
/// allocated (and retained) until the report. A batch's arena is filled as its events are
/// mapped; folding it into a rule's arena hands its chunks over by reference (no copy, and
/// several rules can keep the same chunks), and an arena never grows by copying itself.
///
/// A value type: a copy never sees what the original appends afterwards, nor the other way
/// round. Written chunks are never changed, so copies share them; an arena appends into its
/// last chunk only while no other arena holds that chunk (checked on each append), else it
/// starts a new one.
struct TextArena {
    /// Where a text is: its offset in the arena's bytes taken end to end, and its length.
    struct Text {
        var start: Int
        var count: Int32
    }

    /// One block of bytes, written only by the arena that made it (which counts what it
    /// used: a stored counter here would be checked for exclusive access at every write).
    private final class Chunk: @unchecked Sendable {
        let bytes: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            bytes = .allocate(capacity: capacity)
        }

        deinit { bytes.deallocate() }
    }

    private static let chunkSize = 64 * 1024
    private var chunks: [Chunk] = []
    /// Where each chunk starts in the bytes taken end to end.
    private var chunkStarts: [Int] = []
    /// Whether the last chunk is this arena's own to append to (not one handed over), and
    /// how many of its bytes are used.
    private var ownsLast = false
    private var lastUsed = 0
    private(set) var byteCount = 0

    mutating func append(_ text: String) -> Text {
        text.withByteView { append(bytes: $0) }
    }

    mutating func append(bytes: ByteView) -> Text {
        if !ownsLast || lastUsed + bytes.count > chunks[chunks.count - 1].capacity
            || !isKnownUniquelyReferenced(&chunks[chunks.count - 1])
        {
            chunks.append(Chunk(capacity: max(Self.chunkSize, bytes.count)))
            chunkStarts.append(byteCount)
            ownsLast = true
            lastUsed = 0
        }
        bytes.copy(into: chunks[chunks.count - 1].bytes + lastUsed)
        lastUsed += bytes.count
        let start = byteCount
        byteCount += bytes.count
        return Text(start: start, count: Int32(clamping: bytes.count))
    }

    /// Takes a later batch's texts in (sharing its chunks); returns what to add to their
    /// `start`s. Texts appended to `later` afterwards are not seen here.
    mutating func append(_ later: TextArena) -> Int {
        let base = byteCount
        for (chunk, start) in zip(later.chunks, later.chunkStarts) {
            chunks.append(chunk)
            chunkStarts.append(base + start)
        }
        ownsLast = false
        byteCount = base + later.byteCount
        return base
    }

    /// Moves the texts into one chunk of exactly their size, releasing the room the chunks
    /// had left (a batch kept to the end of a run holds only what it wrote). Texts keep
    /// their places; arenas that share the old chunks still have them.
    mutating func compact() {
        guard chunks.count > 1 || (chunks.count == 1 && chunks[0].capacity > byteCount) else {
            return
        }
        guard byteCount > 0 else {
            self = TextArena()
            return
        }
        let whole = Chunk(capacity: byteCount)
        for (i, chunk) in chunks.enumerated() {
            let end = i + 1 < chunkStarts.count ? chunkStarts[i + 1] : byteCount
            (whole.bytes + chunkStarts[i]).update(from: chunk.bytes, count: end - chunkStarts[i])
        }
        chunks = [whole]
        chunkStarts = [0]
        ownsLast = true
        lastUsed = byteCount
    }

    subscript(_ text: Text) -> String {
        withBytes(text) { $0.string }
    }

    /// Calls `body` with the bytes of `text`.
    func withBytes<R>(_ text: Text, _ body: (ByteView) -> R) -> R {
        guard text.count > 0 else { return body(.empty) }
        // The last chunk starting at or before the text (texts never straddle chunks); most
        // lookups are for the last one.
        var low = chunkStarts.count - 1
        if chunkStarts[low] > text.start {
            low = 0
            var high = chunkStarts.count
            while high - low > 1 {
                let mid = (low + high) / 2
                if chunkStarts[mid] <= text.start { low = mid } else { high = mid }
            }
        }
        return body(
            ByteView(
                lending: UnsafeBufferPointer(
                    start: chunks[low].bytes + (text.start - chunkStarts[low]),
                    count: Int(text.count))))
    }
}
