/// Events as compact binary records, for the sorted runs an external sort spills to disk
/// (`ExternalSorter`). Every field round-trips exactly (the decoded event equals the encoded
/// one); the format is private to one run of the tool and never leaves its temporary
/// directory, so it has no version.
///
/// A record: its length (4 bytes), then the fields in declaration order — integers little
/// endian, strings as a 4-byte length and UTF-8, optionals behind a 0/1 byte, lists and
/// attributes behind their count.
enum EventRunCodec {
    struct Corrupt: Error, Sendable {}

    static func append(_ e: Event, to out: inout [UInt8]) {
        let lengthAt = out.count
        out += [0, 0, 0, 0]
        Writer.string(e.id, &out)
        Writer.time(e.start, &out)
        Writer.optional(e.end, &out, Writer.time)
        Writer.string(e.title, &out)
        Writer.optional(e.detail, &out, Writer.string)
        Writer.optional(e.status?.rawValue, &out, Writer.string)
        Writer.optional(e.category, &out, Writer.string)
        Writer.optional(e.amount, &out) { a, out in
            Writer.int(Int64(truncatingIfNeeded: a.value.coefficient), &out)
            Writer.int(Int64(truncatingIfNeeded: a.value.coefficient >> 64), &out)
            Writer.int(Int64(a.value.scale), &out)
            Writer.optional(a.currency, &out, Writer.string)
            out.append(a.neutral ? 1 : 0)
        }
        Writer.optional(e.location, &out, Writer.string)
        Writer.optional(e.series, &out, Writer.string)
        Writer.optional(e.recorded, &out, Writer.time)
        Writer.strings(e.links, &out)
        Writer.strings(e.tags, &out)
        Writer.int(Int64(e.attributes.count), &out)
        for (k, v) in e.attributes.sorted(by: { $0.key < $1.key }) {
            Writer.string(k, &out)
            Writer.string(v, &out)
        }
        Writer.optional(e.source, &out) { s, out in
            Writer.string(s.format, &out)
            Writer.string(s.file, &out)
            Writer.int(Int64(s.record), &out)
            Writer.optional(s.line.map(Int64.init), &out, Writer.int)
        }
        let length = UInt32(out.count - lengthAt - 4)
        for i in 0..<4 { out[lengthAt + i] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(i))) }
    }

    /// The record at `offset` in `bytes` (a whole record must be there), and the offset
    /// after it.
    static func decode(_ bytes: [UInt8], at offset: Int) throws(Corrupt) -> (event: Event, next: Int) {
        var r = Reader(bytes: bytes, at: offset)
        let length = Int(try r.u32())
        let end = r.at + length
        guard end <= bytes.count else { throw Corrupt() }
        var e = Event.blank
        e.id = try r.string()
        e.start = try r.time()
        e.end = try r.optional { r throws(Corrupt) in try r.time() }
        e.title = try r.string()
        e.detail = try r.optional { r throws(Corrupt) in try r.string() }
        e.status = try r.optional { r throws(Corrupt) in try r.string() }.map { s throws(Corrupt) in
            guard let status = EventStatus(rawValue: s) else { throw Corrupt() }
            return status
        }
        e.category = try r.optional { r throws(Corrupt) in try r.string() }
        e.amount = try r.optional { r throws(Corrupt) in
            let low = UInt64(bitPattern: try r.int())
            let high = try r.int()
            let coefficient = Int128(high) << 64 | Int128(low)
            let scale = Int(try r.int())
            let currency = try r.optional { r throws(Corrupt) in try r.string() }
            let neutral = try r.byte() == 1
            return Amount(value: DecimalNumber(coefficient: coefficient, scale: scale), currency: currency, neutral: neutral)
        }
        e.location = try r.optional { r throws(Corrupt) in try r.string() }
        e.series = try r.optional { r throws(Corrupt) in try r.string() }
        e.recorded = try r.optional { r throws(Corrupt) in try r.time() }
        e.links = try r.strings()
        e.tags = try r.strings()
        let count = Int(try r.int())
        guard count >= 0, count <= length else { throw Corrupt() }
        var attributes: [String: String] = [:]
        attributes.reserveCapacity(count)
        for _ in 0..<count { attributes[try r.string()] = try r.string() }
        e.attributes = attributes
        e.source = try r.optional { r throws(Corrupt) in
            let format = try r.string()
            let file = try r.string()
            let record = Int(try r.int())
            let line = try r.optional { r throws(Corrupt) in Int(try r.int()) }
            return SourceReference(format: format, file: file, record: record, line: line)
        }
        guard r.at == end else { throw Corrupt() }
        return (e, end)
    }

    /// Appends fields to a record (in place: the run's buffer is never copied).
    private enum Writer {
        static func int(_ v: Int64, _ out: inout [UInt8]) {
            withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
        }

        static func string(_ s: String, _ out: inout [UInt8]) {
            var s = s
            s.withUTF8 { bytes in
                withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { out.append(contentsOf: $0) }
                out.append(contentsOf: bytes)
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

        static func time(_ t: TimeValue, _ out: inout [UInt8]) {
            out.append(UInt8(TimeBasis.allCases.firstIndex(of: t.basis)!))
            switch t.moment {
            case .date(let d):
                int(d.daysSinceEpoch, &out)
            case .instant(let i, let o, let z):
                int(i.seconds, &out)
                int(Int64(i.nanoseconds), &out)
                int(Int64(o.seconds), &out)
                optional(z, &out, string)
                out.append(UInt8(t.fractionDigits))
            }
            optional(t.raw, &out, string)
        }
    }

    private struct Reader {
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

        mutating func string() throws(Corrupt) -> String {
            let n = Int(try u32())
            guard at + n <= bytes.count else { throw Corrupt() }
            defer { at += n }
            return String(decoding: bytes[at..<(at + n)], as: UTF8.self)
        }

        mutating func strings() throws(Corrupt) -> [String] {
            let n = Int(try int())
            guard n >= 0, n <= bytes.count - at else { throw Corrupt() }
            var list: [String] = []
            list.reserveCapacity(n)
            for _ in 0..<n { list.append(try string()) }
            return list
        }

        mutating func optional<T>(_ body: (inout Reader) throws(Corrupt) -> T) throws(Corrupt) -> T? {
            switch try byte() {
            case 0: return nil
            case 1: return try body(&self)
            default: throw Corrupt()
            }
        }

        mutating func time() throws(Corrupt) -> TimeValue {
            let b = Int(try byte())
            guard b < TimeBasis.allCases.count else { throw Corrupt() }
            let basis = TimeBasis.allCases[b]
            var value: TimeValue
            if basis == .date {
                value = TimeValue(date: CivilDate(daysSinceEpoch: try int()))
            } else {
                let seconds = try int()
                let nanoseconds = Int32(truncatingIfNeeded: try int())
                let offset = Int(try int())
                let zone = try optional { r throws(Corrupt) in try r.string() }
                let digits = Int(try byte())
                value = TimeValue(
                    instant: Instant(unchecked: seconds, nanoseconds: nanoseconds), offset: UTCOffset(seconds: offset), zone: zone, basis: basis,
                    fractionDigits: digits)
            }
            value.raw = try optional { r throws(Corrupt) in try r.string() }
            return value
        }
    }
}
