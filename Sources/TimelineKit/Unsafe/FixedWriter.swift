/// Writes bytes into room sized beforehand (on the stack, or at the end of the array that
/// receives them), so that formatting a value costs no allocation and lands in its
/// destination with one append. Every write checks that it fits: a size computed too small
/// traps, it never writes past its room. Digit widths assume non-negative values (years
/// 1…9999 for `four`). Made only by the functions here, for the length of one call, in memory
/// they own or are lent (`writing`).
struct FixedWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Lets `body` write at most `capacity` bytes into temporary room (on the stack up to
    /// 1 KiB) and appends what it wrote to `out`.
    @inline(__always)
    static func appending(to out: inout [UInt8], capacity: Int, _ body: (inout FixedWriter) -> Void)
    {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var w = FixedWriter(buffer)
            body(&w)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<w.count]))
        }
    }

    /// Lets `body` write at most `capacity` bytes straight into `out`: room is added at its
    /// end (copied from a block of zeros, which is cheaper than any allocation) and what
    /// `body` did not use is removed again. Beyond 64 KiB it writes through temporary room.
    /// `value` is passed to `body` rather than captured by it, which would copy it.
    @inline(__always)
    static func appendingInPlace<Value>(
        _ value: Value, to out: inout [UInt8], capacity: Int,
        _ body: (Value, inout FixedWriter) -> Void
    ) {
        guard capacity <= zeros.count else {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                var w = FixedWriter(buffer)
                body(value, &w)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<w.count]))
            }
        }
        let start = out.count
        zeros.withUnsafeBufferPointer {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<capacity]))
        }
        let written = out.withUnsafeMutableBufferPointer { all in
            writing(value, into: UnsafeMutableBufferPointer(rebasing: all[start...]), body)
        }
        out.removeLast(capacity - written)
    }

    /// Lets `body` write into `room`, which it must not outlive, and returns how many bytes it
    /// wrote (`EncodedBytes`).
    @inline(__always)
    static func writing<Value>(
        _ value: Value, into room: UnsafeMutableBufferPointer<UInt8>,
        _ body: (Value, inout FixedWriter) -> Void
    ) -> Int {
        var w = FixedWriter(room)
        body(value, &w)
        return w.count
    }

    /// Room for `appendingInPlace`.
    private static let zeros = [UInt8](repeating: 0, count: 1 << 16)

    /// A string of the at most `capacity` bytes (valid UTF-8) that `body` writes.
    @inline(__always)
    static func string(capacity: Int, _ body: (inout FixedWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var w = FixedWriter(buffer)
            body(&w)
            return w.count
        }
    }

    /// `head` followed by `number` in decimal, as one string of exactly that length (so a
    /// short one stays a small, inline string), written straight into the string's storage:
    /// a generated id's text (`EventIdentity.text`).
    static func string(_ head: ByteView, followedBy number: Int) -> String {
        string(capacity: head.count + decimalLength(of: number)) { w in
            w.bytes(head)
            w.digits(number, width: 1)
        }
    }

    /// The number of bytes `number` takes in decimal, its sign included.
    static func decimalLength(of number: Int) -> Int {
        (number < 0 ? 1 : 0) + digitCount(number.magnitude)
    }

    /// Exactly `length` bytes at the end of the writer, after one check for room: indexes
    /// `0..<length` (checked in debug builds only, the room as a whole was checked).
    struct Room {
        fileprivate let start: UnsafeMutablePointer<UInt8>
        let length: Int

        @inline(__always)
        subscript(i: Int) -> UInt8 {
            get {
                assert(i >= 0 && i < length, "FixedWriter.Room index out of range")
                return start[i]
            }
            nonmutating set {
                assert(i >= 0 && i < length, "FixedWriter.Room index out of range")
                start[i] = newValue
            }
        }

        /// Copies `bytes` to `i…`.
        @inline(__always)
        func copy(_ bytes: ByteView, to i: Int) {
            assert(i >= 0 && i + bytes.count <= length, "FixedWriter.Room range out of range")
            bytes.copy(into: start + i)
        }
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        precondition(count < buffer.count, "FixedWriter: buffer too small")
        buffer[count] = b
        count += 1
    }

    /// Lets `body` write exactly `length` bytes at the end, after one check for room.
    @inline(__always)
    mutating func withRoom(for length: Int, _ body: (Room) -> Void) {
        precondition(length >= 0 && count + length <= buffer.count, "FixedWriter: buffer too small")
        body(Room(start: buffer.baseAddress! + count, length: length))
        count += length
    }

    /// Writes `v` little endian over the four bytes written at `offset`: a length, known only
    /// once what it measures is written.
    mutating func set(_ v: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= count, "FixedWriter: not written yet")
        UnsafeMutableRawPointer(buffer.baseAddress! + offset).storeBytes(
            of: v.littleEndian, as: UInt32.self)
    }

    /// Writes `b` over the byte written at `offset`.
    mutating func set(_ b: UInt8, at offset: Int) {
        precondition(offset >= 0 && offset < count, "FixedWriter: not written yet")
        buffer[offset] = b
    }

    /// Writes again the bytes written at `range`.
    mutating func repeatWritten(_ range: Range<Int>) {
        precondition(
            range.lowerBound >= 0 && range.upperBound <= count, "FixedWriter: not written yet")
        let source = UnsafePointer(buffer.baseAddress! + range.lowerBound)
        withRoom(for: range.count) { $0.start.initialize(from: source, count: range.count) }
    }

    /// `v`'s bytes, little endian.
    @inline(__always)
    mutating func integer<T: FixedWidthInteger>(_ v: T) {
        withRoom(for: MemoryLayout<T>.size) { room in
            UnsafeMutableRawPointer(room.start).storeBytes(of: v.littleEndian, as: T.self)
        }
    }

    @inline(__always)
    mutating func two(_ v: Int) {
        withRoom(for: 2) { Self.pair(UInt(truncatingIfNeeded: v) % 100, at: $0.start) }
    }

    @inline(__always)
    mutating func four(_ v: Int) {
        two(v / 100)
        two(v % 100)
    }

    @inline(__always)
    mutating func text(_ s: StaticString) {
        s.withByteView { bytes($0) }
    }

    @inline(__always)
    mutating func bytes(_ view: ByteView) {
        withRoom(for: view.count) { $0.copy(view, to: 0) }
    }

    /// `value` in decimal, left-padded with zeros to `width` digits — as `appendDigits`.
    mutating func digits(_ value: Int, width: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var v = value.magnitude
        let length = Self.digitCount(v)
        if width > length { for _ in 0..<(width - length) { byte(0x30) } }
        withRoom(for: length) { room in
            // Two digits at a time, from the last.
            var end = room.start + length
            while v >= 100 {
                end -= 2
                Self.pair(v % 100, at: end)
                v /= 100
            }
            if v >= 10 {
                Self.pair(v, at: end - 2)
            } else {
                end[-1] = 0x30 &+ UInt8(truncatingIfNeeded: v)
            }
        }
    }

    /// The number of decimal digits of `v`.
    @inline(__always)
    private static func digitCount(_ v: UInt) -> Int {
        var length = 1
        var power: UInt = 10
        while length < 20 && power <= v {
            length += 1
            power = power &* 10
        }
        return length
    }

    /// Writes `v` (0…99) as two digits at `target`.
    @inline(__always)
    private static func pair(_ v: UInt, at target: UnsafeMutablePointer<UInt8>) {
        let digits = pairs.utf8Start + Int(truncatingIfNeeded: v) &* 2
        target[0] = digits[0]
        target[1] = digits[1]
    }

    private static let pairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
}

