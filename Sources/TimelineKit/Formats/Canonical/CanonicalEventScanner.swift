/// Reads a canonical event straight from the bytes of its NDJSON line, with no JSON tree:
/// keys are matched as bytes, values go straight into the event's fields, and the source
/// file and zone names, which repeat line after line, are decoded once.
///
/// It reads only what it can read with certainty: the event's fields, each at most once,
/// strings without escapes, any spacing. For anything else it returns nil, and the caller
/// decodes the line through the tree (`JSONParser`, `CanonicalDecoder`). That happens on a
/// syntax error, an unknown or repeated key, a wrong type, an inconsistent time or an escape.
/// The tree decoder accepts or rejects the line with its own messages, in its own order of
/// priority: syntax first, then unknown fields, then types. The checks on time texts are the
/// decoder's own functions, so the two give the same event for every line this one reads.
/// `CanonicalEventScannerTests` holds it to that.
struct CanonicalEventScanner {
    /// The `source.file` and zone of the last lines: decoded once for a run of lines that
    /// repeat them.
    private var file = LastDecoded<String>()
    private var zone = LastDecoded<(name: String, rules: ZoneRules?)>()

    init() {}

    /// The event on `line`, or nil when the tree decoder must read it. `warnings` receives
    /// the decoder's non-fatal findings (TZ106, TZ110) for the event returned; after nil, its
    /// contents are undefined.
    mutating func event(_ line: ByteView, warnings: inout [CanonicalDecoder.Warning]) -> Event? {
        guard let (event, end) = event(in: line, at: 0, warnings: &warnings) else { return nil }
        var cursor = Cursor(line, at: end)
        cursor.skipSpace()
        return cursor.isAtEnd ? event : nil
    }

    /// The event whose object starts at `start` in `bytes` (an element of a document's
    /// events array), and the index just after the object; nil as for `event(_:warnings:)`.
    mutating func event(
        in bytes: ByteView, at start: Int, warnings: inout [CanonicalDecoder.Warning]
    ) -> (Event, end: Int)? {
        var cursor = Cursor(bytes, at: start)
        do throws(Doubt) {
            let event = try read(&cursor, warnings: &warnings)
            return (event, cursor.index)
        } catch {
            return nil
        }
    }

    private enum Field: UInt32 {
        case id, start, end, title, detail, status, category, amount, location, series, recorded,
            links, tags, attributes, source

        init?(_ key: ByteView) {
            switch key.count {
            case 2 where key.equals("id"): self = .id
            case 3 where key.equals("end"): self = .end
            case 4 where key.equals("tags"): self = .tags
            case 5 where key.equals("start"): self = .start
            case 5 where key.equals("title"): self = .title
            case 5 where key.equals("links"): self = .links
            case 6 where key.equals("detail"): self = .detail
            case 6 where key.equals("status"): self = .status
            case 6 where key.equals("amount"): self = .amount
            case 6 where key.equals("series"): self = .series
            case 6 where key.equals("source"): self = .source
            case 8 where key.equals("category"): self = .category
            case 8 where key.equals("location"): self = .location
            case 8 where key.equals("recorded"): self = .recorded
            case 10 where key.equals("attributes"): self = .attributes
            default: return nil
            }
        }
    }

    private mutating func read(_ c: inout Cursor, warnings: inout [CanonicalDecoder.Warning])
        throws(Doubt) -> Event
    {
        var seen: UInt32 = 0
        var id: String?
        var title: String?
        var start: TimeValue?
        var event = Event.blank
        try c.members { (c, key) throws(Doubt) in
            guard let field = Field(key), seen & (1 << field.rawValue) == 0 else { throw Doubt() }
            seen |= 1 << field.rawValue
            switch field {
            case .id: id = try c.text()
            case .title: title = try c.text()
            case .start: start = try time(&c, "start", &warnings)
            case .end: event.end = try time(&c, "end", &warnings)
            case .recorded: event.recorded = try time(&c, "recorded", &warnings)
            case .detail: event.detail = try c.text()
            case .category: event.category = try c.text()
            case .location: event.location = try c.text()
            case .series: event.series = try c.text()
            case .status: event.status = try Self.status(c.plainString())
            case .amount: event.amount = try amount(&c)
            case .links: event.links = try c.texts()
            case .tags: event.tags = try c.texts()
            case .attributes:
                var attributes: [String: String] = [:]
                try c.members { (c, key) throws(Doubt) in
                    guard let name = key.validatedString else { throw Doubt() }
                    attributes[name] = try c.text()
                }
                event.attributes = attributes
            case .source: event.source = try source(&c)
            }
        }
        guard let id, let title, let start else { throw Doubt() }
        event.id = id
        event.title = title
        event.start = start
        return event
    }

