/// Values that mean "none" in a time, amount or zone column: `Not Available` (Amazon's ship
/// date of a cancelled order), `N/A`, `null`, `-`, `0000-00-00`. Asked of every time and
/// amount a record holds, so it answers from the first byte for nearly all of them, and
/// compares bytes (ASCII letters in either case) without making a string.
enum Placeholder {
    /// The filled values of column `index` in sampled `rows`: cleaned, neither empty nor a
    /// placeholder.
    static func filled(_ rows: [[String]], column index: Int) -> [String] {
        rows.compactMap { index < $0.count ? $0[index].cleanedCell : nil }.filter {
            !$0.isEmpty && !isPlaceholder($0)
        }
    }

    static let words: [[UInt8]] = [
        "not available", "n/a", "na", "none", "null", "nil", "-", "—", "--", "/", "0000-00-00",
        "0000-00-00 00:00:00",
    ].map { Array($0.utf8) }

    static func isPlaceholder(_ text: String) -> Bool {
        guard mayBePlaceholder(text.utf8.first) else { return false }
        return text.withByteView(isPlaceholder)
    }

    static func isPlaceholder(_ bytes: ByteView) -> Bool {
        guard mayBePlaceholder(bytes.count > 0 ? bytes[0] : nil) else { return false }
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard start < end, end - start <= 19 else { return false }
        switch bytes[start] {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "-"), UInt8(ascii: "/"),
            UInt8(ascii: "0"), 0xE2:
            break
        default: return false
        }
        return words.contains { word in
            word.count == end - start
                && word.indices.allSatisfy { i in
                    let b = bytes[start + i]
                    return (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == word[i]
                }
        }
    }

    /// Whether a value that starts with `first` may be a placeholder: nearly every value
    /// starts with a digit or a letter none starts with.
    @inline(__always)
    private static func mayBePlaceholder(_ first: UInt8?) -> Bool {
        switch first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "-"), UInt8(ascii: "/"),
            UInt8(ascii: "0"), 0xE2, 0x20, 0x09:
            return true
        default: return false
        }
    }
}
