/// TZ107 (warning): a series whose events, as one source lists them, are out of time order
/// as written but in order once some of them are shifted by their offset — a feed writing
/// UTC clock readings with a `+08:00` label, say, so "delivered" lands 8 hours before
/// "shipped". The events shifted are, in turn: those written with one offset (when the
/// series has several); those of one origin, when a column says which system wrote each
/// event (`EventFacts.originKeys`: a courier's scans among a shop's events, all labelled
/// `+08:00`); one contiguous run of at least two events that sit between a quarter of the
/// shift and the whole shift too early (or too late), the only disorder in the list; else
/// every event out of place, each by between a quarter of its offset and the whole offset,
/// when there are at least two and shifting each by its offset mends the list.
///
/// The evidence is the source's own listing order (ascending, or newest first as courier
/// traces are): it does not depend on how coarse the statuses are ("paid" is completed
/// before "shipped" in correct data). Only the events' own offset, either way, is tried as
/// the shift. Not yet compared: one series spread over several files.
final class SuspectZoneShiftRule: PartitionedRule {
    static let code = FindingCode.suspectZoneShift
    static let summary =
        "a series whose statuses are in order only after shifting one source by whole hours"
    static let partitionKey = PartitionKey.seriesOrFile
    static let readsAsAbsorbed = true

    init(_ context: ValidationContext) {}

    /// One event of a series as its source lists it: what the order check needs, and for
    /// an example its line and the start's source text.
    struct Entry {
        var seconds: Int64
        var text: TextArena.Text
        var offset: Int32
        var line: Int32
        /// The next entry of its list, -1 for the last.
        var next: Int32
        /// The origin column's hash (`EventFacts.origin`), 0 without one.
        var origin: UInt32
    }

    /// One list per series and file, in the order read (which is line order within a
    /// file): what the first reading learns of it, and for a list read again (`rereads`)
    /// its entries, a chain through `entries`.
    fileprivate struct List {
        var file: Int32
        var series: Int32
        var first: Int32 = -1
        var last: Int32 = -1
        var count = 0
        /// The series' list in the file read before this one, -1 for none.
        var sameSeries: Int32 = -1
        /// The last event read: its time and line.
        var lastSeconds: Int64 = 0
        var lastLine: Int32 = 0
        /// Whether a step between events read one after the other went up, down, or to
        /// an earlier line (a file read twice: the order is not the lines').
        var wentUp = false
        var wentDown = false
        var linesBack = false
        /// Whether the second reading keeps its entries.
        var rereads = false

        init(file: Int32, series: Int32, sameSeries: Int32) {
            self.file = file
            self.series = series
            self.sameSeries = sameSeries
        }

        /// False when the first reading shows it cannot be flagged: in its source's order
        /// already, or with no steps both ways (no direction of its own: see finishPart).
        /// Most lists are; only the rest are read again and checked in full.
        var mayBeShifted: Bool { count >= 3 && (linesBack || (wentUp && wentDown)) }

        /// Counts the next event read.
        mutating func step(to seconds: Int64, line: Int32) {
            if count > 0 {
                if line < lastLine { linesBack = true }
                if seconds > lastSeconds {
                    wentUp = true
                } else if seconds < lastSeconds {
                    wentDown = true
                }
            }
            count += 1
            lastSeconds = seconds
            lastLine = line
        }
    }

    /// Every list: a value type the rule holds as one property, so reading a batch is one
    /// access to the rule's state, not one (checked at run time) per entry.
    fileprivate struct Lists {
        var entries = ChunkedArray<Entry>()
        var texts = TextArena()
        var lists: [List] = []
        /// The newest list of each series (by its number), -1 for none; a series listed in
        /// several files chains its older lists through `List.sameSeries`.
        var firstListOfSeries: [Int32] = []
        /// By series number, whether one of its lists is read again (empty until the first
        /// reading is over).
        var rereadSeries: [Bool] = []
    }

    private var all = Lists()

    /// The first reading counts each list's steps, keeping no entries: a list in its
    /// source's order (almost all) needs nothing more.
    func read(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
        all.read(batch, numbers)
    }

    var approximateBytes: Int {
        all.lists.count * MemoryLayout<List>.stride + all.firstListOfSeries.count * 4 + all.entries
            .count * MemoryLayout<Entry>.stride
    }

    func rereads() -> Bool {
        all.markRereads()
    }

    /// The second reading keeps the entries of the lists that may be shifted.
    func reread(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
        all.reread(batch, numbers)
    }

    /// What one partition found: how many lists are in order only once shifted and how
    /// many events were shifted, and the first of those lists (by series, then file), each
    /// with its note and its first examples.
    struct Part {
        var lists = 0
        var events = 0
        var first: [(order: String, note: String, examples: [Finding.Example])] = []
    }

