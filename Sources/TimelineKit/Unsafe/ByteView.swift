#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Read-only bytes lent for the length of one call — a string's UTF-8, an array's storage —
/// with bounds-checked subscripts and slices, and the few bulk operations the parsers need
/// (find a byte, compare a prefix, read 8 bytes at a time). The parsers read bytes only
/// through it, so no code outside `Unsafe/` holds a raw pointer; the memory belongs to the
/// lender and a view must not outlive the closure it was lent to (as with swift-foundation's
/// `BufferView`).
package struct ByteView: @unchecked Sendable {
    private let base: UnsafeBufferPointer<UInt8>

    fileprivate init(_ base: UnsafeBufferPointer<UInt8>) {
        self.base = base
    }

    /// A view of memory an `Unsafe/` type owns (an arena's chunk), valid while it lends it.
    init(lending base: UnsafeBufferPointer<UInt8>) {
        self.base = base
    }

    /// No bytes.
    package static let empty = ByteView(UnsafeBufferPointer(start: nil, count: 0))

    package var count: Int { base.count }
    package var isEmpty: Bool { base.isEmpty }
    package var indices: Range<Int> { 0..<base.count }

    @inline(__always)
    package subscript(i: Int) -> UInt8 {
        precondition(i >= 0 && i < base.count, "ByteView index out of range")
        return base[i]
    }

    /// The first byte, if any.
    package var first: UInt8? { base.first }

    /// The little-endian integer of `T`'s width at `offset` (which need not be aligned).
    @inline(__always)
    package func integer<T: FixedWidthInteger>(at offset: Int, as _: T.Type = T.self) -> T {
        precondition(
            offset >= 0 && offset <= base.count - MemoryLayout<T>.size,
            "ByteView integer out of range")
        return T(
            littleEndian: UnsafeRawPointer(base.baseAddress!).loadUnaligned(
                fromByteOffset: offset, as: T.self))
    }

    /// The last byte, if any.
    package var last: UInt8? { base.last }

    /// The bytes in `range`, as a view of their own (indexed from 0).
    @inline(__always)
    package subscript(range: Range<Int>) -> ByteView {
        precondition(
            range.lowerBound >= 0 && range.upperBound <= base.count, "ByteView range out of bounds")
        return ByteView(UnsafeBufferPointer(rebasing: base[range]))
    }

    /// The bytes from `start` to the end.
    package subscript(range: PartialRangeFrom<Int>) -> ByteView {
        self[range.lowerBound..<base.count]
    }

    /// The bytes as UTF-8 text (invalid sequences become U+FFFD).
    package var string: String { String(decoding: base, as: UTF8.self) }

    /// A copy of the bytes.
    package var array: [UInt8] { Array(base) }

    /// Appends the bytes to `out`.
    @inline(__always)
    package func append(to out: inout [UInt8]) { out.append(contentsOf: base) }

    /// Whether any byte is in `set`: a table lookup per byte, where a predicate is a call.
    package func contains(anyOf set: ByteSet) -> Bool {
        for b in base where set.contains(b) { return true }
        return false
    }

    /// Whether any byte satisfies `predicate`.
    package func contains(where predicate: (UInt8) -> Bool) -> Bool {
        base.contains(where: predicate)
    }

    /// The text of the bytes when they are valid UTF-8, else nil. ASCII (nearly every field
    /// of real exports) is checked eight bytes at a time and needs no further validation.
    @inline(__always)
    package var validatedString: String? {
        var i = 0
        let n = base.count
        if n == 0 { return "" }  // empty cells are common (no amount on most rows)
        // Every byte ORed together, a word at a time; the bytes after the last whole word
        // (and a field shorter than a word) are read as words that overlap.
        var high: UInt64 = 0
        let raw = UnsafeRawPointer(base.baseAddress!)
        if n >= 8 {
            while i + 8 <= n {
                high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            if i < n { high |= raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) }
        } else if n >= 4 {
            high = UInt64(
                raw.loadUnaligned(as: UInt32.self)
                    | raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
        } else {
            for b in base { high |= UInt64(b) }
        }
        if high & 0x8080_8080_8080_8080 == 0 {
            return String(unsafeUninitializedCapacity: n) { $0.initialize(fromContentsOf: base) }
        }
        return String(validating: base, as: UTF8.self)
    }

    /// Whether any byte equals `byte`.
    package func contains(_ byte: UInt8) -> Bool { firstIndex(of: byte, from: 0) != nil }

    /// The first index at or after `from` whose byte is `byte`.
    package func firstIndex(of byte: UInt8, from: Int) -> Int? {
        firstIndex(of: byte, from: from, before: base.count)
    }

    /// The first index at or after `from` and before `end` whose byte is `byte`.
    package func firstIndex(of byte: UInt8, from: Int, before end: Int) -> Int? {
        guard from < end, end <= base.count, let start = base.baseAddress else { return nil }
        guard let found = memchr(start + from, Int32(byte), end - from) else { return nil }
        return start.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The index of the first byte at or after `from` equal to `a`, `b` or `c` (or, with
    /// `orNonASCII`, of 0x80 and above); `count` when there is none. Eight bytes at a time:
    /// the scans for the end of a CSV field (delimiter, LF, CR; a byte that is not ASCII
    /// sends the record to the reader that checks UTF-8) and inside quotes (quote, LF, CR)
    /// run over every byte of the input, twice (cutting blocks, then splitting fields).
    @inline(__always)
    package func firstIndex(
        of a: UInt8, _ b: UInt8, _ c: UInt8, orNonASCII: Bool = false, from: Int
    ) -> Int {
        let pa = Self.ones &* UInt64(a)
        let pb = Self.ones &* UInt64(b)
        let pc = Self.ones &* UInt64(c)
        // A byte's own high bit marks it exactly, so the lowest flag stays exact.
        let high: UInt64 = orNonASCII ? 0x8080_8080_8080_8080 : 0
        return firstIndex(from: from) { x in
            Self.zeroBytes(x ^ pa) | Self.zeroBytes(x ^ pb) | Self.zeroBytes(x ^ pc) | (x & high)
        } matching: {
            (orNonASCII && $0 >= 0x80) || $0 == a || $0 == b || $0 == c
        }
    }

    /// The index of the first byte at or after `from` that is a control character (below
    /// 0x20) or equals `a` or `b` (or, with `orNonASCII`, is 0x80 or above); `count` when
    /// there is none. Eight bytes at a time: where a plain JSON string ends (its quote),
    /// whether it is plain (no backslash or control before it) and whether its UTF-8 needs
    /// checking, in one pass over it.
    @inline(__always)
    package func firstIndex(
        ofControlOr a: UInt8, _ b: UInt8, orNonASCII: Bool = false, from: Int
    ) -> Int {
        let pa = Self.ones &* UInt64(a)
        let pb = Self.ones &* UInt64(b)
        let high: UInt64 = orNonASCII ? 0x8080_8080_8080_8080 : 0
        // As for equal bytes, the lowest byte flagged below 0x20 is exact: a borrow only
        // comes from a flagged byte beneath it; a byte's own high bit marks it exactly.
        return firstIndex(from: from) { x in
            Self.zeroBytes(x ^ pa) | Self.zeroBytes(x ^ pb) | (x &- Self.ones &* 0x20) & ~x
                | (x & high)
        } matching: {
            $0 < 0x20 || (orNonASCII && $0 >= 0x80) || $0 == a || $0 == b
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The high bit of each byte of `x` may be set where that byte is zero; the lowest set
    /// is exact (borrows only flag bytes above a real zero), so the lowest over several such
    /// tests is the first match of any.
    @inline(__always)
    private static func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x }

    /// The first index at or after `from` whose word `flags` marks (the high bit of the
    /// byte, the lowest marked exact) or, past the last whole word, whose byte `matches`.
    @inline(__always)
    private func firstIndex(from: Int, flags: (UInt64) -> UInt64, matching matches: (UInt8) -> Bool)
        -> Int
    {
        let n = base.count
        var i = from
        if let start = base.baseAddress {
            let raw = UnsafeRawPointer(start)
            while i + 8 <= n {
                let found =
                    flags(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    & 0x8080_8080_8080_8080
                if found != 0 { return i + found.trailingZeroBitCount / 8 }
                i += 8
            }
        }
        while i < n {
            if matches(base[i]) { return i }
            i += 1
        }
        return n
    }

    /// Copies the bytes to `target` and returns true, unless one is a control character (below
    /// 0x20) or equals `a`, `b` or `c`: then it returns false, having copied some of them.
    /// Eight bytes at a time, tested and copied in one pass (every string a JSON writer writes
    /// goes through it): a word-wise test that may say yes wrongly, never no wrongly, then
    /// byte by byte from the first word it flags. The bytes after the last whole word are
    /// tested and copied as the word that ends the view.
    @inline(__always)
    package func copy(
        into target: UnsafeMutableRawPointer, unlessControlOr a: UInt8, _ b: UInt8, _ c: UInt8
    ) -> Bool {
        let n = base.count
        var i = 0
        if let start = base.baseAddress {
            let raw = UnsafeRawPointer(start)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let pa = ones &* UInt64(a)
            let pb = ones &* UInt64(b)
            let pc = ones &* UInt64(c)
            func mayContain(_ x: UInt64) -> Bool {
                let xa = x ^ pa
                let xb = x ^ pb
                let xc = x ^ pc
                let zeros = (xa &- ones) & ~xa | (xb &- ones) & ~xb | (xc &- ones) & ~xc
                let control = (x &- ones &* 0x20) & ~x
                return (zeros | control) & 0x8080_8080_8080_8080 != 0
            }
            while i + 8 <= n {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if mayContain(word) { break }
                target.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
                i += 8
            }
            if i == n { return true }
            if i + 8 > n, n >= 8 {
                let word = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                if !mayContain(word) {
                    target.storeBytes(of: word, toByteOffset: n - 8, as: UInt64.self)
                    return true
                }
            }
        }
        while i < n {
            let byte = base[i]
            if byte < 0x20 || byte == a || byte == b || byte == c { return false }
            target.storeBytes(of: byte, toByteOffset: i, as: UInt8.self)
            i += 1
        }
        return true
    }

    /// Whether the bytes start with `prefix`.
    package func hasPrefix(_ prefix: [UInt8]) -> Bool {
        prefix.withByteView { hasPrefix($0) }
    }

    /// Whether the bytes start with those of `prefix`.
    package func hasPrefix(_ prefix: ByteView) -> Bool {
        guard prefix.count <= base.count else { return false }
        guard let start = base.baseAddress, let other = prefix.base.baseAddress, prefix.count > 0
        else { return true }
        return memcmp(other, start, prefix.count) == 0
    }

    /// The last index whose byte is `byte`.
    package func lastIndex(of byte: UInt8) -> Int? { base.lastIndex(of: byte) }

    /// Whether the bytes equal `text` (a literal).
    package func equals(_ text: StaticString) -> Bool {
        guard text.utf8CodeUnitCount == base.count else { return false }
        guard let start = base.baseAddress, base.count > 0 else { return true }
        return memcmp(text.utf8Start, start, base.count) == 0
    }

    /// The 8 bytes at `offset` as a little-endian word (`offset + 8 <= count`).
    @inline(__always)
    package func word(at offset: Int) -> UInt64 {
        precondition(offset >= 0 && offset + 8 <= base.count, "ByteView word out of bounds")
        return UInt64(
            littleEndian: UnsafeRawPointer(base.baseAddress!).loadUnaligned(
                fromByteOffset: offset, as: UInt64.self))
    }

    /// Whether every byte is ASCII (below 0x80), eight at a time.
    package var isASCII: Bool {
        var i = 0
        var seen: UInt64 = 0
        while i + 8 <= base.count {
            seen |= word(at: i)
            i += 8
        }
        while i < base.count {
            seen |= UInt64(base[i])
            i += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    /// Whether every byte is printable ASCII (a space to `~`) or a tab: text a person can be
    /// shown as it is.
    package var isPrintableASCII: Bool {
        for b in base where b > 0x7E || (b < 0x20 && b != 0x09) { return false }
        return true
    }

    /// Copies the bytes into `target` (at least `count` bytes of room).
    package func copy(into target: UnsafeMutableRawPointer) {
        if let start = base.baseAddress { target.copyMemory(from: start, byteCount: base.count) }
    }
}

extension [UInt8] {
    /// Appends `text`'s UTF-8 bytes in one copy (`append(contentsOf: text.utf8)` copies a
    /// byte at a time).
    @inline(__always)
    package mutating func append(utf8 text: String) {
        text.withByteView { $0.append(to: &self) }
    }

    /// Appends a literal's UTF-8 bytes: a copy from where the program holds them, with none
    /// of a string's checks.
    @inline(__always)
    package mutating func append(literal: StaticString) {
        append(
            contentsOf: UnsafeBufferPointer(
                start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}

extension String {
    /// Lends the string's UTF-8 bytes to `body`: in place for a native string (a short one,
    /// stored inline, is lent from the stack); a string with no contiguous UTF-8 (one bridged
    /// from a foreign representation) is first made native.
    @inline(__always)
    package func withByteView<R>(_ body: (ByteView) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable({ body(ByteView($0)) }) {
            return result
        }
        var copy = self
        return copy.withUTF8 { body(ByteView($0)) }
    }

    /// Lends the string's UTF-8 bytes to `body`, which may throw.
    @inline(__always)
    package func withThrowingByteView<R, E: Error>(_ body: (ByteView) throws(E) -> R) throws(E) -> R
    {
        try withByteView { view in Result { () throws(E) in try body(view) } }.get()
    }
}

extension Array where Element == UInt8 {
    /// Lends the array's bytes to `body`.
    @inline(__always)
    package func withByteView<R>(_ body: (ByteView) -> R) -> R {
        withUnsafeBufferPointer { body(ByteView($0)) }
    }

    /// Lends the array's bytes to `body`, which may throw.
    @inline(__always)
    package func withThrowingByteView<R, E: Error>(_ body: (ByteView) throws(E) -> R) throws(E) -> R
    {
        try withUnsafeBufferPointer { p in Result { () throws(E) in try body(ByteView(p)) } }.get()
    }
}

extension ArraySlice where Element == UInt8 {
    /// Lends the slice's bytes to `body` (indexed from 0).
    @inline(__always)
    package func withByteView<R>(_ body: (ByteView) -> R) -> R {
        withUnsafeBufferPointer { body(ByteView($0)) }
    }
}

extension StaticString {
    /// Lends the literal's UTF-8 bytes to `body`.
    package func withByteView<R>(_ body: (ByteView) -> R) -> R {
        body(ByteView(UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount)))
    }
}

/// A set of byte values, as four 64-bit words, for scanning text for any of them.
package struct ByteSet: Sendable {
    private var low: (UInt64, UInt64) = (0, 0)
    private var high: (UInt64, UInt64) = (0, 0)

    package init(_ bytes: some Sequence<UInt8>) {
        for b in bytes {
            let bit = UInt64(1) << UInt64(b & 63)
            switch b >> 6 {
            case 0: low.0 |= bit
            case 1: low.1 |= bit
            case 2: high.0 |= bit
            default: high.1 |= bit
            }
        }
    }

    @inline(__always)
    package func contains(_ b: UInt8) -> Bool {
        let word: UInt64
        switch b >> 6 {
        case 0: word = low.0
        case 1: word = low.1
        case 2: word = high.0
        default: word = high.1
        }
        return word & (UInt64(1) << UInt64(b & 63)) != 0
    }
}