    private static func status(_ text: ByteView) throws(Doubt) -> EventStatus {
        if text.equals("completed") { return .completed }
        if text.equals("pending") { return .pending }
        if text.equals("processing") { return .processing }
        if text.equals("cancelled") { return .cancelled }
        throw Doubt()
    }

    private static func basis(_ text: ByteView) throws(Doubt) -> TimeBasis {
        if text.equals("offset") { return .offset }
        if text.equals("zone") { return .zone }
        if text.equals("assumed") { return .assumed }
        if text.equals("epoch") { return .epoch }
        if text.equals("date") { return .date }
        throw Doubt()
    }

    private mutating func time(
        _ c: inout Cursor, _ field: String, _ warnings: inout [CanonicalDecoder.Warning]
    ) throws(Doubt)
        -> TimeValue
    {
        var raw: String?
        var basis: TimeBasis?
        var date: ByteView?
        var instant: ByteView?
        var local: ByteView?
        var offset: ByteView?
        var zone: ByteView?
        try c.members { (c, key) throws(Doubt) in
            switch key.count {
            case 3 where key.equals("raw") && raw == nil: raw = try c.text()
            case 4 where key.equals("zone") && zone == nil: zone = try c.plainString()
            case 4 where key.equals("date") && date == nil: date = try c.asciiString()
            case 5 where key.equals("basis") && basis == nil:
                basis = try Self.basis(c.plainString())
            case 5 where key.equals("local") && local == nil: local = try c.asciiString()
            case 6 where key.equals("offset") && offset == nil: offset = try c.asciiString()
            case 7 where key.equals("instant") && instant == nil: instant = try c.asciiString()
            default: throw Doubt()
            }
        }
        guard let basis else { throw Doubt() }
        if basis == .date {
            guard let date, let day = try? CanonicalDecoder.date(date, field) else { throw Doubt() }
            return TimeValue(date: day, raw: raw)
        }
        guard let instant, let local, let offset,
            let moment = try? CanonicalDecoder.instant(instant, local: local, offset: offset, field)
        else { throw Doubt() }
        var zoneName: String?
        if let zone {
            let (name, rules) = try self.zone(zone)
            if let w = CanonicalDecoder.zoneWarning(
                name, rules: rules, moment.offset, at: moment.instant, written: instant.string,
                field)
            {
                warnings.append(w)
            }
            zoneName = name
        } else if basis == .zone || basis == .assumed {
            throw Doubt()
        }
        return TimeValue(
            instant: moment.instant, offset: moment.offset, zone: zoneName, basis: basis,
            fractionDigits: moment.fractionDigits, raw: raw)
    }

    /// The zone named by `bytes` and its rules.
    private mutating func zone(_ bytes: ByteView) throws(Doubt) -> (String, ZoneRules?) {
        try zone.value(of: bytes) { name in (name, ZoneResolver.ianaRules(name)) }
    }

    private func amount(_ c: inout Cursor) throws(Doubt) -> Amount {
        var value: DecimalNumber?
        var currency: String?
        var neutral: Bool?
        try c.members { (c, key) throws(Doubt) in
            if key.equals("value") && value == nil {
                guard let text = try c.plainString().validatedString,
                    let number = DecimalNumber(text)
                else { throw Doubt() }
                value = number
            } else if key.equals("currency") && currency == nil {
                currency = try c.text()
            } else if key.equals("neutral") && neutral == nil {
                neutral = try c.bool()
            } else {
                throw Doubt()
            }
        }
        guard let value else { throw Doubt() }
        return Amount(value: value, currency: currency, neutral: neutral ?? false)
    }

