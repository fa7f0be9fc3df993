/// TZ108 (warning): a file whose start times are all midnight in one offset — dates stored as
/// midnight instants — and that land on another day in the display zone.
struct DateAsMidnightRule: ValidationRule {
    var code: FindingCode { .dateAsMidnight }

    func check(_ context: ValidationContext) -> Finding? {
        // One pass that copies no events: per file, whether every start so far is a timed
        // midnight in one offset. Only files that stay so are looked at again.
        struct FileState {
            var indices: [Int] = []
            var offset: UTCOffset?
            var qualifies = true
        }
        var byFile: [String: FileState] = [:]
        for (i, e) in context.events.enumerated() {
            let file = e.source?.file ?? "-"
            var state = byFile[file] ?? FileState()
            if state.qualifies {
                if let t = e.start.local, let offset = e.start.offset, t.hour == 0, t.minute == 0, t.second == 0, t.nanosecond == 0,
                    state.offset == nil || state.offset == offset
                {
                    state.offset = offset
                    state.indices.append(i)
                } else {
                    state.qualifies = false
                    state.indices = []
                }
            }
            byFile[file] = state
        }
        var flagged: [Event] = []
        var notes: [String] = []
        for (file, state) in byFile.sorted(by: { $0.key < $1.key }) {
            guard state.qualifies, state.indices.count >= 2, let offset = state.offset else { continue }
            let shifted = state.indices.map { context.events[$0] }.filter { context.displayZone.rules.day(of: $0.start.instant!) != $0.start.local!.date }
            guard !shifted.isEmpty else { continue }
            flagged += shifted
            notes.append("\(file): all at 00:00 \(offset.isoString)")
        }
        guard !flagged.isEmpty else { return nil }
        return Finding(
            code: code, severity: .warning, count: flagged.count,
            message: "dates stored as midnight instants (\(notes.joined(separator: "; "))) land on the previous or next day in "
                + "\(context.displayZone.identifier); read them as dates (e.g. --date-format yyyy-MM-dd on the date part) or count days in their offset",
            examples: flagged.map { $0.example() })
    }
}
