/// Finds the first of three byte values, eight bytes at a time: the scans for the end of a
/// CSV field (delimiter, LF, CR) and inside quotes (quote, LF, CR) run over every byte of
/// the input, twice (cutting blocks, then splitting fields).
enum ByteSearch {
    /// The index of the first byte in `p[from..<p.count]` equal to `a`, `b` or `c`;
    /// `p.count` when there is none.
    @inline(__always)
    static func firstOf(_ a: UInt8, _ b: UInt8, _ c: UInt8, in p: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        let n = p.count
        var i = from
        if let base = p.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let pa = ones &* UInt64(a), pb = ones &* UInt64(b), pc = ones &* UInt64(c)
            while i + 8 <= n {
                let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let xa = x ^ pa, xb = x ^ pb, xc = x ^ pc
                // A zero byte in xa, xb or xc is a match. The lowest flagged byte of each
                // test is exact (borrows only flag bytes above a real zero), so the lowest
                // over the three is the first match.
                let found = ((xa &- ones) & ~xa | (xb &- ones) & ~xb | (xc &- ones) & ~xc) & highs
                if found != 0 { return i + found.trailingZeroBitCount / 8 }
                i += 8
            }
        }
        while i < n {
            let byte = p[i]
            if byte == a || byte == b || byte == c { return i }
            i += 1
        }
        return n
    }
}
