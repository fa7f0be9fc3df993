/// Writes events in the canonical JSON shape (docs/canonical-format.md), with a fixed key order and compact
/// formatting so the same event always gives the same bytes.
///
/// Key order: `id start end title detail status category amount location series recorded
/// links tags attributes source`; absent optional fields and empty lists are omitted;
/// attribute keys are sorted.
package enum CanonicalEncoder {
    /// Appends `event`. The event is written into a buffer sized from its strings (on the
    /// stack for ordinary events) and appended once: two dozen small appends to the array
    /// cost more than the formatting.
    package static func append(_ event: Event, to w: inout JSONWriter) {
        append(event, to: &w.bytes)
    }

    /// Appends `event` to `bytes`, written in place (`FixedWriter.appendingInPlace`): a
    /// temporary buffer instead would be on the heap for most events, as temporary
    /// allocations stay on the stack only up to 1 KiB.
    package static func append(_ event: Event, to bytes: inout [UInt8]) {
        FixedWriter.appendingInPlace(event, to: &bytes, capacity: maximumLength(event)) {
            write($0, to: &$1)
        }
    }

    /// `{"instant":…,"local":…,"offset":…,"zone":…,"basis":…,"raw":…}` or
    /// `{"date":…,"basis":"date","raw":…}`.
    package static func append(_ value: TimeValue, to w: inout JSONWriter) {
        FixedWriter.appending(to: &w.bytes, capacity: maximumLength(value)) {
            write(value, to: &$0)
        }
    }

    /// An upper bound of what `write(event)` writes: every string escaped at worst (six
    /// bytes per byte) plus the keys, numbers and punctuation.
    static func maximumLength(_ event: Event) -> Int {
        func bound(_ s: String?) -> Int { s.map(FixedWriter.jsonStringBound) ?? 0 }
        var n =
            514 + 6 * event.identity.utf8CountBound + maximumLength(event.start)
            + bound(event.title)
            + bound(event.detail) + bound(event.category)
        n += bound(event.location) + bound(event.series)
        if let end = event.end { n += maximumLength(end) }
        if let recorded = event.recorded { n += maximumLength(recorded) }
        // An amount's digits, sign and point need no escaping.
        if let amount = event.amount {
            n += amount.value.textLengthBound + bound(amount.currency) + 15
        }
        for s in event.links { n += bound(s) + 1 }
        for s in event.tags { n += bound(s) + 1 }
        for (k, v) in event.attributes { n += bound(k) + bound(v) + 2 }
        if let source = event.source { n += bound(source.format) + bound(source.file) }
        return n
    }

    static func maximumLength(_ value: TimeValue) -> Int {
        192 + (value.zone.map(FixedWriter.jsonStringBound) ?? 0)
            + 6 * value.rawLengthBound + 2
    }

    static func write(_ event: Event, to f: inout FixedWriter) {
        f.text("{\"id\":")
        switch event.identity {
        case .given(let id): f.jsonString(id)
        case .generated(let prefix, let record): f.jsonString(prefix, followedBy: record)
        }
        f.text(",\"start\":")
        write(event.start, to: &f)
        if let end = event.end {
            f.text(",\"end\":")
            write(end, to: &f)
        }
        f.text(",\"title\":")
        f.jsonString(event.title)
        optional(",\"detail\":", event.detail, &f)
        if let status = event.status { f.text(Self.statusMember(status)) }
        optional(",\"category\":", event.category, &f)
        if let amount = event.amount {
            f.text(",\"amount\":")
            write(amount, to: &f)
        }
        optional(",\"location\":", event.location, &f)
        optional(",\"series\":", event.series, &f)
        if let recorded = event.recorded {
            f.text(",\"recorded\":")
            write(recorded, to: &f)
        }
        if !event.links.isEmpty {
            f.text(",\"links\":")
            write(strings: event.links, to: &f)
        }
        if !event.tags.isEmpty {
            f.text(",\"tags\":")
            write(strings: event.tags, to: &f)
        }
        if !event.attributes.isEmpty {
            f.text(",\"attributes\":")
            write(attributes: event.attributes, to: &f)
        }
        if let s = event.source {
            f.text(",\"source\":")
            write(s, to: &f)
        }
        f.byte(UInt8(ascii: "}"))
    }

    // The members that are objects or lists, written alone too (`--fields amount`).

    /// `{"value":"…","currency":…,"neutral":true}`.
    static func write(_ amount: Amount, to f: inout FixedWriter) {
        f.text("{\"value\":\"")
        amount.value.write(to: &f)  // digits, a sign and a point: nothing to escape
        f.byte(UInt8(ascii: "\""))
        if let c = amount.currency {
            f.text(",\"currency\":")
            f.jsonString(c)
        }
        if amount.neutral { f.text(",\"neutral\":true") }
        f.byte(UInt8(ascii: "}"))
    }

    /// `{"format":…,"file":…,"record":N,"line":N}`.
    static func write(_ s: SourceReference, to f: inout FixedWriter) {
        f.text("{\"format\":")
        f.jsonString(s.format)
        f.text(",\"file\":")
        f.jsonString(s.file)
        f.text(",\"record\":")
        f.digits(s.record, width: 1)
        if let line = s.line {
            f.text(",\"line\":")
            f.digits(line, width: 1)
        }
        f.byte(UInt8(ascii: "}"))
    }

    /// `["…",…]`.
    static func write(strings values: [String], to f: inout FixedWriter) {
        f.byte(UInt8(ascii: "["))
        for (i, v) in values.enumerated() {
            if i > 0 { f.byte(UInt8(ascii: ",")) }
            f.jsonString(v)
        }
        f.byte(UInt8(ascii: "]"))
    }

    /// `{"key":"value",…}`, keys sorted.
    static func write(attributes: [String: String], to f: inout FixedWriter) {
        f.byte(UInt8(ascii: "{"))
        for (i, k) in attributes.keys.sorted().enumerated() {
            if i > 0 { f.byte(UInt8(ascii: ",")) }
            f.jsonString(k)
            f.byte(UInt8(ascii: ":"))
            f.jsonString(attributes[k]!)
        }
        f.byte(UInt8(ascii: "}"))
    }

    static func write(_ value: TimeValue, to f: inout FixedWriter) {
        var written: (local: Range<Int>, offset: Range<Int>)?
        switch value.moment {
        case .date(let d):
            f.text("{\"date\":\"")
            f.digits(d.year, width: 4)
            f.byte(UInt8(ascii: "-"))
            f.digits(d.month, width: 2)
            f.byte(UInt8(ascii: "-"))
            f.digits(d.day, width: 2)
            f.text("\",\"basis\":\"date\"")
        case .instant(let instant, let offset, let zone):
            let wall = instant.wallTimes(in: offset)
            f.text("{\"instant\":\"")
            wall.utc.write(to: &f, fractionDigits: value.fractionDigits)
            f.text("Z\",\"local\":\"")
            let localStart = f.count
            wall.local.write(to: &f, fractionDigits: value.fractionDigits)
            let localEnd = f.count
            f.text("\",\"offset\":\"")
            let offsetStart = f.count
            offset.write(to: &f)
            written = (localStart..<localEnd, offsetStart..<f.count)
            f.byte(UInt8(ascii: "\""))
            if let zone {
                f.text(",\"zone\":")
                f.jsonString(zone)
            }
            f.text(Self.basisMember(value.basis))
        }
        if let form = value.rawForm, let written {
            // The source text is the local time and offset just written, with its own
            // separator and end (`TimeValue.RawForm`): digits and punctuation, nothing to escape.
            f.text(",\"raw\":\"")
            let start = f.count
            f.repeatWritten(written.local)
            f.set(form.separator, at: start + 10)
            if form.endsInZ { f.byte(UInt8(ascii: "Z")) } else { f.repeatWritten(written.offset) }
            f.byte(UInt8(ascii: "\""))
        } else if let raw = value.rawText {
            f.text(",\"raw\":")
            f.jsonString(raw)
        }
        f.byte(UInt8(ascii: "}"))
    }

    private static func optional(_ key: StaticString, _ value: String?, _ f: inout FixedWriter) {
        guard let value else { return }
        f.text(key)
        f.jsonString(value)
    }

    // Keys are written with their comma and quotes as one static string: one append each;
    // so are the members whose values are fixed words.

    private static func statusMember(_ status: EventStatus) -> StaticString {
        switch status {
        case .completed: return ",\"status\":\"completed\""
        case .processing: return ",\"status\":\"processing\""
        case .pending: return ",\"status\":\"pending\""
        case .cancelled: return ",\"status\":\"cancelled\""
        case .refunded: return ",\"status\":\"refunded\""
        }
    }

    private static func basisMember(_ basis: TimeBasis) -> StaticString {
        switch basis {
        case .offset: return ",\"basis\":\"offset\""
        case .zone: return ",\"basis\":\"zone\""
        case .assumed: return ",\"basis\":\"assumed\""
        case .epoch: return ",\"basis\":\"epoch\""
        case .date: return ",\"basis\":\"date\""
        }
    }
}
