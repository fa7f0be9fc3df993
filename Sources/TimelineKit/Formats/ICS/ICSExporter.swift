import Foundation

/// `ics` output (RFC 5545): one VCALENDAR (VERSION, PRODID, CALSCALE) with a VEVENT
/// per event, CRLF line ends, lines folded at 75 octets without splitting a UTF-8 character,
/// TEXT escaped. Dates are `VALUE=DATE`; a zoned time is written `TZID=Area/City` with a
/// VTIMEZONE generated from the tz database for the years the events span; a time with only
/// an offset is written in UTC (`Z`), as is every time with `icsUTC` (`--ics-utc`).
///
/// Deterministic: UID is the event id; DTSTAMP is the source calendar's DTSTAMP when the event
/// came from one, else its `recorded` instant, else its start (a date's midnight UTC) —
/// never the clock. `X-TIMELINE-SERIES`, `-CATEGORY`, `-AMOUNT` and `-STATUS` carry what
/// RFC 5545 has no property for, and the ICS importer reads them back. Attributes whose names are iCalendar
/// property names (RRULE, GEO, X-…) are written back as those properties; others as
/// `X-TIMELINE-ATTRIBUTE;X-NAME=name:value`.
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
        var lines: [String] = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//timeline//timeline toolkit//EN", "CALSCALE:GREGORIAN"]
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

    /// Every event's VEVENT, folded: chunks of events are written on all cores at once and
    /// joined in order (each VEVENT depends on its event and the options only).
    private func veventBytes() -> [UInt8] {
        let chunkSize = 2048
        let chunks = (events.count + chunkSize - 1) / chunkSize
        let parts = LockedBox([[UInt8]](repeating: [], count: chunks))
        let exporter = UncheckedSendable(self)  // only read while the chunks are written
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let events = exporter.value.events
            var bytes: [UInt8] = []
            for i in c * chunkSize..<min(events.count, (c + 1) * chunkSize) {
                for line in exporter.value.vevent(events[i]) { Self.fold(line, into: &bytes) }
            }
            parts.withLock { $0[c] = bytes }
        }
        return parts.withLock { $0.flatMap { $0 } }
    }

    // MARK: Events

    private func vevent(_ e: Event) -> [String] {
        var l = ["BEGIN:VEVENT", "UID:" + ICSText.escape(e.id)]
        if let source = e.attributes["DTSTAMP"], source.hasSuffix("Z"), ICSTimeZone.localTime(source) != nil {
            l.append("DTSTAMP:" + source)  // the source calendar's own stamp
        } else {
            let stamp = e.recorded?.instant ?? e.start.instant ?? Instant(seconds: e.start.date!.daysSinceEpoch * 86_400)
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
            case .completed, .processing: word = "CONFIRMED"
            case .pending: word = "TENTATIVE"
            case .cancelled: word = "CANCELLED"
            }
            l.append("STATUS:" + word)
            if s == .processing || s == .completed { l.append("X-TIMELINE-STATUS:" + s.rawValue) }  // VEVENT has no word for these
        }
        if !e.tags.isEmpty { l.append("CATEGORIES:" + e.tags.map(ICSText.escape).joined(separator: ",")) }
        if let first = e.links.first { l.append("URL:" + first) }
        for link in e.links.dropFirst() { l.append("ATTACH:" + link) }
        if let c = e.category { l.append("X-TIMELINE-CATEGORY:" + ICSText.escape(c)) }
        if let s = e.series { l.append("X-TIMELINE-SERIES:" + ICSText.escape(s)) }
        if let a = e.amount {
            l.append("X-TIMELINE-AMOUNT" + (a.currency.map { ";X-CURRENCY=\($0)" } ?? "") + ":" + a.value.description)
        }
        for key in e.attributes.keys.sorted() where key != "DTSTAMP" {
            let value = e.attributes[key]!
            if Self.isPropertyName(key) {
                for v in value.split(separator: "\n", omittingEmptySubsequences: false) { l.append("\(key):\(v)") }
            } else {
                l.append("X-TIMELINE-ATTRIBUTE;X-NAME=\(Self.quoteParameter(key)):" + ICSText.escape(value))
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
            return "\(name);TZID=\(Self.parameterValue(zone)):" + Self.basic(instant.local(in: rules.offset(at: instant)))
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

    static func isPropertyName(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
            && !["BEGIN", "END", "UID", "DTSTAMP", "DTSTART", "DTEND"].contains(s)
    }

    /// A parameter value, quoted only when it holds `:` `;` or `,` (RFC 5545 §3.2).
    static func parameterValue(_ s: String) -> String {
        // Byte test: a ':' ';' ',' anywhere (even under a combining mark) needs quotes.
        s.utf8.contains(where: { $0 == 0x3A || $0 == 0x3B || $0 == 0x2C }) ? quoteParameter(s) : s
    }

    static func quoteParameter(_ s: String) -> String {
        let safe = s.replacingOccurrences(of: "^", with: "^^").replacingOccurrences(of: "\"", with: "^'").replacingOccurrences(of: "\n", with: "^n")
        return "\"" + safe + "\""
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
            let from = CivilDate(year: max(span.0 - 1, 1), month: 1, day: 1)!.daysSinceEpoch * 86_400
            let to = CivilDate(year: min(span.1 + 2, 9999), month: 1, day: 1)!.daysSinceEpoch * 86_400
            lines += ["BEGIN:VTIMEZONE", "TZID:\(zone)"]
            var before = rules.offset(atEpochSeconds: from)
            var cursor = from
            var wrote = false
            while let t = rules.nextTransition(afterEpochSeconds: cursor), t.at < to {
                let kind = t.offset.seconds > before.seconds ? "DAYLIGHT" : "STANDARD"
                let local = Instant(seconds: t.at).local(in: before)
                lines += ["BEGIN:\(kind)", "DTSTART:" + Self.basic(local), "TZOFFSETFROM:" + Self.offset(before), "TZOFFSETTO:" + Self.offset(t.offset), "END:\(kind)"]
                before = t.offset
                cursor = t.at
                wrote = true
            }
            if !wrote {
                lines += ["BEGIN:STANDARD", "DTSTART:" + Self.basic(Instant(seconds: from).local(in: before)), "TZOFFSETFROM:" + Self.offset(before),
                          "TZOFFSETTO:" + Self.offset(before), "END:STANDARD"]
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
