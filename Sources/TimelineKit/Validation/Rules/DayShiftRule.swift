/// TZ103 (warning): events whose calendar day in the display zone differs from their day in
/// the offset they were written in — the UTC server time that lands on the wrong day on a
/// UTC+8 phone. Epoch values have no written offset and are not counted.
struct DayShiftRule: ValidationRule {
    var code: FindingCode { .dayShift }

    func check(_ context: ValidationContext) -> Finding? {
        var moved: [(Event, CivilDate, CivilDate)] = []
        for e in context.events {
            guard let instant = e.start.instant, let local = e.start.local, e.start.basis != .epoch else { continue }
            let shown = context.displayZone.rules.day(of: instant)
            if shown != local.date { moved.append((e, local.date, shown)) }
        }
        guard !moved.isEmpty else { return nil }
        var perDay: [String: Int] = [:]
        for (_, from, to) in moved { perDay["\(from.isoString) → \(to.isoString)", default: 0] += 1 }
        let days = perDay.sorted { $0.key < $1.key }.prefix(6).map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let zone = context.displayZone.identifier
        return Finding(
            code: code, severity: .warning, count: moved.count,
            message: "\(moved.count) event(s) fall on another calendar day in \(zone) than in the offset they were written in (\(days)"
                + (perDay.count > 6 ? ", …" : "") + "); if people saw the written day, group in their zone with --zone",
            examples: moved.map { $0.0.example(note: "\($0.1.isoString) written, \($0.2.isoString) in \(zone)") })
    }
}
