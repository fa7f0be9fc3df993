/// TZ107 (warning): a series whose events, as one source lists them, are out of time order
/// as written but in order once the events written with one offset are shifted by that
/// offset — a feed writing UTC clock readings with a `+08:00` label, say, so "delivered"
/// lands 8 hours before "shipped".
///
/// The evidence is the source's own listing order (ascending, or newest first as courier
/// traces are): it does not depend on how coarse the statuses are ("paid" is completed
/// before "shipped" in correct data). Only a source's own offset, either way, is tried as
/// the shift. Not yet compared: one series spread over several files.
struct SuspectZoneShiftRule: ValidationRule {
    var code: FindingCode { .suspectZoneShift }

    func check(_ context: ValidationContext) -> Finding? {
        // Indices, not events: copying every event into the lists cost more than the check.
        var lists: [String: [Int]] = [:]
        for (i, e) in context.events.enumerated() where e.series != nil && e.start.instant != nil && e.source != nil {
            lists["\(e.series!)\u{1F}\(e.source!.file)", default: []].append(i)
        }
        var flagged: [(Event, String)] = []
        var notes: [String] = []
        for (key, unordered) in lists.sorted(by: { $0.key < $1.key }) where unordered.count >= 3 {
            let order = unordered.sorted { context.events[$0].source!.record < context.events[$1].source!.record }
            let times = order.map { context.events[$0].start.instant!.seconds }
            guard let direction = Self.direction(times), !Self.monotonic(times, direction) else { continue }
            let events = order.map { context.events[$0] }
            let offsets = Set(events.map { $0.start.offset!.seconds })
            guard offsets.count >= 2 else { continue }
            search: for offset in offsets.sorted(by: { ($0 == 0 ? 1 : 0, $0) < ($1 == 0 ? 1 : 0, $1) }) {  // labelled offsets first
                let members = events.indices.filter { events[$0].start.offset!.seconds == offset }
                let shifts = offset != 0 ? [offset] : offsets.filter { $0 != 0 }.sorted()
                for shift in shifts.flatMap({ [$0, -$0] }) where shift % 3600 == 0 {
                    var shifted = times
                    for i in members { shifted[i] += Int64(shift) }
                    guard Self.monotonic(shifted, direction) else { continue }
                    let hours = shift / 3600
                    let series = key.split(separator: "\u{1F}").first.map(String.init) ?? key
                    notes.append("\(series): the \(UTCOffset(seconds: offset).isoString) times by \(hours > 0 ? "+" : "")\(hours) h")
                    flagged += members.map { (events[$0], "in order only if shifted \(hours > 0 ? "+" : "")\(hours) h") }
                    break search
                }
            }
        }
        guard !flagged.isEmpty else { return nil }
        return Finding(
            code: code, severity: .warning, count: flagged.count,
            message: "events out of their source's order unless one offset's times are shifted (\(notes.prefix(4).joined(separator: "; "))"
                + (notes.count > 4 ? "; …" : "") + "): those times are probably labelled with the wrong offset; fix the source's zone "
                + "(--assume-zone or --map zone=COLUMN for naive values)",
            examples: flagged.map { $0.0.example(note: $0.1) })
    }

    /// The listing's predominant direction: +1 ascending, -1 newest first; nil if flat.
    static func direction(_ times: [Int64]) -> Int? {
        var up = 0
        var down = 0
        for (a, b) in zip(times, times.dropFirst()) {
            if b > a { up += 1 } else if b < a { down += 1 }
        }
        return up == down ? nil : (up > down ? 1 : -1)
    }

    static func monotonic(_ times: [Int64], _ direction: Int) -> Bool {
        zip(times, times.dropFirst()).allSatisfy { direction > 0 ? $1 >= $0 : $1 <= $0 }
    }
}
