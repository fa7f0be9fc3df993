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
        FixedWriter.appendingInPlace(e, to: &out, capacity: maximumLength(e)) { write($0, to: &$1) }
    }

    static func append(_ e: Event, to out: inout EncodedBytes) {
        out.write(e, capacity: maximumLength(e)) { write($0, to: &$1) }
    }

    /// Written in place into room sized from the texts (`maximumLength`): one capacity check
    /// per record.
    private static func write(_ e: Event, to w: inout FixedWriter) {
        let lengthAt = w.count
        w.integer(UInt32(0))  // the length, filled in below
        w.binaryString(e.identity)
        w.field(e.start)
        w.optional(e.end) { w, t in w.field(t) }
        w.field(e.title)
        w.optional(e.detail) { w, s in w.field(s) }
        w.optional(e.status?.rawValue) { w, s in w.field(s) }
        w.optional(e.category) { w, s in w.field(s) }
        w.optional(e.amount) { w, a in
            w.integer(Int64(truncatingIfNeeded: a.value.coefficient))
            w.integer(Int64(truncatingIfNeeded: a.value.coefficient >> 64))
            w.integer(Int64(a.value.scale))
            w.optional(a.currency) { w, s in w.field(s) }
            w.byte(a.neutral ? 1 : 0)
        }
        w.optional(e.location) { w, s in w.field(s) }
        w.optional(e.series) { w, s in w.field(s) }
        w.optional(e.recorded) { w, t in w.field(t) }
        w.fields(e.links)
        w.fields(e.tags)
        w.integer(Int64(e.attributes.count))
        if !e.attributes.isEmpty {
            for (k, v) in e.attributes.sorted(by: { $0.key < $1.key }) {
                w.field(k)
                w.field(v)
            }
        }
        w.optional(e.source) { w, s in
            w.field(s.format)
            w.field(s.file)
            w.integer(Int64(s.record))
            w.optional(s.line) { w, line in w.integer(Int64(line)) }
        }
        w.set(UInt32(w.count - lengthAt - 4), at: lengthAt)
    }

    /// At least the bytes `append` writes for `e`: its texts, each with its 4-byte length,
    /// and room for every number and flag (a time value takes at most 36 bytes besides its
    /// texts, an amount 31, the source 26).
    static func maximumLength(_ e: Event) -> Int {
        func text(_ s: String?) -> Int { s?.utf8.count ?? 0 }
        func time(_ t: TimeValue?) -> Int { (t?.rawLengthBound ?? 0) + text(t?.zone) }
        var n = 256 + e.identity.utf8CountBound + text(e.title) + text(e.detail) + text(e.category)
        n += text(e.status?.rawValue) + text(e.amount?.currency) + text(e.location) + text(e.series)
        n += time(e.start) + time(e.end) + time(e.recorded)
        n += text(e.source?.format) + text(e.source?.file)
        for s in e.links { n += 4 + s.utf8.count }
        for s in e.tags { n += 4 + s.utf8.count }
        for (k, v) in e.attributes { n += 8 + k.utf8.count + v.utf8.count }
        return n
    }

    /// Hands `body` each event of `records`, whole records one after another, each behind
    /// `prefix` bytes of its own (a section record's number); the source's texts are shared
    /// from event to event. Damaged records are an I/O error: they come from a run on disk.
    static func forEach(
        in records: [UInt8], prefix: Int = 0, _ body: (consuming Event) -> Void
    ) throws(TimelineError) {
        var offset = 0
        var source: SourceReference?
        do throws(Corrupt) {
            while offset < records.count {
                let decoded = try decode(records, at: offset + prefix, after: source)
                source = decoded.event.source
                offset = decoded.next
                body(decoded.event)
            }
        } catch {
            throw TimelineError(.ioError, "a sorted run was damaged on disk")
        }
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
        switch try byte() {
        case 0: break
        case 1: value.raw = try string()
        case let n:
            guard let form = TimeValue.RawForm(rawValue: n - 2) else { throw Corrupt() }
            value.setRaw(form: form)
        }
        return value
    }
}

extension FixedWriter {
    /// A text as the records hold it: its length (4 bytes), then its UTF-8 bytes.
    fileprivate mutating func field(_ s: String) {
        s.withByteView { view in
            integer(UInt32(view.count))
            bytes(view)
        }
    }

    /// A list of texts: their count (8 bytes), then each text.
    fileprivate mutating func fields(_ list: [String]) {
        integer(Int64(list.count))
        for s in list { field(s) }
    }

    /// A time value: its basis, then a date or an instant with its offset, zone and digits,
    /// then the text it was read from.
    fileprivate mutating func field(_ t: TimeValue) {
        byte(UInt8(EventRunCodec.bases.firstIndex(of: t.basis)!))
        switch t.moment {
        case .date(let d):
            integer(d.daysSinceEpoch)
        case .instant(let i, let o, let z):
            integer(i.seconds)
            integer(Int64(i.nanoseconds))
            integer(Int64(o.seconds))
            optional(z) { w, s in w.field(s) }
            byte(UInt8(t.fractionDigits))
        }
        // The source text: none (0), a string (1), or the form of the value's rendering (2 + the
        // form's number).
        if let form = t.rawForm {
            byte(2 + form.rawValue)
        } else {
            optional(t.rawText) { w, s in w.field(s) }
        }
    }

    /// A 0 for nil, else a 1 and the value.
    fileprivate mutating func optional<T>(_ value: T?, _ body: (inout FixedWriter, T) -> Void) {
        guard let value else { return byte(0) }
        byte(1)
        body(&self, value)
    }
}
