/// Snappy's raw block format (the codec Parquet engines read by default): the length as a
/// varint, then literals and back-references found with a hash of four bytes. Compresses
/// in windows of 64 KiB so that every back-reference fits a two-byte offset.
enum Snappy {
    private static let window = 1 << 16
    private static let hashBits = 14

    /// `input` compressed, appended to `out`.
    static func compress(_ input: [UInt8], into out: inout [UInt8]) {
        BinaryWriter.varint(UInt64(input.count), &out)
        var table = [Int32](repeating: -1, count: 1 << hashBits)
        input.withByteView { src in
            var start = 0
            while start < src.count {
                let end = min(start + window, src.count)
                FixedWriter.appendingInPlace(
                    src, to: &out, capacity: maximumLength(end - start)
                ) { src, w in
                    compressWindow(src, start, end, &table, &w)
                }
                start = end
            }
        }
    }

    /// The most bytes `count` input bytes take compressed (Snappy's own bound).
    static func maximumLength(_ count: Int) -> Int { 32 + count + count / 6 }

    @inline(__always)
    private static func load32(_ p: ByteView, _ i: Int) -> UInt32 { p.integer(at: i) }

    private static func hash(_ v: UInt32) -> Int {
        Int((v &* 0x1E35_A7BD) >> (32 - UInt32(hashBits)))
    }

    /// Compresses `src[start..<end]`, referring back only within the window.
    private static func compressWindow(
        _ src: ByteView, _ start: Int, _ end: Int, _ table: inout [Int32],
        _ out: inout FixedWriter
    ) {
        var literalStart = start
        var i = start
        // A match needs four bytes to hash; the last few bytes are left as a literal.
        let lastMatchStart = end - 4
        // Where nothing matches, the search speeds up: one more byte skipped per 32 misses
        // (Snappy's own heuristic), so bytes that do not compress cost little.
        var misses = 32
        while i <= lastMatchStart {
            let v = load32(src, i)
            let h = hash(v)
            let candidate = Int(table[h])
            table[h] = Int32(i)
            guard candidate >= start, candidate < i, i - candidate < window,
                load32(src, candidate) == v
            else {
                i += misses >> 5
                misses += 1
                continue
            }
            misses = 32
            let length = 4 + matchLength(src, candidate + 4, i + 4, end)
            literal(src, literalStart, i, &out)
            copy(offset: i - candidate, length: length, &out)
            i += length
            literalStart = i
        }
        literal(src, literalStart, end, &out)
    }

    /// How many bytes from `a` equal those from `b` (`a` < `b`), up to `end`: eight at a time.
    @inline(__always)
    private static func matchLength(_ src: ByteView, _ a: Int, _ b: Int, _ end: Int) -> Int {
        var n = 0
        while b + n + 8 <= end {
            let x =
                src.integer(at: a + n, as: UInt64.self) ^ src.integer(at: b + n, as: UInt64.self)
            if x != 0 { return n + x.trailingZeroBitCount / 8 }
            n += 8
        }
        while b + n < end && src[a + n] == src[b + n] { n += 1 }
        return n
    }

    private static func literal(
        _ src: ByteView, _ from: Int, _ to: Int, _ out: inout FixedWriter
    ) {
        let n = to - from
        guard n > 0 else { return }
        let m = n - 1
        if m < 60 {
            out.byte(UInt8(m) << 2)
        } else if m < 1 << 8 {
            out.byte(60 << 2)
            out.byte(UInt8(m))
        } else if m < 1 << 16 {
            out.byte(61 << 2)
            out.byte(UInt8(truncatingIfNeeded: m))
            out.byte(UInt8(truncatingIfNeeded: m >> 8))
        } else {
            out.byte(62 << 2)
            out.byte(UInt8(truncatingIfNeeded: m))
            out.byte(UInt8(truncatingIfNeeded: m >> 8))
            out.byte(UInt8(truncatingIfNeeded: m >> 16))
        }
        out.bytes(src[from..<to])
    }

    /// Back-references of at most 64 bytes each (two-byte offsets).
    private static func copy(offset: Int, length: Int, _ out: inout FixedWriter) {
        var left = length
        while left > 0 {
            let piece = min(left, 64)
            out.byte(UInt8(piece - 1) << 2 | 2)
            out.byte(UInt8(truncatingIfNeeded: offset))
            out.byte(UInt8(truncatingIfNeeded: offset >> 8))
            left -= piece
        }
    }
}