    private mutating func source(_ c: inout Cursor) throws(Doubt) -> SourceReference {
        var format: String?
        var file: String?
        var record: Int?
        var line: Int?
        try c.members { (c, key) throws(Doubt) in
            if key.equals("format") && format == nil {
                format = try c.text()
            } else if key.equals("file") && file == nil {
                file = try self.file.value(of: c.plainString()) { $0 }
            } else if key.equals("record") && record == nil {
                record = try c.positiveInteger()
            } else if key.equals("line") && line == nil {
                line = try c.positiveInteger()
            } else {
                throw Doubt()
            }
        }
        guard let format, let file, let record else { throw Doubt() }
        return SourceReference(format: format, file: file, record: record, line: line)
    }
}

/// A value decoded from the text of the last bytes asked for, kept with those bytes.
private struct LastDecoded<Value> {
    private var last: (bytes: [UInt8], value: Value)?

    /// The value of the UTF-8 text `bytes`, from `decode` unless the bytes are the last ones.
    mutating func value(of bytes: ByteView, decode: (String) -> Value) throws(Doubt) -> Value {
        if let last, last.bytes.count == bytes.count, bytes.hasPrefix(last.bytes) {
            return last.value
        }
        guard let text = bytes.validatedString else { throw Doubt() }
        let value = decode(text)
        last = (bytes.array, value)
        return value
    }
}

/// Anything the scanner leaves to the tree decoder.
private struct Doubt: Error {}

/// A position in a line's bytes, reading the few JSON forms the scanner accepts.
private struct Cursor {
    let bytes: ByteView
    private(set) var index = 0

    init(_ bytes: ByteView, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var isAtEnd: Bool { index >= bytes.count }

    @inline(__always)
    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Consumes `byte` if it comes next, after any spacing.
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(Doubt) {
        guard take(byte) else { throw Doubt() }
    }

    /// Reads an object, handing `body` each key with the cursor at its value.
    @inline(__always)
    mutating func members(_ body: (inout Cursor, ByteView) throws(Doubt) -> Void) throws(Doubt) {
        try expect(UInt8(ascii: "{"))
        if take(UInt8(ascii: "}")) { return }
        repeat {
            let key = try plainString()
            try expect(UInt8(ascii: ":"))
            try body(&self, key)
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// The bytes of a string with no escape and no control character (not yet checked as
    /// UTF-8).
    @inline(__always)
    mutating func plainString() throws(Doubt) -> ByteView {
        try expect(UInt8(ascii: "\""))
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let end = bytes.firstIndex(ofControlOr: quote, backslash, from: index)
        guard end < bytes.count, bytes[end] == quote else { throw Doubt() }
        let text = bytes[index..<end]
        index = end + 1
        return text
    }

    /// The bytes of a plain string that is all ASCII, as every time text the scanner reads
    /// must be: the date parser skips some bracketed suffixes unread, and only ASCII is
    /// surely valid UTF-8 there.
    mutating func asciiString() throws(Doubt) -> ByteView {
        let text = try plainString()
        guard text.isASCII else { throw Doubt() }
        return text
    }

    /// A string's text.
    mutating func text() throws(Doubt) -> String {
        guard let text = try plainString().validatedString else { throw Doubt() }
        return text
    }

    /// An array of strings.
    mutating func texts() throws(Doubt) -> [String] {
        try expect(UInt8(ascii: "["))
        var out: [String] = []
        if take(UInt8(ascii: "]")) { return out }
        repeat { out.append(try text()) } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
        return out
    }

    mutating func bool() throws(Doubt) -> Bool {
        skipSpace()
        let rest = bytes[index...]
        if rest.count >= 4, rest[0..<4].equals("true") {
            index += 4
            return true
        }
        if rest.count >= 5, rest[0..<5].equals("false") {
            index += 5
            return false
        }
        throw Doubt()
    }

    /// A whole number from 1 written as plain digits (no sign, fraction or exponent). A 19th
    /// digit is doubt before it is added, so the sum cannot overflow; the tree decoder
    /// reports such a number.
    mutating func positiveInteger() throws(Doubt) -> Int {
        skipSpace()
        let first = index
        var n = 0
        while index < bytes.count, bytes[index] &- 0x30 < 10 {
            guard index - first < 18 else { throw Doubt() }
            n = n * 10 + Int(bytes[index] &- 0x30)
            index += 1
        }
        guard index > first, n >= 1, bytes[first] != UInt8(ascii: "0") else { throw Doubt() }
        return n
    }
}
