/// Reads one canonical event from a parsed JSON object, checking types and the consistency
/// of every time value (the instant must equal local time minus offset; a zone that exists
/// must agree with the offset). Errors are messages for a diagnostic at the event's line.
package enum CanonicalDecoder {
    package struct Failure: Error, Hashable, Sendable {
        package var message: String
    }

    /// A non-fatal finding: the event is kept as written.
    package struct Warning: Hashable, Sendable {
        package var code: String
        package var message: String
    }

    /// Decodes `json`; `warnings` receives non-fatal findings (an offset its zone does not
    /// have at that instant, TZ106; a zone name the tz database does not know, TZ110).
    package static func event(from json: JSONValue, warnings: inout [Warning]) throws(Failure)
        -> Event
    {
        guard case .object(let pairs) = json else {
            throw Failure(message: "expected an event object, found \(json.typeName)")
        }
        for (k, _) in pairs where !knownFields.contains(k) {
            throw Failure(
                message: "unknown event field '\(k)'; move source fields into 'attributes'")
        }
        guard let idValue = json["id"] else {
            throw Failure(message: "missing required field 'id'")
        }
        guard let startValue = json["start"] else {
            throw Failure(message: "missing required field 'start'")
        }
        guard let titleValue = json["title"] else {
            throw Failure(message: "missing required field 'title'")
        }
        var event = Event(
            id: try string(idValue, "id"), start: try time(startValue, "start", &warnings),
            title: try string(titleValue, "title"))
        if let v = json["end"] { event.end = try time(v, "end", &warnings) }
        if let v = json["recorded"] { event.recorded = try time(v, "recorded", &warnings) }
        event.detail = try json["detail"].map { v throws(Failure) in try string(v, "detail") }
        event.category = try json["category"].map { v throws(Failure) in try string(v, "category") }
        event.location = try json["location"].map { v throws(Failure) in try string(v, "location") }
        event.series = try json["series"].map { v throws(Failure) in try string(v, "series") }
        if let v = json["status"] {
            let s = try string(v, "status")
            guard let status = EventStatus(rawValue: s) else {
                throw Failure(
                    message:
                        "field 'status': '\(s)' is not one of \(EventStatus.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            event.status = status
        }
        if let v = json["amount"] { event.amount = try amount(v) }
        if let v = json["links"] { event.links = try stringArray(v, "links") }
        if let v = json["tags"] { event.tags = try stringArray(v, "tags") }
        if let v = json["attributes"] {
            guard case .object(let attrs) = v else {
                throw Failure(
                    message: "field 'attributes' must be an object of strings, found \(v.typeName)")
            }
            for (k, value) in attrs { event.attributes[k] = try string(value, "attributes.\(k)") }
        }
        if let v = json["source"] { event.source = try source(v) }
        return event
    }

    /// The fields an event may have (a set built once: built per record it cost more than
    /// any one field's decoding).
    private static let knownFields: Set<String> = [
        "id", "start", "end", "title", "detail", "status", "category", "amount", "location",
        "series",
        "recorded", "links", "tags", "attributes", "source",
    ]

    private static func string(_ v: JSONValue, _ field: String) throws(Failure) -> String {
        guard case .string(let s) = v else {
            throw Failure(message: "field '\(field)' must be a string, found \(v.typeName)")
        }
        return s
    }

    private static func stringArray(_ v: JSONValue, _ field: String) throws(Failure) -> [String] {
        guard case .array(let items) = v else {
            throw Failure(
                message: "field '\(field)' must be an array of strings, found \(v.typeName)")
        }
        var out: [String] = []
        for item in items { out.append(try string(item, field)) }
        return out
    }

    private static func amount(_ v: JSONValue) throws(Failure) -> Amount {
        guard case .object = v, let valueField = v["value"] else {
            throw Failure(message: "field 'amount' must be an object with a decimal string 'value'")
        }
        let text = try string(valueField, "amount.value")
        guard let number = DecimalNumber(text) else {
            throw Failure(
                message: "field 'amount.value': '\(text)' is not a plain decimal such as '-12.50'")
        }
        var neutral = false
        switch v["neutral"] {
        case nil: break
        case .bool(let b)?: neutral = b
        default: throw Failure(message: "field 'amount.neutral' must be true or false")
        }
        return Amount(
            value: number,
            currency: try v["currency"].map { c throws(Failure) in try string(c, "amount.currency")
            }, neutral: neutral)
    }

    private static func source(_ v: JSONValue) throws(Failure) -> SourceReference {
        guard case .object = v, let format = v["format"], let file = v["file"],
            let record = v["record"]
        else {
            throw Failure(message: "field 'source' must have 'format', 'file' and 'record'")
        }
        func integer(_ v: JSONValue, _ field: String) throws(Failure) -> Int {
            guard case .number(let n) = v, let i = Int(n), i >= 1 else {
                throw Failure(message: "field '\(field)' must be a positive integer")
            }
            return i
        }
        return SourceReference(
            format: try string(format, "source.format"), file: try string(file, "source.file"),
            record: try integer(record, "source.record"),
            line: try v["line"].map { l throws(Failure) in try integer(l, "source.line") })
    }

    /// Decodes and cross-checks a canonical time value.
    static func time(_ v: JSONValue, _ field: String, _ warnings: inout [Warning]) throws(Failure)
        -> TimeValue
    {
        guard case .object = v else {
            throw Failure(message: "field '\(field)' must be a time object, found \(v.typeName)")
        }
        let raw = try v["raw"].map { r throws(Failure) in try string(r, "\(field).raw") }
        let basisText = try v["basis"].map { b throws(Failure) in try string(b, "\(field).basis") }
        guard let basisText, let basis = TimeBasis(rawValue: basisText) else {
            throw Failure(
                message:
                    "field '\(field).basis' must be one of \(TimeBasis.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if basis == .date {
            guard let d = v["date"] else {
                throw Failure(message: "field '\(field)' has basis 'date' but no 'date'")
            }
            let text = try string(d, "\(field).date")
            return TimeValue(
                date: try text.withThrowingByteView { view throws(Failure) in try date(view, field)
                }, raw: raw)
        }
        guard let iv = v["instant"], let lv = v["local"], let ov = v["offset"] else {
            throw Failure(
                message:
                    "field '\(field)' needs 'instant', 'local' and 'offset' (or basis 'date' with 'date')"
            )
        }
        let instantText = try string(iv, "\(field).instant")
        let localText = try string(lv, "\(field).local")
        let offsetText = try string(ov, "\(field).offset")
        let moment = try instantText.withThrowingByteView { i throws(Failure) in
            try localText.withThrowingByteView { l throws(Failure) in
                try offsetText.withThrowingByteView { o throws(Failure) in
                    try instant(i, local: l, offset: o, field)
                }
            }
        }
        var zone: String?
        if let z = v["zone"] {
            let name = try string(z, "\(field).zone")
            if let w = zoneWarning(
                name, rules: ZoneResolver.ianaRules(name), moment.offset, at: moment.instant,
                written: instantText, field)
            {
                warnings.append(w)
            }
            zone = name
        } else if basis == .zone || basis == .assumed {
            throw Failure(message: "field '\(field)' has basis '\(basisText)' but no 'zone'")
        }
        return TimeValue(
            instant: moment.instant, offset: moment.offset, zone: zone, basis: basis,
            fractionDigits: moment.fractionDigits, raw: raw)
    }

    // The checks on a time's texts, on their bytes: the tree decoder above and
    // `CanonicalEventScanner` both use them, so the two accept the same times.

    /// The day of a `date` text (`YYYY-MM-DD`).
    static func date(_ text: ByteView, _ field: String) throws(Failure) -> CivilDate {
        guard let fields = ISO8601Syntax.fields(text), !fields.hasTime, fields.offset == nil,
            fields.zoneName == nil
        else {
            throw Failure(
                message: "field '\(field).date': '\(text.string)' is not a YYYY-MM-DD date")
        }
        return fields.local.date
    }

    /// The instant, offset and fraction digits of a time's `instant`, `local` and `offset`
    /// texts, which must agree: the instant is the local time minus the offset, written with
    /// as many fraction digits.
    static func instant(
        _ instantText: ByteView, local localText: ByteView, offset offsetText: ByteView,
        _ field: String
    )
        throws(Failure) -> (instant: Instant, offset: UTCOffset, fractionDigits: Int)
    {
        guard let inst = ISO8601Syntax.fields(instantText), inst.hasTime, inst.offset == .utc,
            instantText.last == UInt8(ascii: "Z"),
            inst.zoneName == nil
        else {
            throw Failure(
                message:
                    "field '\(field).instant': '\(instantText.string)' is not an RFC 3339 UTC time such as '2024-06-12T00:00:00Z'"
            )
        }
        guard let local = ISO8601Syntax.fields(localText), local.hasTime, local.offset == nil,
            local.zoneName == nil
        else {
            throw Failure(
                message:
                    "field '\(field).local': '\(localText.string)' is not a local time such as '2024-06-12T08:00:00'"
            )
        }
        guard let offset = offsetValue(offsetText) else {
            throw Failure(
                message:
                    "field '\(field).offset': '\(offsetText.string)' is not an offset such as '+08:00'"
            )
        }
        guard inst.fractionDigits == local.fractionDigits else {
            throw Failure(
                message:
                    "field '\(field)': 'instant' has \(inst.fractionDigits) fraction digits but 'local' has \(local.fractionDigits)"
            )
        }
        let instant = Instant(local: inst.local, offset: .utc)
        let expected = Instant(local: local.local, offset: offset)
        guard instant == expected else {
            throw Failure(
                message:
                    "field '\(field)': instant '\(instantText.string)' is not local '\(localText.string)' minus offset '\(offsetText.string)' "
                    + "(that would be '\(expected.isoString(fractionDigits: inst.fractionDigits))')"
            )
        }
        return (instant, offset, inst.fractionDigits)
    }

    /// What to report about a time's `zone`: an offset the zone does not have at that instant
    /// (TZ106), or a name the tz database does not know (TZ110); nil when all agree. The
    /// instant and offset are exact on their own; a zone name this run cannot look up (a
    /// calendar's own VTIMEZONE such as 'MyTimezone', or a typo) is kept as written and
    /// reported, never a reason to lose the event.
    static func zoneWarning(
        _ name: String, rules: ZoneRules?, _ offset: UTCOffset, at instant: Instant,
        written instantText: @autoclosure () -> String,
        _ field: String
    ) -> Warning? {
        guard let rules else {
            return Warning(
                code: "TZ110",
                message:
                    "unknown time zone '\(name)' (not in the tz database; a calendar's own VTIMEZONE name?): instants and offsets are kept as written, and its offsets cannot be checked"
            )
        }
        let zoneOffset = rules.offset(at: instant)
        guard zoneOffset != offset else { return nil }
        return Warning(
            code: "TZ106",
            message:
                "field '\(field)': offset \(offset.isoString) contradicts zone '\(name)', which is at \(zoneOffset.isoString) at \(instantText())"
        )
    }

    private static func offsetValue(_ bytes: ByteView) -> UTCOffset? {
        var c = ByteCursor(bytes)
        guard bytes.isEmpty || bytes[0] != UInt8(ascii: "Z"), let o = ISO8601Syntax.offset(&c),
            c.isAtEnd
        else { return nil }
        return o
    }
}
