/// TZ107 (warning): a series whose events, as one source lists them, are out of time order
/// as written but in order once the events written with one offset are shifted by that
/// offset — a feed writing UTC clock readings with a `+08:00` label, say, so "delivered"
/// lands 8 hours before "shipped".
///
/// The evidence is the source's own listing order (ascending, or newest first as courier
/// traces are): it does not depend on how coarse the statuses are ("paid" is completed
/// before "shipped" in correct data). Only a source's own offset, either way, is tried as
/// the shift. Not yet compared: one series spread over several files.
final class SuspectZoneShiftRule: ValidationRule {
    var code: FindingCode { .suspectZoneShift }

    /// One event of a series as its source lists it: what the order check needs, and what
    /// an example needs (the line and the start's source text).
    private struct Entry {
        var record: Int
        var seconds: Int64
        var offset: Int32
        var line: Int32
        var value: String
    }

    private struct SeriesKey: Hashable {
        var series: String
        var file: Int
    }

    private var lists: [SeriesKey: [Entry]] = [:]
    private var files: [String] = []
    private var fileIndex: [String: Int] = [:]

    func observe(_ e: Event) {
        guard let series = e.series, let instant = e.start.instant, let offset = e.start.offset, let source = e.source else { return }
        let entry = Entry(
            record: source.record, seconds: instant.seconds, offset: Int32(offset.seconds), line: Int32(clamping: source.line ?? -1),
            value: e.start.raw ?? e.start.rfc3339)
        lists[SeriesKey(series: series, file: index(of: source.file)), default: []].append(entry)
    }

    private func index(of file: String) -> Int {
        if let last = files.last, last == file { return files.count - 1 }
        if let i = fileIndex[file] { return i }
        files.append(file)
        fileIndex[file] = files.count - 1
        return files.count - 1
    }

    func finish() -> Finding? {
        var flagged = FlaggedEvents()
        var notes: [String] = []
        // In the order of "series<US>file", as findings have always been listed.
        let keys = lists.keys.filter { lists[$0]!.count >= 3 }.sorted { "\($0.series)\u{1F}\(files[$0.file])" < "\($1.series)\u{1F}\(files[$1.file])" }
        for key in keys {
            let entries = lists[key]!.sorted { $0.record < $1.record }
            let times = entries.map(\.seconds)
            guard let direction = Self.direction(times), !Self.monotonic(times, direction) else { continue }
            let offsets = Set(entries.map { Int($0.offset) })
            guard offsets.count >= 2 else { continue }
            search: for offset in offsets.sorted(by: { ($0 == 0 ? 1 : 0, $0) < ($1 == 0 ? 1 : 0, $1) }) {  // labelled offsets first
                let members = entries.indices.filter { Int(entries[$0].offset) == offset }
                let shifts = offset != 0 ? [offset] : offsets.filter { $0 != 0 }.sorted()
                for shift in shifts.flatMap({ [$0, -$0] }) where shift % 3600 == 0 {
                    var shifted = times
                    for i in members { shifted[i] += Int64(shift) }
                    guard Self.monotonic(shifted, direction) else { continue }
                    let hours = shift / 3600
                    notes.append("\(key.series): the \(UTCOffset(seconds: offset).isoString) times by \(hours > 0 ? "+" : "")\(hours) h")
                    for i in members {
                        let entry = entries[i]
                        flagged.add(Finding.Example(
                            file: files[key.file], line: entry.line < 0 ? nil : Int(entry.line), value: entry.value,
                            note: "in order only if shifted \(hours > 0 ? "+" : "")\(hours) h"))
                    }
                    break search
                }
            }
        }
        guard flagged.count > 0 else { return nil }
        return Finding(
            code: code, severity: .warning, count: flagged.count,
            message: "events out of their source's order unless one offset's times are shifted (\(notes.prefix(4).joined(separator: "; "))"
                + (notes.count > 4 ? "; …" : "") + "): those times are probably labelled with the wrong offset; fix the source's zone "
                + "(--assume-zone or --map zone=COLUMN for naive values)",
            examples: flagged.examples)
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
