extension ICSFormat {
    /// The properties whose TZID says which zone an event's times are in.
    private static let timeProperties: Set<String> = ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID"]

    /// A calendar's zone: its `X-WR-TIMEZONE` when the zone is known, else the one zone its
    /// events' times name by TZID (an IANA or Windows name, or a VTIMEZONE of the file);
    /// `several` when they name more than one. UTC and floating times name none.
    static func declaredZone(in input: InputReader, parser: DateParser) throws(TimelineError) -> DeclaredZone? {
        let components = try ICSComponent.read(input) { _ in }
        for calendar in components where calendar.name == "VCALENDAR" {
            if let name = calendar.property("X-WR-TIMEZONE")?.value.trimmingSpaces, case .success(let zone) = parser.zone(named: name) {
                return .one(zone, reason: "the calendar's X-WR-TIMEZONE")
            }
        }
        var tzids: [String] = []
        func collect(_ c: ICSComponent) {
            if ["VEVENT", "VTODO", "VJOURNAL"].contains(c.name) {
                for p in c.properties where timeProperties.contains(p.name) {
                    if let tzid = p.parameter("TZID")?.trimmingSpaces, !tzid.isEmpty, !tzids.contains(tzid) { tzids.append(tzid) }
                }
            }
            c.children.forEach(collect)
        }
        components.forEach(collect)
        guard !tzids.isEmpty else { return nil }
        // Names of one zone count once (`/mozilla.org/…/Europe/Berlin` and `Europe/Berlin`);
        // a TZID nothing defines names no zone.
        var zones: [ResolvedZone] = []
        for tzid in tzids {
            guard let zone = resolve(tzid, in: components, parser: parser) else { continue }
            if !zones.contains(where: { $0.identifier == zone.identifier }) { zones.append(zone) }
        }
        guard zones.count == 1 else { return zones.isEmpty ? nil : .several(zones.map(\.identifier)) }
        return .one(zones[0], reason: "the one zone the calendar's times name")
    }

    /// The zone a TZID names: a known name, else the file's VTIMEZONE of that TZID.
    private static func resolve(_ tzid: String, in components: [ICSComponent], parser: DateParser) -> ResolvedZone? {
        if case .success(let zone) = parser.zone(named: tzid) { return zone }
        var defined: ZoneRules?
        func find(_ c: ICSComponent) {
            if defined == nil, c.name == "VTIMEZONE", c.property("TZID")?.value.trimmingSpaces == tzid {
                defined = ICSTimeZone.rules(c, through: ICSTimeZone.lastYearUsed(by: components, window: nil))
            }
            c.children.forEach(find)
        }
        components.forEach(find)
        return defined.map { ResolvedZone(rules: $0, kind: .iana) }
    }
}
