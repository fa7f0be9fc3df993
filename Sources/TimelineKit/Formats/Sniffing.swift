/// What the formats' `sniff` functions look at in an input's first bytes.
extension Span<UInt8> {
    /// The index of the first byte that is not a space, tab, CR or LF; nil when there is none.
    var firstNonBlank: Int? {
        var i = 0
        while i < count {
            let b = self[i]
            if b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D { return i }
            i += 1
        }
        return nil
    }

    /// The line that starts at `start` (without its CR or LF) as a range, and where the
    /// next line starts (nil when the line runs to the end of the bytes).
    func line(from start: Int) -> (range: Range<Int>, next: Int?) {
        var i = start
        while i < count {
            let b = self[i]
            if b == 0x0A || b == 0x0D {
                let next = b == 0x0D && i + 1 < count && self[i + 1] == 0x0A ? i + 2 : i + 1
                return (start..<i, next)
            }
            i += 1
        }
        return (start..<count, nil)
    }

    /// Whether `range` holds any of `bytes`.
    func contains(anyOf bytes: [UInt8], in range: Range<Int>) -> Bool {
        for i in range where bytes.contains(self[i]) { return true }
        return false
    }

    /// Whether the bytes from `start` begin with `prefix` (ASCII, case-insensitive).
    func hasPrefix(caseInsensitive prefix: String, at start: Int) -> Bool {
        var i = start
        for p in prefix.utf8 {
            guard i < count else { return false }
            var b = self[i]
            if b >= 0x61 && b <= 0x7A { b -= 0x20 }
            var q = p
            if q >= 0x61 && q <= 0x7A { q -= 0x20 }
            guard b == q else { return false }
            i += 1
        }
        return true
    }

    /// The first line of the content (after leading blanks), for the delimiter sniffers.
    var firstContentLine: Range<Int>? {
        firstNonBlank.map { line(from: $0).range }
    }
}
