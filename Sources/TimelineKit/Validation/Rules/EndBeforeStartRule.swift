/// TZ114 (error): an end before its start (compared as instants, or as days when either is
/// an all-day date).
final class EndBeforeStartRule: EventRuleDeclaration, MergeableRule {
    static let code = FindingCode.endBeforeStart
    static let summary = "an end before its start"
    private var flagged = FlaggedEvents()

    init(_ context: ValidationContext) {}

    static func digest(_ batch: ValidationBatch, _ context: ValidationContext) -> FlaggedEvents {
        let zone = context.displayZone.rules
        var d = FlaggedEvents()
        for e in batch.facts {
            guard let end = batch.end(of: e) else { continue }
            let wrong: Bool
            if let a = e.instant, let b = end.instant {
                wrong = b < a
            } else {
                let startDay = e.date ?? zone.day(of: e.instant!)
                let endDay = end.date ?? zone.day(of: end.instant!)
                wrong = endDay < startDay
            }
            if wrong { d.add(batch.example(e, note: "ends \(batch.notes[end.text])")) }
        }
        return d
    }

    var absorbed: FlaggedEvents { flagged }

    func absorb(_ d: consuming FlaggedEvents, _ numbers: BatchNumbers) {
        flagged.add(d)
    }

    func finish(_ names: RunNames) -> Finding? {
        guard flagged.count > 0 else { return nil }
        return Finding(
            code: Self.code, severity: .error, count: flagged.count,
            message:
                "\(flagged.count) event(s) end before they start; check the end column's zone and format",
            examples: flagged.examples)
    }
}

extension FindingCode {
    /// TZ114: an end before its start.
    public static let endBeforeStart = FindingCode("TZ114", name: "end-before-start")
}
