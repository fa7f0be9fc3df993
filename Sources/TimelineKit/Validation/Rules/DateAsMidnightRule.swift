/// TZ108 (warning): a file whose start times are all midnight in one offset — dates stored as
/// midnight instants — and that land on another day in the display zone.
struct DateAsMidnightRule: ValidationRule {
    var code: FindingCode { .dateAsMidnight }

    func check(_ context: ValidationContext) -> Finding? {
        var byFile: [String: [Event]] = [:]
        for e in context.events { byFile[e.source?.file ?? "-", default: []].append(e) }
        var flagged: [Event] = []
        var notes: [String] = []
        for (file, events) in byFile.sorted(by: { $0.key < $1.key }) {
            let timed = events.filter { $0.start.instant != nil }
            guard timed.count >= 2, timed.count == events.count else { continue }
            let offsets = Set(timed.map { $0.start.offset! })
            guard offsets.count == 1,
                timed.allSatisfy({ l in let t = l.start.local!; return t.hour == 0 && t.minute == 0 && t.second == 0 && t.nanosecond == 0 })
            else { continue }
            let shifted = timed.filter { context.displayZone.rules.day(of: $0.start.instant!) != $0.start.local!.date }
            guard !shifted.isEmpty else { continue }
            flagged += shifted
            notes.append("\(file): all at 00:00 \(offsets.first!.isoString)")
        }
        guard !flagged.isEmpty else { return nil }
        return Finding(
            code: code, severity: .warning, count: flagged.count,
            message: "dates stored as midnight instants (\(notes.joined(separator: "; "))) land on the previous or next day in "
                + "\(context.displayZone.identifier); read them as dates (e.g. --date-format yyyy-MM-dd on the date part) or count days in their offset",
            examples: flagged.map { $0.example() })
    }
}