    func finishPart(_ names: RunNames) -> Part {
        var flagged:
            [(
                order: String, series: String, file: String, offset: Int, hours: Int,
                subset: String, members: [Int32]
            )] = []
        var listed: [(number: Int32, entry: Entry)] = []
        var times: [Int64] = []
        for list in all.lists where list.rereads {
            all.entries(of: list, into: &listed)
            times.removeAll(keepingCapacity: true)
            times.append(contentsOf: listed.lazy.map(\.entry.seconds))
            // A listing with as many steps up as down shows no direction of its own: ascending,
            // as sources list far more often, is tried first.
            let entries = listed.map(\.entry)
            let directions = Self.direction(times).map { [$0] } ?? [1, -1]
            let found = directions.lazy.compactMap { d in
                Self.monotonic(times, d) ? nil : Self.shiftedSubset(entries, times, d)
            }.first
            if let (members, offset, shift, subset) = found {
                let series = names.series.strings[Int(list.series)]
                let file = names.files.strings[Int(list.file)]
                // In the order of "series<US>file", as findings have always been listed.
                flagged.append(
                    (
                        series + "\u{1F}" + file, series, file, offset, shift / 3600, subset,
                        members.map { listed[$0].number }
                    ))
            }
        }
        var part = Part(lists: flagged.count, events: flagged.reduce(0) { $0 + $1.members.count })
        for list in flagged.sorted(by: { $0.order < $1.order }).prefix(Finding.maximumExamples) {
            let hours = list.hours
            let shift = "\(hours > 0 ? "+" : "")\(hours) h"
            part.first.append(
                (
                    list.order,
                    "\(list.series): \(list.subset) \(UTCOffset(seconds: list.offset).isoString) times by \(shift)",
                    list.members.prefix(Finding.maximumExamples).map { n in
                        let entry = all.entries[Int(n)]
                        return Finding.Example(
                            file: list.file, line: entry.line < 0 ? nil : Int(entry.line),
                            value: all.text(of: Int(n)),
                            note: "in order only if shifted \(shift)")
                    }
                ))
        }
        return part
    }

    static func finding(combining parts: [Part]) -> Finding? {
        let lists = parts.reduce(0) { $0 + $1.lists }
        guard lists > 0 else { return nil }
        let first = parts.flatMap(\.first).sorted { $0.order < $1.order }.prefix(
            Finding.maximumExamples)
        let examples = first.flatMap(\.examples).prefix(Finding.maximumExamples)
        return Finding(
            code: Self.code, severity: .warning, count: parts.reduce(0) { $0 + $1.events },
            message:
                "events out of their source's order unless some of their times are shifted (\(first.prefix(4).map(\.note).joined(separator: "; "))"
                + (lists > 4 ? "; …" : "")
                + "): those times are probably labelled with the wrong offset; fix the source's zone "
                + "(\(.assumeZone) or \(.map, "zone=COLUMN") for naive values)",
            examples: Array(examples))
    }

    /// The events of a list (indices into `entries`) that are in order once shifted, with
    /// their offset, the shift and which subset they are (for the message); nil when no
    /// subset tried explains the disorder. See the type's comment for the subsets.
    static func shiftedSubset(_ entries: [Entry], _ times: [Int64], _ direction: Int) -> (
        members: [Int], offset: Int, shift: Int, subset: String
    )? {
        func works(_ members: [Int], _ shift: Int) -> Bool {
            mends(members, by: shift, times, direction)
        }
        let offsets = Set(entries.map { Int($0.offset) })
        if offsets.count >= 2 {
            // labelled offsets first
            for offset in offsets.sorted(by: { ($0 == 0 ? 1 : 0, $0) < ($1 == 0 ? 1 : 0, $1) }) {
                let members = entries.indices.filter { Int(entries[$0].offset) == offset }
                let shifts = offset != 0 ? [offset] : offsets.filter { $0 != 0 }.sorted()
                for shift in shifts.flatMap({ [$0, -$0] }) where works(members, shift) {
                    return (members, offset, shift, "the")
                }
            }
        }
        // One origin's events, all in one offset: UTC readings labelled with the offset
        // (shifted forward by it) first, as the commoner mistake, then the other way.
        let origins = Set(entries.map(\.origin))
        if origins.count >= 2, !origins.contains(0) {
            for sign in [1, -1] {
                for origin in origins.sorted() {
                    let members = entries.indices.filter { entries[$0].origin == origin }
                    let memberOffsets = Set(members.map { Int(entries[$0].offset) })
                    guard members.count >= 2, memberOffsets.count == 1,
                        let offset = memberOffsets.first
                    else { continue }
                    if works(members, sign * offset) {
                        return (members, offset, sign * offset, "one origin's")
                    }
                }
            }
        }
        return run(entries, times, direction) ?? scattered(entries, times, direction)
    }

