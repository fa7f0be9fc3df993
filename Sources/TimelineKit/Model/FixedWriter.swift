/// Writes bytes into a buffer the caller sized beforehand (usually on the stack), so that
/// formatting a value costs no allocation and lands in its destination with one append.
/// Every write checks that it fits: a size computed too small traps, it never writes past
/// the buffer. Digit widths assume non-negative values (years 1…9999 for `four`).
struct FixedWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// The bytes written so far.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[0..<count]) }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        precondition(count < buffer.count, "FixedWriter: buffer too small")
        buffer[count] = b
        count += 1
    }

    /// Lets `body` write exactly `length` bytes at the end, after one check for room.
    @inline(__always)
    mutating func withRoom(for length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        precondition(length >= 0 && count + length <= buffer.count, "FixedWriter: buffer too small")
        body(buffer.baseAddress! + count)
        count += length
    }

    @inline(__always)
    mutating func two(_ v: Int) {
        byte(0x30 &+ UInt8(truncatingIfNeeded: v / 10 % 10))
        byte(0x30 &+ UInt8(truncatingIfNeeded: v % 10))
    }

    @inline(__always)
    mutating func four(_ v: Int) {
        two(v / 100)
        two(v % 100)
    }

    @inline(__always)
    mutating func text(_ s: StaticString) {
        bytes(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func bytes(_ p: UnsafeRawBufferPointer) {
        precondition(count + p.count <= buffer.count, "FixedWriter: buffer too small")
        if let source = p.baseAddress, p.count > 0 {
            UnsafeMutableRawPointer(buffer.baseAddress! + count).copyMemory(from: source, byteCount: p.count)
        }
        count += p.count
    }

    /// `p` between double quotes (text that needs no escaping), after one check for room.
    @inline(__always)
    mutating func quoted(_ p: UnsafeRawBufferPointer) {
        withRoom(for: p.count + 2) { out in
            out[0] = 0x22
            if let source = p.baseAddress, p.count > 0 {
                UnsafeMutableRawPointer(out + 1).copyMemory(from: source, byteCount: p.count)
            }
            out[p.count + 1] = 0x22
        }
    }

    /// `value` in decimal, left-padded with zeros to `width` digits — as `appendDigits`.
    mutating func digits(_ value: Int, width: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var v = value.magnitude
        var length = 1
        var power: UInt = 10
        while length < 20 && power <= v {
            length += 1
            power = power &* 10
        }
        if width > length { for _ in 0..<(width - length) { byte(0x30) } }
        precondition(count + length <= buffer.count, "FixedWriter: buffer too small")
        var i = count + length
        repeat {
            i -= 1
            buffer[i] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        } while v > 0
        count += length
    }
}
