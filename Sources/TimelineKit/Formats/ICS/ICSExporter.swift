import Foundation
import Synchronization

/// `ics` output (RFC 5545): one VCALENDAR (VERSION, PRODID, CALSCALE) with a VEVENT
/// per event, CRLF line ends, lines folded at 75 octets without splitting a UTF-8 character,
/// TEXT escaped. Dates are `VALUE=DATE`; a zoned time is written `TZID=Area/City` with a
/// VTIMEZONE generated from the tz database for the years the events span; a time with only
/// an offset is written in UTC (`Z`), as is every time with `icsUTC` (`--ics-utc`).
///
/// Deterministic: UID is the event id; DTSTAMP is the source calendar's DTSTAMP when the event
/// came from one, else its `recorded` instant, else its start (a date's midnight UTC) —
/// never the clock. `X-TIMELINE-SERIES`, `-CATEGORY`, `-AMOUNT` and `-STATUS` carry what
/// RFC 5545 has no property for, and the ICS importer reads them back.
///
/// No value can forge a line, a property or a component: TEXT is escaped (a line break as
/// `\n`, other control characters as U+FFFD), parameters are quoted with RFC 6868's carets,
/// a link is a `URL` or `ATTACH` only when it is `http`, `https` or `mailto` (percent-encoded
/// where a URI may not hold a byte), else it is text in `X-TIMELINE-LINK`. An attribute is
/// written back as the property it was only when the event came from a calendar and the
/// property is one a calendar carries on its events (`ICSExporter.passedThrough`); every
/// other attribute is `X-TIMELINE-ATTRIBUTE;X-NAME="name":value`, whatever its name.
final class ICSExporter: TimelineExporter {
    private let options: WriteOptions
    /// `options.ics.utc`, read once (settings are looked up by key).
    private let utc: Bool
    private var events: [Event] = []

