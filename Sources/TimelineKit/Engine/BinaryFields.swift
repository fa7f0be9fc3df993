/// The fields of the binary records the tool spills to its temporary files (sorted runs,
/// validation partitions): integers little endian, byte strings as a 4-byte length and the
/// bytes, optionals behind a 0/1 byte, lists behind their count. The records are private
/// to one run of the tool and never leave its temporary directory, so they have no version.
/// Integers and byte strings so written are also Parquet's PLAIN values, and `varint` the
/// unsigned LEB128 that Thrift, Parquet's levels and Snappy use.
enum BinaryWriter {
    /// Appends in place: the caller's buffer is never copied.
    static func int(_ v: Int64, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    static func u32(_ v: UInt32, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    /// `v` in seven-bit groups, lowest first, the high bit set on all but the last.
    static func varint(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func bytes(_ b: ByteView, _ out: inout [UInt8]) {
        u32(UInt32(b.count), &out)
        b.append(to: &out)
    }

    static func string(_ s: String, _ out: inout [UInt8]) {
        s.withByteView { bytes($0, &out) }
    }

    /// An event's id as a byte string.
    static func identity(_ id: EventIdentity, _ out: inout [UInt8]) {
        guard case .generated = id else { return string(id.text, &out) }
        FixedWriter.appending(to: &out, capacity: id.utf8CountBound + 4) { $0.binaryString(id) }
    }

    /// A time value's source text as a byte string: one kept by its form written from the
    /// value, without making its string.
    static func raw(of value: TimeValue, _ out: inout [UInt8]) {
        guard let form = value.rawForm else { return string(value.rawText ?? "", &out) }
        FixedWriter.appending(to: &out, capacity: TimeValue.renderingBound + 4) { w in
            let lengthAt = w.count
            w.integer(UInt32(0))  // the length, filled in below
            value.write(form, to: &w)
            w.set(UInt32(w.count - lengthAt - 4), at: lengthAt)
        }
    }

    static func strings(_ list: [String], _ out: inout [UInt8]) {
        int(Int64(list.count), &out)
        for s in list { string(s, &out) }
    }

    static func optional<T>(_ value: T?, _ out: inout [UInt8], _ body: (T, inout [UInt8]) -> Void) {
        guard let value else { return out.append(0) }
        out.append(1)
        body(value, &out)
    }

    /// Reserves a record's 4-byte length; `endRecord` fills it in.
    static func beginRecord(_ out: inout [UInt8]) -> Int {
        out.append(contentsOf: repeatElement(0, count: 4))
        return out.count - 4
    }

    /// Writes the length of the record begun at `lengthAt` (the bytes after the field).
    static func endRecord(at lengthAt: Int, _ out: inout [UInt8]) {
        let length = UInt32(out.count - lengthAt - 4)
        for i in 0..<4 { out[lengthAt + i] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(i))) }
    }
}

/// Reads the fields `BinaryWriter` wrote, checking every length against the bytes there.
struct BinaryReader {
    struct Corrupt: Error, Sendable {}

    let bytes: [UInt8]
    var at: Int

    mutating func byte() throws(Corrupt) -> UInt8 {
        guard at < bytes.count else { throw Corrupt() }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func u32() throws(Corrupt) -> UInt32 {
        guard at + 4 <= bytes.count else { throw Corrupt() }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[at + i]) << (8 * UInt32(i)) }
        at += 4
        return v
    }

    mutating func int() throws(Corrupt) -> Int64 {
        guard at + 8 <= bytes.count else { throw Corrupt() }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
        at += 8
        return Int64(bitPattern: v)
    }

    /// Where a byte string lies in `bytes`.
    mutating func bytesRange() throws(Corrupt) -> Range<Int> {
        let n = Int(try u32())
        guard n <= bytes.count - at else { throw Corrupt() }
        defer { at += n }
        return at..<(at + n)
    }

    mutating func string() throws(Corrupt) -> String {
        let range = try bytesRange()
        return bytes.withByteView { $0[range].string }
    }

    /// The next string, as `reused` when it has the same bytes (a file name every event of
    /// a file repeats is then one string, not one per event).
    mutating func string(reusing reused: String?) throws(Corrupt) -> String {
        let range = try bytesRange()
        return bytes.withByteView { view in
            let text = view[range]
            if let reused, reused.withByteView({ $0.count == text.count && $0.hasPrefix(text) }) {
                return reused
            }
            return text.string
        }
    }

    mutating func strings() throws(Corrupt) -> [String] {
        let n = Int(try int())
        guard n >= 0, n <= bytes.count - at else { throw Corrupt() }
        var list: [String] = []
        list.reserveCapacity(n)
        for _ in 0..<n { list.append(try string()) }
        return list
    }

    mutating func optional<T>(_ body: (inout BinaryReader) throws(Corrupt) -> T) throws(Corrupt)
        -> T?
    {
        switch try byte() {
        case 0: return nil
        case 1: return try body(&self)
        default: throw Corrupt()
        }
    }
}

extension FixedWriter {
    /// An event's id as `BinaryWriter` writes a byte string (its 4-byte length, then its
    /// UTF-8): a generated one from its prefix and record number, without making its string.
    mutating func binaryString(_ identity: EventIdentity) {
        switch identity {
        case .given(let text):
            text.withByteView { view in
                integer(UInt32(view.count))
                bytes(view)
            }
        case .generated(let prefix, let record):
            prefix.withByteView { view in
                integer(UInt32(view.count + FixedWriter.decimalLength(of: record)))
                bytes(view)
            }
            digits(record, width: 1)
        }
    }
}
