/// Texts a rule keeps for examples it may show at the end, back to back in one byte buffer:
/// a kept text costs its bytes, not a string object that stays allocated (and retained)
/// until the report — rules keep one per series, or one per event.
struct TextArena {
    /// Where a text is in its arena.
    struct Text {
        var start: Int
        var count: Int32
    }

    private var bytes: [UInt8] = []

    mutating func append(_ text: String) -> Text {
        var text = text
        let start = bytes.count
        text.withUTF8 { bytes.append(contentsOf: $0) }
        return Text(start: start, count: Int32(clamping: bytes.count - start))
    }

    /// Appends a later batch's texts; returns what to add to their `start`s.
    mutating func append(_ later: TextArena) -> Int {
        let base = bytes.count
        bytes += later.bytes
        return base
    }

    subscript(_ text: Text) -> String {
        String(decoding: bytes[text.start..<text.start + Int(text.count)], as: UTF8.self)
    }
}
