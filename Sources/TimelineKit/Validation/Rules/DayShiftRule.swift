/// TZ103 (warning): events whose calendar day in the display zone differs from their day in
/// the offset they were written in — the UTC server time that lands on the wrong day on a
/// UTC+8 phone. Epoch values have no written offset and are not counted.
final class DayShiftRule: ValidationRule {
    var code: FindingCode { .dayShift }
    private let zone: ResolvedZone
    private var flagged = FlaggedEvents()
    /// How many events moved from each written day to each shown day.
    private var perDay: [DayMove: Int] = [:]

    private struct DayMove: Hashable {
        var written: CivilDate
        var shown: CivilDate
        var description: String { "\(written.isoString) → \(shown.isoString)" }
    }

    init(_ context: ValidationContext) {
        zone = context.displayZone
    }

    func observe(_ e: Event) {
        guard let instant = e.start.instant, let local = e.start.local, e.start.basis != .epoch else { return }
        let shown = zone.rules.day(of: instant)
        guard shown != local.date else { return }
        perDay[DayMove(written: local.date, shown: shown), default: 0] += 1
        flagged.add(e.example(note: "\(local.date.isoString) written, \(shown.isoString) in \(zone.identifier)"))
    }

    func finish() -> Finding? {
        guard flagged.count > 0 else { return nil }
        let days = perDay.map { ($0.key.description, $0.value) }.sorted { $0.0 < $1.0 }.prefix(6).map { "\($0.0): \($0.1)" }.joined(separator: ", ")
        return Finding(
            code: code, severity: .warning, count: flagged.count,
            message: "\(flagged.count) event(s) fall on another calendar day in \(zone.identifier) than in the offset they were written in (\(days)"
                + (perDay.count > 6 ? ", …" : "") + "); if people saw the written day, group in their zone with --zone",
            examples: flagged.examples)
    }
}