    init(options: WriteOptions) {
        self.options = options
        utc = options.ics.utc
    }

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        events.append(event)
    }

    func finish(to out: OutputWriter) throws(TimelineError) {
        try Self.checkUniqueIDs(events)
        var lines: [String] = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//timeline//timeline toolkit//EN",
            "CALSCALE:GREGORIAN",
        ]
        if !utc {
            lines += timeZones()
        }
        var bytes: [UInt8] = []
        for line in lines { Self.fold(line, into: &bytes) }
        try out.write(bytes)
        try out.write(veventBytes())
        bytes.removeAll()
        Self.fold("END:VCALENDAR", into: &bytes)
        try out.write(bytes)
    }

    /// A VEVENT's UID names one event (RFC 5545 §3.8.4.7; a calendar keeps one of two
    /// VEVENTs with one UID and no RECURRENCE-ID): events with repeated ids — an export with
    /// one row per order event, its ids from the order number — are refused, naming them,
    /// before anything is written.
    static func checkUniqueIDs(_ events: [Event]) throws(TimelineError) {
        var counts: [String: Int] = [:]
        var repeated: [String] = []
        for e in events {
            counts[e.id, default: 0] += 1
            if counts[e.id] == 2 { repeated.append(e.id) }
        }
        guard !repeated.isEmpty else { return }
        let shown = repeated.prefix(5).map { "'\($0)' (\(counts[$0]!) events)" }.joined(
            separator: ", ")
        throw TimelineError(
            .data,
            "\(repeated.count) id(s) name more than one event, and an ICS UID names one: \(shown)\(repeated.count > 5 ? ", …" : "")",
            code: "ics-duplicate-uid",
            notes: [
                "give each event its own id (\(.map, "id=COLUMN") names a column of distinct values), or write another format (ndjson, csv)"
            ])
    }

    /// Every event's VEVENT, folded: chunks of events are written on all cores at once and
    /// joined in order (each VEVENT depends on its event and the options only).
    private func veventBytes() -> [UInt8] {
        let chunkSize = 2048
        let chunks = (events.count + chunkSize - 1) / chunkSize
        let parts = Parallel.map(chunks) { c in
            var bytes: [UInt8] = []
            for i in c * chunkSize..<min(events.count, (c + 1) * chunkSize) {
                for line in vevent(events[i]) { Self.fold(line, into: &bytes) }
            }
            return bytes
        }
        return parts.flatMap { $0 }
    }

    // MARK: Events

    private func vevent(_ e: Event) -> [String] {
        var l = ["BEGIN:VEVENT", "UID:" + ICSText.escape(e.id)]
        if let source = e.attributes["DTSTAMP"], source.hasSuffix("Z"),
            ICSTimeZone.localTime(source) != nil
        {
            l.append("DTSTAMP:" + source)  // the source calendar's own stamp
        } else {
            let stamp =
                e.recorded?.instant ?? e.start.instant
                ?? Instant(seconds: e.start.date!.daysSinceEpoch * 86_400)
            l.append("DTSTAMP:" + Self.utc(stamp))
        }
        l.append(time("DTSTART", e.start))
        if let end = e.end { l.append(time("DTEND", end)) }
        if let created = e.recorded?.instant { l.append("CREATED:" + Self.utc(created)) }
        if !e.title.isEmpty { l.append("SUMMARY:" + ICSText.escape(e.title)) }
        if let d = e.detail { l.append("DESCRIPTION:" + ICSText.escape(d)) }
        if let loc = e.location { l.append("LOCATION:" + ICSText.escape(loc)) }
        if let s = e.status {
            let word: String
            switch s {
            case .completed, .processing, .refunded: word = "CONFIRMED"
            case .pending: word = "TENTATIVE"
            case .cancelled: word = "CANCELLED"
            }
            l.append("STATUS:" + word)
            if s == .processing || s == .completed || s == .refunded {
                l.append("X-TIMELINE-STATUS:" + s.rawValue)
            }  // VEVENT has no word for these
        }
        if !e.tags.isEmpty {
            l.append("CATEGORIES:" + e.tags.map(ICSText.escape).joined(separator: ","))
        }
        for (i, link) in e.links.enumerated() {
            if let uri = ICSURI.safe(link) {
                l.append((i == 0 ? "URL:" : "ATTACH:") + uri)
            } else {
                l.append("X-TIMELINE-LINK:" + ICSText.escape(link))
            }
        }
        if let c = e.category { l.append("X-TIMELINE-CATEGORY:" + ICSText.escape(c)) }
        if let s = e.series { l.append("X-TIMELINE-SERIES:" + ICSText.escape(s)) }
        if let a = e.amount {
            l.append(
                "X-TIMELINE-AMOUNT"
                    + (a.currency.map { ";X-CURRENCY=" + Self.currencyParameter($0) } ?? "") + ":"
                    + a.value.description)
        }
        let fromCalendar = e.source?.format == "ics"
        for key in e.attributes.keys.sorted() where key != "DTSTAMP" {
            let value = e.attributes[key]!
            let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
            if fromCalendar && Self.passedThrough(key)
                && lines.allSatisfy({ !ICSText.hasControl($0) })
            {
                for v in lines { l.append("\(key):\(v)") }
            } else {
                l.append(
                    "X-TIMELINE-ATTRIBUTE;X-NAME=\(Self.quoteParameter(key)):"
                        + ICSText.escape(value))
            }
        }
        l.append("END:VEVENT")
        return l
    }

    private func time(_ name: String, _ v: TimeValue) -> String {
        if let d = v.date {
            return "\(name);VALUE=DATE:" + Self.basicDate(d)
        }
        let instant = v.instant!
        if !utc, let zone = v.zone, let rules = ZoneResolver.ianaRules(zone), zone != "UTC" {
            return "\(name);TZID=\(Self.parameterValue(zone)):"
                + Self.basic(instant.local(in: rules.offset(at: instant)))
        }
        return "\(name):" + Self.utc(instant)
    }

    /// iCalendar's basic form `YYYYMMDDTHHMMSS`.
    static func basic(_ t: LocalDateTime) -> String {
        basicDate(t.date, time: t)
    }

    /// `YYYYMMDD`, or with `time` `YYYYMMDDTHHMMSS`; written on the stack (one per value).
    static func basicDate(_ d: CivilDate, time t: LocalDateTime? = nil) -> String {
        FixedWriter.string(capacity: 15) { w in
            w.four(d.year)
            w.two(d.month)
            w.two(d.day)
            if let t {
                w.byte(UInt8(ascii: "T"))
                w.two(t.hour)
                w.two(t.minute)
                w.two(t.second)
            }
        }
    }

    static func utc(_ i: Instant) -> String { basic(i.local(in: .utc)) + "Z" }

    /// The event properties (RFC 5545 §3.8, RFC 7986) a calendar's event read in keeps as
    /// attributes and gets back as properties, and its `X-` extensions but ours. Nothing
    /// that starts a component, names a time this exporter writes, or alarms anyone.
    static let calendarProperties: Set<String> = [
        "RRULE", "RDATE", "EXDATE", "EXRULE", "GEO", "CLASS", "PRIORITY", "TRANSP", "SEQUENCE",
        "LAST-MODIFIED", "ORGANIZER", "ATTENDEE",
        "CONTACT", "COMMENT", "RESOURCES", "RELATED-TO", "REQUEST-STATUS", "COLOR", "CONFERENCE",
        "IMAGE",
    ]

    /// Whether the attribute `name` of an event read from a calendar is written back as
    /// the property it was.
    static func passedThrough(_ name: String) -> Bool {
        if calendarProperties.contains(name) { return true }
        guard name.hasPrefix("X-"), !name.hasPrefix("X-TIMELINE-"), name.count > 2 else {
            return false
        }
        return name.utf8.allSatisfy {
            ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
        }
    }

    /// A parameter value, quoted only when it holds `:` `;` `,`, a quote or a control
    /// character (RFC 5545 §3.2).
    static func parameterValue(_ s: String) -> String {
        // Byte test: a ':' ';' ',' anywhere (even under a combining mark) needs quotes.
        s.utf8.contains(where: {
            $0 == 0x3A || $0 == 0x3B || $0 == 0x2C || $0 == 0x22 || $0 < 0x20 || $0 == 0x7F
        }) ? quoteParameter(s) : s
    }

    /// A currency parameter: a code of three capital letters as it is, anything else quoted.
    static func currencyParameter(_ code: String) -> String {
        code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
            ? code : quoteParameter(code)
    }

    /// A quoted parameter value with RFC 6868's carets: `^^`, `^'` for a quote, `^n` for a
    /// line break (LF, CRLF or a lone CR); other control characters, which a quoted value
    /// may not hold, become U+FFFD.
    static func quoteParameter(_ s: String) -> String {
        var out: [UInt8] = [0x22]
        let bytes = Array(s.utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x5E: out += [0x5E, 0x5E]
            case 0x22: out += [0x5E, 0x27]
            case 0x0D, 0x0A:
                out += [0x5E, UInt8(ascii: "n")]
                if b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
            case 0x09: out.append(b)
            case ..<0x20, 0x7F: out += [0xEF, 0xBF, 0xBD]
            default: out.append(b)
            }
            i += 1
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Time zones

    /// One VTIMEZONE per zone used, with the transitions of the years the events span
    /// (one year either side); a zone with none there gets a single STANDARD observance.
    private func timeZones() -> [String] {
        var years: [String: (Int, Int)] = [:]
        for e in events {
            for v in [e.start, e.end, e.recorded].compactMap({ $0 }) {
                guard let zone = v.zone, zone != "UTC", let instant = v.instant else { continue }
                let y = instant.local(in: .utc).date.year
                let r = years[zone] ?? (y, y)
                years[zone] = (min(r.0, y), max(r.1, y))
            }
        }
        var lines: [String] = []
        for zone in years.keys.sorted() {
            guard let rules = ZoneResolver.ianaRules(zone), let span = years[zone] else { continue }
            let from =
                CivilDate(year: max(span.0 - 1, 1), month: 1, day: 1)!.daysSinceEpoch * 86_400
            let to =
                CivilDate(year: min(span.1 + 2, 9999), month: 1, day: 1)!.daysSinceEpoch * 86_400
            lines += ["BEGIN:VTIMEZONE", "TZID:\(zone)"]
            var before = rules.offset(atEpochSeconds: from)
            var cursor = from
            var wrote = false
            while let t = rules.nextTransition(afterEpochSeconds: cursor), t.at < to {
                let kind = t.offset.seconds > before.seconds ? "DAYLIGHT" : "STANDARD"
                let local = Instant(seconds: t.at).local(in: before)
                lines += [
                    "BEGIN:\(kind)", "DTSTART:" + Self.basic(local),
                    "TZOFFSETFROM:" + Self.offset(before), "TZOFFSETTO:" + Self.offset(t.offset),
                    "END:\(kind)",
                ]
                before = t.offset
                cursor = t.at
                wrote = true
            }
            if !wrote {
                lines += [
                    "BEGIN:STANDARD",
                    "DTSTART:" + Self.basic(Instant(seconds: from).local(in: before)),
                    "TZOFFSETFROM:" + Self.offset(before),
                    "TZOFFSETTO:" + Self.offset(before), "END:STANDARD",
                ]
            }
            lines.append("END:VTIMEZONE")
        }
        return lines
    }

    static func offset(_ o: UTCOffset) -> String {
        let m = abs(o.seconds)
        var s = (o.seconds < 0 ? "-" : "+") + two(m / 3600) + two(m % 3600 / 60)
        if m % 60 != 0 { s += two(m % 60) }
        return s
    }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    // MARK: Folding

    /// Appends `line` + CRLF, folded so no physical line exceeds 75 octets; never splits a
    /// UTF-8 character (continuation lines start with one space).
    static func fold(_ line: String, into out: inout [UInt8]) {
        let bytes = Array(line.utf8)
        var start = 0
        var limit = 75
        while bytes.count - start > limit {
            var cut = start + limit
            while cut > start, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }  // not inside a character
            out.append(contentsOf: bytes[start..<cut])
            out += [0x0D, 0x0A, 0x20]
            start = cut
            limit = 74
        }
        out.append(contentsOf: bytes[start...])
        out += [0x0D, 0x0A]
    }
}
