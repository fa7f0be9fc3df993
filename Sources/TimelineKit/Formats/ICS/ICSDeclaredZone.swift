extension ICSFormat {
    /// A calendar's zone: its `X-WR-TIMEZONE` when the zone is known, else the one zone its
    /// events' times name by TZID (an IANA or Windows name, or a VTIMEZONE of the file);
    /// `several` when they name more than one. UTC and floating times name none. Found by a
    /// scan of the unfolded lines, not a parse of the calendar (a run that names no zone
    /// reads the file once more for this); only a TZID no zone database knows has the file's
    /// components read, for its VTIMEZONE.
    static func declaredZone(in input: InputReader, parser: DateParser) throws(TimelineError)
        -> DeclaredZone?
    {
        let bytes = try input.readAll()
        var calendarZone: String?
        var tzids: [String] = []
        bytes.withByteView { all in
            forEachUnfoldedLine(all) { line in
                if calendarZone == nil, starts(line, "X-WR-TIMEZONE:", at: 0) {
                    calendarZone = line[14..<line.count].string.trimmingSpaces
                } else if let tzid = timeTZID(line), !tzid.isEmpty, !tzids.contains(tzid) {
                    tzids.append(tzid)
                }
            }
        }
        if let calendarZone, case .success(let zone) = parser.zone(named: calendarZone) {
            return .one(zone, reason: "the calendar's X-WR-TIMEZONE")
        }
        guard !tzids.isEmpty else { return nil }
        // Names of one zone count once (`/mozilla.org/…/Europe/Berlin` and `Europe/Berlin`);
        // a TZID nothing defines names no zone.
        var components: [ICSComponent]?
        var zones: [ResolvedZone] = []
        for tzid in tzids {
            var zone: ResolvedZone?
            if case .success(let known) = parser.zone(named: tzid) {
                zone = known
            } else {
                if components == nil {
                    components = try ICSComponent.read(InputReader(name: input.name, bytes: bytes))
                    { _ in }
                }
                zone = defined(tzid, in: components!)
            }
            guard let zone else { continue }
            if !zones.contains(where: { $0.identifier == zone.identifier }) { zones.append(zone) }
        }
        guard zones.count == 1 else {
            return zones.isEmpty ? nil : .several(zones.map(\.identifier))
        }
        return .one(zones[0], reason: "the one zone the calendar's times name")
    }

    /// Calls `body` with each content line, continuations joined (RFC 5545 §3.1).
    private static func forEachUnfoldedLine(_ p: ByteView, _ body: (ByteView) -> Void) {
        var pending: [UInt8] = []
        func flush() {
            if !pending.isEmpty { pending.withByteView(body) }
            pending.removeAll(keepingCapacity: true)
        }
        ExactLines.forEach(in: p) { _, line, _ in
            if line.count > 0, line[0] == 0x20 || line[0] == 0x09 {
                line[1..<line.count].append(to: &pending)
            } else {
                flush()
                line.append(to: &pending)
            }
        }
        flush()
    }

    /// The TZID parameter of a DTSTART, DTEND, DUE or RECURRENCE-ID line (`DTSTART;TZID=…:`).
    private static func timeTZID(_ line: ByteView) -> String? {
        guard let name = timePropertyNames.first(where: { starts(line, $0, at: 0) }) else {
            return nil
        }
        var i = name.utf8.count
        while i < line.count, line[i] != 0x3A {
            if starts(line, "TZID=", at: i) {
                var start = i + 5
                var end = start
                if start < line.count, line[start] == 0x22 {
                    start += 1
                    end = start
                    while end < line.count, line[end] != 0x22 { end += 1 }
                } else {
                    while end < line.count, line[end] != 0x3B, line[end] != 0x3A { end += 1 }
                }
                return line[start..<min(end, line.count)].string.trimmingSpaces
            }
            i += 1
        }
        return nil
    }

    private static let timePropertyNames = ["DTSTART;", "DTEND;", "DUE;", "RECURRENCE-ID;"]

    /// Whether `line` has `prefix` (ASCII, any case) at `start`.
    private static func starts(_ line: ByteView, _ prefix: String, at start: Int) -> Bool {
        var i = start
        for p in prefix.utf8 {
            guard i < line.count else { return false }
            let b = line[i]
            guard b == p || (p >= 0x41 && p <= 0x5A && b == p | 0x20) else { return false }
            i += 1
        }
        return true
    }

    /// The zone of a TZID only the file's VTIMEZONE of that TZID defines.
    private static func defined(_ tzid: String, in components: [ICSComponent]) -> ResolvedZone? {
        var defined: ZoneRules?
        func find(_ c: ICSComponent) {
            if defined == nil, c.name == "VTIMEZONE",
                c.property("TZID")?.value.trimmingSpaces == tzid
            {
                defined = ICSTimeZone.rules(
                    c, through: ICSTimeZone.lastYearUsed(by: components, window: nil))
            }
            c.children.forEach(find)
        }
        components.forEach(find)
        return defined.map { ResolvedZone(rules: $0, kind: .iana) }
    }
}
