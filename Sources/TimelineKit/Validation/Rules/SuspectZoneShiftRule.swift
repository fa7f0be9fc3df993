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

    /// One event of a series as its source lists it: what the order check needs, what an
    /// example needs (the line and the start's source text), and the next entry of its list.
    struct Entry {
        var record: Int
        var seconds: Int64
        var offset: Int32
        var line: Int32
        var next: Int32 = -1
        var value: String
    }

    /// One list per series and file, numbered; each a chain through `entries` in the order
    /// read (which is record order within a file).
    private struct List {
        var file: Int
        var series: Int
        var first: Int32
        var last: Int32
        var count: Int
    }

    private var entries: [Entry] = []
    private var lists: [List] = []
    private var files = StringIndex()
    /// Per file: series names by number, and the list of each.
    private var seriesByFile: [(names: StringIndex, lists: [Int])] = []

    /// A batch's entries grouped by file and series as in the rule itself, with the series
    /// names hashed (on the worker thread).
    struct Digest {
        var files = StringIndex()
        var seriesByFile: [StringIndex] = []
        var lists: [(file: Int, series: Int, entries: [Entry])] = []
        var listBySeries: [[Int]] = []
    }

    func digest(_ events: UnsafeBufferPointer<EventFacts>) -> Digest {
        var d = Digest()
        events.forEachFact { e in
            guard e.pointee.series != nil, e.pointee.hasSource, let instant = e.pointee.instant, let offset = e.pointee.offset else { return }
            let (file, newFile) = d.files.number(of: e.pointee.file)
            if newFile {
                d.seriesByFile.append(StringIndex())
                d.listBySeries.append([])
            }
            let (s, newSeries) = d.seriesByFile[file].number(of: e.pointee.series!)
            if newSeries {
                d.listBySeries[file].append(d.lists.count)
                d.lists.append((file, s, []))
            }
            d.lists[d.listBySeries[file][s]].entries.append(Entry(
                record: e.pointee.record, seconds: instant.seconds, offset: Int32(offset.seconds), line: Int32(clamping: e.pointee.line ?? -1),
                value: e.pointee.startText))
        }
        return d
    }

    func absorb(_ d: consuming Digest) {
        let fileNumbers = d.files.strings.map { name in
            let (file, isNew) = files.number(of: name)
            if isNew { seriesByFile.append((StringIndex(), [])) }
            return file
        }
        for (localFile, localSeries, later) in d.lists {
            let file = fileNumbers[localFile]
            let names = d.seriesByFile[localFile]
            let (s, isNew) = seriesByFile[file].names.number(of: names.strings[localSeries], hash: names.hash(at: localSeries))
            let l: Int
            if isNew {
                l = lists.count
                seriesByFile[file].lists.append(l)
                lists.append(List(file: file, series: s, first: Int32(entries.count), last: -1, count: 0))
            } else {
                l = seriesByFile[file].lists[s]
            }
            for entry in later {
                let n = Int32(entries.count)
                entries.append(entry)
                if lists[l].last >= 0 { entries[Int(lists[l].last)].next = n }
                lists[l].last = n
                lists[l].count += 1
            }
        }
    }

    private func entries(of list: List) -> [Entry] {
        var out: [Entry] = []
        out.reserveCapacity(list.count)
        var i = list.first
        while i >= 0 {
            out.append(entries[Int(i)])
            i = entries[Int(i)].next
        }
        return out
    }

    func finish() -> Finding? {
        var flagged = FlaggedEvents()
        var notes: [String] = []
        // In the order of "series<US>file", as findings have always been listed.
        let candidates = lists.filter { $0.count >= 3 }.map { list in
            let series = seriesByFile[list.file].names.strings[list.series]
            let file = files.strings[list.file]
            return (order: series + "\u{1F}" + file, list, series, file)
        }.sorted { $0.order < $1.order }
        for (_, list, series, file) in candidates {
            let entries = entries(of: list).sorted { $0.record < $1.record }
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
                    notes.append("\(series): the \(UTCOffset(seconds: offset).isoString) times by \(hours > 0 ? "+" : "")\(hours) h")
                    for i in members {
                        let entry = entries[i]
                        flagged.add(Finding.Example(
                            file: file, line: entry.line < 0 ? nil : Int(entry.line), value: entry.value,
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