// JSON strings: written here, with the raw bytes of the text, because every string of
// every event passes through them.
extension FixedWriter {
    /// The most bytes `jsonString(s)` can write: every byte escaped as `\u00XX`, plus quotes.
    static func jsonStringBound(_ s: String) -> Int { s.utf8.count * 6 + 2 }

    /// `s` as a JSON string: quoted; `"` and `\` escaped with a backslash; LF, CR, tab as `\n`
    /// `\r` `\t`; other control characters and DEL as `\u00xx`; everything else (UTF-8 too) as is.
    mutating func jsonString(_ s: String) {
        // Not `withByteView`, whose generic result keeps this closure from being inlined
        // (a sixth of the cost of writing an event, measured).
        let clean = s.utf8.withContiguousStorageIfAvailable { bytes in
            quotedIfClean(ByteView(lending: bytes))
        }
        guard clean != true else { return }
        byte(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22:
                byte(0x5C)
                byte(0x22)
            case 0x5C:
                byte(0x5C)
                byte(0x5C)
            case 0x0A:
                byte(0x5C)
                byte(UInt8(ascii: "n"))
            case 0x0D:
                byte(0x5C)
                byte(UInt8(ascii: "r"))
            case 0x09:
                byte(0x5C)
                byte(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                byte(0x5C)
                byte(UInt8(ascii: "u"))
                byte(0x30)
                byte(0x30)
                byte(Self.hexDigit(b >> 4))
                byte(Self.hexDigit(b & 0xF))
            default: byte(b)
            }
        }
        byte(0x22)
    }

    /// `head` followed by `number` in decimal, as one JSON string (at most
    /// `jsonStringBound(head) + 20` bytes), without making that string: the digits need no
    /// escaping, so they go where `head`'s closing quote was.
    mutating func jsonString(_ head: String, followedBy number: Int) {
        jsonString(head)
        count -= 1
        digits(number, width: 1)
        byte(0x22)
    }

    /// Writes `text` between double quotes and returns true when no byte of it needs
    /// escaping (a control character, `"`, `\\` or DEL); else returns false, and what it
    /// wrote past the end is not counted.
    @inline(__always)
    mutating func quotedIfClean(_ text: ByteView) -> Bool {
        let n = text.count
        precondition(count + n + 2 <= buffer.count, "FixedWriter: buffer too small")
        let start = buffer.baseAddress! + count
        guard text.copy(into: start + 1, unlessControlOr: 0x22, 0x5C, 0x7F) else { return false }
        start[0] = 0x22
        start[n + 1] = 0x22
        count += n + 2
        return true
    }

    /// The lowercase hexadecimal digit of `nibble` (0…15).
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x57 + nibble
    }
}
