/// TZ114 (error): an end before its start (compared as instants, or as days when either is
/// an all-day date).
struct EndBeforeStartRule: ValidationRule {
    var code: FindingCode { .endBeforeStart }

    func check(_ context: ValidationContext) -> Finding? {
        let zone = context.displayZone.rules
        let wrong = context.events.filter { e in
            guard let end = e.end else { return false }
            if let a = e.start.instant, let b = end.instant { return b < a }
            let startDay = e.start.date ?? zone.day(of: e.start.instant!)
            let endDay = end.date ?? zone.day(of: end.instant!)
            return endDay < startDay
        }
        guard !wrong.isEmpty else { return nil }
        return Finding(
            code: code, severity: .error, count: wrong.count,
            message: "\(wrong.count) event(s) end before they start; check the end column's zone and format",
            examples: wrong.map { $0.example(note: "ends \($0.end!.raw ?? $0.end!.rfc3339)") })
    }
}