    /// One contiguous run: the only disorder is at one of its ends.
    static func run(_ entries: [Entry], _ times: [Int64], _ direction: Int) -> (
        members: [Int], offset: Int, shift: Int, subset: String
    )? {
        func works(_ members: [Int], _ shift: Int) -> Bool {
            mends(members, by: shift, times, direction)
        }
        guard entries.count >= 4, entries.count <= 512 else { return nil }
        let breaks = (0..<times.count - 1).filter {
            direction > 0 ? times[$0 + 1] < times[$0] : times[$0 + 1] > times[$0]
        }
        guard breaks.count == 1, let b = breaks.first else { return nil }
        let disorder = Int(abs(times[b] - times[b + 1]))
        // A run that begins after the break (too early, ascending) or ends at it (too late).
        var candidates: [Range<Int>] = []
        if b + 3 <= entries.count { candidates += (b + 3...entries.count).map { (b + 1)..<$0 } }
        if b >= 1 { candidates += (0...(b - 1)).map { $0..<(b + 1) } }
        // The longest run that explains it: a feed's readings stay wrong to its last one.
        for run in candidates.sorted(by: { $0.count > $1.count })
        where run.count >= 2 && entries.count - run.count >= 2 {
            let runOffsets = Set(run.map { Int(entries[$0].offset) })
            guard runOffsets.count == 1, let offset = runOffsets.first, offset != 0 else {
                continue
            }
            let shift = (run.lowerBound == b + 1) == (direction > 0) ? abs(offset) : -abs(offset)
            guard disorder * 4 >= abs(shift), disorder < abs(shift), works(Array(run), shift) else {
                continue
            }
            return (Array(run), offset, shift, "a run of \(run.count)")
        }
        return nil
    }

    /// Events scattered among the others, each out of place by between a quarter of its
    /// offset and the whole offset — a feed's UTC readings labelled with the offset, between
    /// events written right: too early for a positive offset (below the latest time listed
    /// before it), too late for a negative one (above the earliest listed after it). At least
    /// two, and shifting each by its own offset must mend the list.
    static func scattered(_ entries: [Entry], _ times: [Int64], _ direction: Int) -> (
        members: [Int], offset: Int, shift: Int, subset: String
    )? {
        let n = times.count
        guard n >= 4, n <= 512 else { return nil }
        // In ascending order (a newest-first listing read from its end).
        let order = direction > 0 ? Array(0..<n) : Array((0..<n).reversed())
        let ascending = order.map { times[$0] }
        var latestBefore = [Int64](repeating: .min, count: n)
        var earliestAfter = [Int64](repeating: .max, count: n)
        for i in 1..<n { latestBefore[i] = max(latestBefore[i - 1], ascending[i - 1]) }
        for i in (0..<(n - 1)).reversed() {
            earliestAfter[i] = min(earliestAfter[i + 1], ascending[i + 1])
        }
        var members: [Int] = []
        for i in 0..<n {
            let offset = Int64(entries[order[i]].offset)
            // How far the event is out of place in the direction its offset would explain.
            let bound = offset > 0 ? latestBefore[i] : earliestAfter[i]
            guard offset != 0, offset % 3600 == 0, bound != .min, bound != .max else { continue }
            let disorder =
                offset > 0
                ? bound.subtractingReportingOverflow(ascending[i])
                : ascending[i].subtractingReportingOverflow(bound)
            guard !disorder.overflow, disorder.partialValue > 0 else { continue }
            guard disorder.partialValue * 4 >= abs(offset), disorder.partialValue < abs(offset)
            else { return nil }
            members.append(order[i])
        }
        guard members.count >= 2, n - members.count >= 2 else { return nil }
        var shifted = times  // each by its own offset
        for i in members { shifted[i] += Int64(entries[i].offset) }
        guard monotonic(shifted, direction) else { return nil }
        let offsets = Set(members.map { Int(entries[$0].offset) })
        let offset = offsets.count == 1 ? offsets.first! : Int(entries[members[0]].offset)
        return (members.sorted(), offset, offset, "\(members.count) scattered")
    }

