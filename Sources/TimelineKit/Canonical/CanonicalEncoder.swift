/// Writes events in the canonical JSON shape (SPEC §3), with a fixed key order and compact
/// formatting so the same event always gives the same bytes.
///
/// Key order: `id start end title detail status category amount location series recorded
/// links tags attributes source`; absent optional fields and empty lists are omitted;
/// attribute keys are sorted.
public enum CanonicalEncoder {
    public static func append(_ event: Event, to w: inout JSONWriter) {
        w.raw("{\"id\":")
        w.string(event.id)
        w.raw(",\"start\":")
        append(event.start, to: &w)
        if let end = event.end {
            w.raw(",\"end\":")
            append(end, to: &w)
        }
        w.raw(",\"title\":")
        w.string(event.title)
        optional(",\"detail\":", event.detail, &w)
        if let status = event.status { w.raw(Self.statusMember(status)) }
        optional(",\"category\":", event.category, &w)
        if let amount = event.amount {
            w.raw(",\"amount\":")
            w.raw("{\"value\":")
            w.string(amount.value.description)
            if let c = amount.currency {
                w.raw(",\"currency\":")
                w.string(c)
            }
            w.bytes.append(UInt8(ascii: "}"))
        }
        optional(",\"location\":", event.location, &w)
        optional(",\"series\":", event.series, &w)
        if let recorded = event.recorded {
            w.raw(",\"recorded\":")
            append(recorded, to: &w)
        }
        stringList(",\"links\":", event.links, &w)
        stringList(",\"tags\":", event.tags, &w)
        if !event.attributes.isEmpty {
            w.raw(",\"attributes\":")
            w.bytes.append(UInt8(ascii: "{"))
            for (i, k) in event.attributes.keys.sorted().enumerated() {
                if i > 0 { w.bytes.append(UInt8(ascii: ",")) }
                w.string(k)
                w.bytes.append(UInt8(ascii: ":"))
                w.string(event.attributes[k]!)
            }
            w.bytes.append(UInt8(ascii: "}"))
        }
        if let s = event.source {
            w.raw(",\"source\":")
            w.raw("{\"format\":")
            w.string(s.format)
            w.raw(",\"file\":")
            w.string(s.file)
            w.raw(",\"record\":")
            appendDigits(s.record, width: 1, to: &w.bytes)
            if let line = s.line {
                w.raw(",\"line\":")
                appendDigits(line, width: 1, to: &w.bytes)
            }
            w.bytes.append(UInt8(ascii: "}"))
        }
        w.bytes.append(UInt8(ascii: "}"))
    }

    /// `{"instant":…,"local":…,"offset":…,"zone":…,"basis":…,"raw":…}` or
    /// `{"date":…,"basis":"date","raw":…}`.
    public static func append(_ value: TimeValue, to w: inout JSONWriter) {
        switch value.moment {
        case .date(let d):
            w.raw("{\"date\":\"")
            d.appendISO(to: &w.bytes)
            w.raw("\",\"basis\":\"date\"")
        case .instant(let instant, let offset, let zone):
            // The fixed-width part is formatted on the stack and appended once.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
                var f = FixedWriter(buffer)
                f.text("{\"instant\":\"")
                instant.local(in: .utc).write(to: &f, fractionDigits: value.fractionDigits)
                f.text("Z\",\"local\":\"")
                instant.local(in: offset).write(to: &f, fractionDigits: value.fractionDigits)
                f.text("\",\"offset\":\"")
                offset.write(to: &f)
                f.byte(UInt8(ascii: "\""))
                w.bytes.append(contentsOf: f.written)
            }
            if let zone {
                w.raw(",\"zone\":")
                w.string(zone)
            }
            w.raw(Self.basisMember(value.basis))
        }
        if let raw = value.raw {
            w.raw(",\"raw\":")
            w.string(raw)
        }
        w.bytes.append(UInt8(ascii: "}"))
    }

    // Keys are written with their comma and quotes as one static string: one append each;
    // so are the members whose values are fixed words.

    private static func statusMember(_ status: EventStatus) -> StaticString {
        switch status {
        case .completed: return ",\"status\":\"completed\""
        case .processing: return ",\"status\":\"processing\""
        case .pending: return ",\"status\":\"pending\""
        case .cancelled: return ",\"status\":\"cancelled\""
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

    private static func optional(_ key: StaticString, _ value: String?, _ w: inout JSONWriter) {
        guard let value else { return }
        w.raw(key)
        w.string(value)
    }

    private static func stringList(_ key: StaticString, _ values: [String], _ w: inout JSONWriter) {
        guard !values.isEmpty else { return }
        w.raw(key)
        w.bytes.append(UInt8(ascii: "["))
        for (i, v) in values.enumerated() {
            if i > 0 { w.bytes.append(UInt8(ascii: ",")) }
            w.string(v)
        }
        w.bytes.append(UInt8(ascii: "]"))
    }
}
