/// TZ114 (error): an end before its start (compared as instants, or as days when either is
/// an all-day date).
final class EndBeforeStartRule: ValidationRule {
    var code: FindingCode { .endBeforeStart }
    private let zone: ZoneRules
    private var flagged = FlaggedEvents()

    init(_ context: ValidationContext) {
        zone = context.displayZone.rules
    }

    func digest(_ events: UnsafeBufferPointer<EventFacts>) -> FlaggedEvents {
        var d = FlaggedEvents()
        events.forEachFact { e in
            guard let end = e.pointee.end else { return }
            let wrong: Bool
            if let a = e.pointee.instant, let b = end.instant {
                wrong = b < a
            } else {
                let startDay = e.pointee.date ?? zone.day(of: e.pointee.instant!)
                let endDay = end.date ?? zone.day(of: end.instant!)
                wrong = endDay < startDay
            }
            if wrong { d.add(e.pointee.example(note: "ends \(end.raw ?? end.rfc3339)")) }
        }
        return d
    }

    func absorb(_ d: consuming FlaggedEvents) {
        flagged.add(d)
    }

    func finish() -> Finding? {
        guard flagged.count > 0 else { return nil }
        return Finding(
            code: code, severity: .error, count: flagged.count,
            message: "\(flagged.count) event(s) end before they start; check the end column's zone and format",
            examples: flagged.examples)
    }
}