    /// Whether shifting `members` by `shift` (whole hours) puts the listing in order.
    static func mends(_ members: [Int], by shift: Int, _ times: [Int64], _ direction: Int) -> Bool {
        guard shift != 0, shift % 3600 == 0 else { return false }
        var shifted = times
        for i in members { shifted[i] += Int64(shift) }
        return monotonic(shifted, direction)
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

extension SuspectZoneShiftRule.Lists {
    typealias Entry = SuspectZoneShiftRule.Entry
    typealias List = SuspectZoneShiftRule.List

    /// Calls `body` with each event of a series in `batch` that the rule reads and the
    /// number of its list (made if new), in input order (`numbers`: the batch's numbers
    /// here). `wanted`, when given, says by series number which series to look at.
    private mutating func forEachListed(
        _ batch: ValidationBatch, _ numbers: BatchNumbers, wanted: [Bool]? = nil,
        _ body: (inout Self, EventFacts, Int, Int64, Int32) -> Void
    ) {
        // The run's list of each (file, series) of the batch, by file × series number.
        let seriesCount = batch.series.count
        var listOf = [Int32](repeating: -1, count: batch.files.count * seriesCount)
        for e in batch.facts {
            guard e.hasSeries, e.hasSource, let instant = e.instant, let offset = e.offset else {
                continue
            }
            if let wanted, !wanted[Int(numbers.series[Int(e.series)])] { continue }
            let place = Int(e.file) * seriesCount + Int(e.series)
            if listOf[place] < 0 {
                listOf[place] = list(
                    file: numbers.files[Int(e.file)], series: numbers.series[Int(e.series)])
            }
            body(&self, e, Int(listOf[place]), instant.seconds, Int32(offset.seconds))
        }
    }

    /// Counts a batch's events of a series into their lists' steps.
    mutating func read(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
        forEachListed(batch, numbers) { all, e, l, seconds, _ in
            all.lists[l].step(to: seconds, line: e.line)
        }
    }

    /// Marks the lists that may be shifted to be read again; false when there are none.
    mutating func markRereads() -> Bool {
        rereadSeries = Array(repeating: false, count: firstListOfSeries.count)
        var any = false
        for l in lists.indices where lists[l].mayBeShifted {
            lists[l].rereads = true
            rereadSeries[Int(lists[l].series)] = true
            any = true
        }
        return any
    }

    /// Appends a batch's events of the lists read again to their chains, in input order.
    mutating func reread(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
        var textBase: Int?
        forEachListed(batch, numbers, wanted: rereadSeries) { all, e, l, seconds, offset in
            guard all.lists[l].rereads else { return }
            let base = textBase ?? all.texts.append(batch.starts)
            textBase = base
            let n = Int32(all.entries.count)
            all.entries.append(
                Entry(
                    seconds: seconds,
                    text: TextArena.Text(start: e.startText.start + base, count: e.startText.count),
                    offset: offset,
                    line: e.line, next: -1, origin: e.origin))
            if all.lists[l].last >= 0 {
                all.entries[Int(all.lists[l].last)].next = n
            } else {
                all.lists[l].first = n
            }
            all.lists[l].last = n
        }
    }

    /// The number of the list of a file and series, made if new.
    private mutating func list(file: Int32, series: Int32) -> Int32 {
        let s = Int(series)
        // Series are numbered as they come: a new one is almost always the next, one append.
        while s >= firstListOfSeries.count { firstListOfSeries.append(-1) }
        var l = firstListOfSeries[s]
        while l >= 0 {
            if lists[Int(l)].file == file { return l }
            l = lists[Int(l)].sameSeries
        }
        // The newest list goes first: a batch is one file's, so its events find their list
        // at the head however many files the series spans.
        let list = Int32(lists.count)
        lists.append(List(file: file, series: series, sameSeries: firstListOfSeries[s]))
        firstListOfSeries[s] = list
        return list
    }

    /// The entries of `list` in line order, with their numbers, into `out`.
    func entries(of list: List, into out: inout [(number: Int32, entry: Entry)]) {
        out.removeAll(keepingCapacity: true)
        var i = list.first
        var sorted = true
        while i >= 0 {
            let entry = entries[Int(i)]
            if let previous = out.last, previous.entry.line > entry.line { sorted = false }
            out.append((i, entry))
            i = entry.next
        }
        // Only when one file was read twice: its two copies interleave by line.
        if !sorted { out.sort { ($0.entry.line, $0.number) < ($1.entry.line, $1.number) } }
    }

    func text(of entryNumber: Int) -> String {
        texts[entries[entryNumber].text]
    }
}

extension SuspectZoneShiftRule.Part: StateCodable {
    func encode(to out: inout [UInt8]) {
        FlaggedKeysCoding.encode(flagged: lists, events: events, first: first, to: &out) {
            list, out in
            BinaryWriter.string(list.order, &out)
            BinaryWriter.string(list.note, &out)
            list.examples.encode(to: &out)
        }
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        (lists, events, first) = try FlaggedKeysCoding.decode(&r) {
            (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
            (try r.string(), try r.string(), try r.list())
        }
    }
}

extension FindingCode {
    /// TZ107: a series in order only after shifting one offset's times by whole hours.
    public static let suspectZoneShift = FindingCode("TZ107", name: "suspect-zone-shift")
}
