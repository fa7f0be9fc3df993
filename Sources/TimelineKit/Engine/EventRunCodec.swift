/// Events as compact binary records, for the sorted runs an external sort spills to disk
/// (`ExternalSorter`). Every field round-trips exactly (the decoded event equals the encoded
/// one); the format is private to one run of the tool and never leaves its temporary
/// directory, so it has no version.
///
/// A record: its length (4 bytes), then the fields in declaration order — integers little
/// endian, strings as a 4-byte length and UTF-8, optionals behind a 0/1 byte, lists and
/// attributes behind their count.
enum EventRunCodec {
    typealias Corrupt = BinaryReader.Corrupt

    /// The bases by their number in a record (`allCases` makes a new array each time).
    static let bases = TimeBasis.allCases

    static func append(_ e: Event, to out: inout [UInt8]) {
        let lengthAt = BinaryWriter.beginRecord(&out)
        BinaryWriter.string(e.id, &out)
        writeTime(e.start, &out)
        BinaryWriter.optional(e.end, &out, writeTime)
        BinaryWriter.string(e.title, &out)
        BinaryWriter.optional(e.detail, &out, BinaryWriter.string)
        BinaryWriter.optional(e.status?.rawValue, &out, BinaryWriter.string)
        BinaryWriter.optional(e.category, &out, BinaryWriter.string)
        BinaryWriter.optional(e.amount, &out) { a, out in
            BinaryWriter.int(Int64(truncatingIfNeeded: a.value.coefficient), &out)
            BinaryWriter.int(Int64(truncatingIfNeeded: a.value.coefficient >> 64), &out)
            BinaryWriter.int(Int64(a.value.scale), &out)
            BinaryWriter.optional(a.currency, &out, BinaryWriter.string)
            out.append(a.neutral ? 1 : 0)
        }
        BinaryWriter.optional(e.location, &out, BinaryWriter.string)
        BinaryWriter.optional(e.series, &out, BinaryWriter.string)
        BinaryWriter.optional(e.recorded, &out, writeTime)
        BinaryWriter.strings(e.links, &out)
        BinaryWriter.strings(e.tags, &out)
        BinaryWriter.int(Int64(e.attributes.count), &out)
        if !e.attributes.isEmpty {
            for (k, v) in e.attributes.sorted(by: { $0.key < $1.key }) {
                BinaryWriter.string(k, &out)
                BinaryWriter.string(v, &out)
            }
        }
        BinaryWriter.optional(e.source, &out) { s, out in
            BinaryWriter.string(s.format, &out)
            BinaryWriter.string(s.file, &out)
            BinaryWriter.int(Int64(s.record), &out)
            BinaryWriter.optional(s.line.map(Int64.init), &out, BinaryWriter.int)
        }
        BinaryWriter.endRecord(at: lengthAt, &out)
    }

    /// The record at `offset` in `bytes` (a whole record must be there), and the offset
    /// after it. `previous`, the source of the event decoded before it, lends the texts that
    /// repeat from event to event (its file and format).
    static func decode(_ bytes: [UInt8], at offset: Int, after previous: SourceReference? = nil)
        throws(Corrupt) -> (event: Event, next: Int)
    {
        var r = BinaryReader(bytes: bytes, at: offset)
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
            return Amount(
                value: DecimalNumber(coefficient: coefficient, scale: scale), currency: currency,
                neutral: neutral)
        }
        e.location = try r.optional { r throws(Corrupt) in try r.string() }
        e.series = try r.optional { r throws(Corrupt) in try r.string() }
        e.recorded = try r.optional { r throws(Corrupt) in try r.time() }
        e.links = try r.strings()
        e.tags = try r.strings()
        let count = Int(try r.int())
        guard count >= 0, count <= length else { throw Corrupt() }
        if count > 0 {
            var attributes: [String: String] = [:]
            attributes.reserveCapacity(count)
            for _ in 0..<count { attributes[try r.string()] = try r.string() }
            e.attributes = attributes
        }
        e.source = try r.optional { r throws(Corrupt) in
            let format = try r.string(reusing: previous?.format)
            let file = try r.string(reusing: previous?.file)
            let record = Int(try r.int())
            let line = try r.optional { r throws(Corrupt) in Int(try r.int()) }
            return SourceReference(format: format, file: file, record: record, line: line)
        }
        guard r.at == end else { throw Corrupt() }
        return (e, end)
    }

    /// A time value: its basis, then a date or an instant with its offset, zone and digits,
    /// then the text it was read from.
    private static func writeTime(_ t: TimeValue, _ out: inout [UInt8]) {
        out.append(UInt8(bases.firstIndex(of: t.basis)!))
        switch t.moment {
        case .date(let d):
            BinaryWriter.int(d.daysSinceEpoch, &out)
        case .instant(let i, let o, let z):
            BinaryWriter.int(i.seconds, &out)
            BinaryWriter.int(Int64(i.nanoseconds), &out)
            BinaryWriter.int(Int64(o.seconds), &out)
            BinaryWriter.optional(z, &out, BinaryWriter.string)
            out.append(UInt8(t.fractionDigits))
        }
        BinaryWriter.optional(t.raw, &out, BinaryWriter.string)
    }
}

extension BinaryReader {
    /// A time value as `EventRunCodec` writes it.
    mutating func time() throws(BinaryReader.Corrupt) -> TimeValue {
        let b = Int(try byte())
        guard b < EventRunCodec.bases.count else { throw BinaryReader.Corrupt() }
        let basis = EventRunCodec.bases[b]
        var value: TimeValue
        if basis == .date {
            value = TimeValue(date: CivilDate(daysSinceEpoch: try int()))
        } else {
            let seconds = try int()
            let nanoseconds = Int32(truncatingIfNeeded: try int())
            let offset = Int(try int())
            let zone = try optional { r throws(BinaryReader.Corrupt) in try r.string() }
            let digits = Int(try byte())
            value = TimeValue(
                instant: Instant(unchecked: seconds, nanoseconds: nanoseconds),
                offset: UTCOffset(seconds: offset), zone: zone, basis: basis,
                fractionDigits: digits)
        }
        value.raw = try optional { r throws(BinaryReader.Corrupt) in try r.string() }
        return value
    }
}
