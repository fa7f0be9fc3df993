/// Appends compact JSON with deterministic formatting: no spaces, keys in the order given,
/// non-ASCII text as UTF-8, control characters and `"` `\` escaped.
package struct JSONWriter {
    package var bytes: [UInt8] = []

    package init() {}

    /// `s` quoted and escaped (one implementation: `FixedWriter.jsonString`).
    package mutating func string(_ s: String) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FixedWriter.jsonStringBound(s)) { buffer in
            var f = FixedWriter(buffer)
            f.jsonString(s)
            bytes.append(contentsOf: f.written)
        }
    }

    /// Whether any byte is a control character, `"`, `\\` or DEL; eight bytes at a time (a
    /// word-wise test that may say yes wrongly, never no wrongly, then byte by byte). The
    /// last bytes of a string of eight or more are tested as the word that ends it.
    @inline(__always)
    static func needsEscaping(_ p: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = p.count
        while i + 8 <= n {
            if mayNeedEscaping(p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { break }
            i += 8
        }
        if i == n { return false }
        if i + 8 > n, n >= 8, !mayNeedEscaping(p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) { return false }
        while i < n {
            let b = p[i]
            if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F { return true }
            i += 1
        }
        return false
    }

    /// False only when none of the eight bytes of `x` needs escaping.
    @inline(__always)
    private static func mayNeedEscaping(_ x: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = x ^ (ones &* 0x22)
        let backslash = x ^ (ones &* 0x5C)
        let delete = x ^ (ones &* 0x7F)
        let control = (x &- ones &* 0x20) & ~x
        let zeros = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((delete &- ones) & ~delete)
        return (control | zeros) & highs != 0
    }

    package mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    package mutating func value(_ v: JSONValue) {
        switch v {
        case .null: raw("null")
        case .bool(let b): b ? raw("true") : raw("false")
        case .number(let n): bytes.append(contentsOf: Array(n.utf8))
        case .string(let s): string(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let pairs):
            bytes.append(UInt8(ascii: "{"))
            for (i, (k, item)) in pairs.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                string(k)
                bytes.append(UInt8(ascii: ":"))
                value(item)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}

extension FixedWriter {
    /// The most bytes `jsonString(s)` can write: every byte escaped as `\u00XX`, plus quotes.
    static func jsonStringBound(_ s: String) -> Int { s.utf8.count * 6 + 2 }

    /// `s` as a JSON string: quoted; `"` and `\` escaped with a backslash; LF, CR, tab as `\n`
    /// `\r` `\t`; other control characters and DEL as `\u00xx`; everything else (UTF-8 too) as is.
    mutating func jsonString(_ s: String) {
        let done = s.utf8.withContiguousStorageIfAvailable { p -> Bool in
            let raw = UnsafeRawBufferPointer(p)
            guard !JSONWriter.needsEscaping(raw) else { return false }
            quoted(raw)
            return true
        }
        guard done != true else { return }
        byte(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: byte(0x5C); byte(0x22)
            case 0x5C: byte(0x5C); byte(0x5C)
            case 0x0A: byte(0x5C); byte(UInt8(ascii: "n"))
            case 0x0D: byte(0x5C); byte(UInt8(ascii: "r"))
            case 0x09: byte(0x5C); byte(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                byte(0x5C); byte(UInt8(ascii: "u")); byte(0x30); byte(0x30)
                byte(hex[Int(b >> 4)]); byte(hex[Int(b & 0xF)])
            default: byte(b)
            }
        }
        byte(0x22)
    }
}
