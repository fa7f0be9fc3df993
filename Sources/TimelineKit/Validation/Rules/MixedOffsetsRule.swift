import Foundation
import Synchronization

/// TZ102 (warning): one series (or, without series, one file) whose explicit offsets no
/// single IANA zone explains — a UTC server clock (`Z`) mixed with a UTC+8 phone clock, say.
/// A zone explains the offsets when its rules give exactly those offsets at those instants
/// (so New York's -05:00/-04:00 across DST is fine). A value that names its own zone (a zone
/// column, a `[Zone]` suffix) whose offset it has is explained by it and not counted: an
/// international order, Berlin rows at +02:00 and New York rows at -04:00, is clean.
///
/// A journey is clean too: a parcel scanned in Shenzhen at +08:00 and then in Leipzig at
/// +02:00, a day with a flight. Its offsets follow each other in time, each over a span of
/// its own (the clock changed as the place did), and none is written as UTC itself (`Z`, a
/// server's clock, not a place's). Where some events of a group name a place, only those
/// are compared: an event at no place (a label printed by a system) says nothing about a
/// move. Two clocks in one place interleave, or one of them is `Z`.
final class MixedOffsetsRule: PartitionedRule {
    static let code = FindingCode.mixedOffsets
    static let summary = "offsets in one series or file that no single zone's rules explain"
    static let partitionKey = PartitionKey.seriesOrFile
    static let readsAsAbsorbed = true

    init(_ context: ValidationContext) {}

    /// How many events of a group carry one offset, and how many of their instants are kept
    /// as samples (the first `samplesPerOffset`: what a zone is checked against).
    struct Tally {
        var offset: Int32
        var count: Int
        var sampled: Int32 = 0
        /// The earliest and latest instant of its events, and of those at a place.
        var span: ClosedRange<Int64>?
        var spanAtAPlace: ClosedRange<Int64>?

        mutating func widen(_ seconds: Int64, atAPlace: Bool) {
            span = Self.widened(span, seconds)
            if atAPlace { spanAtAPlace = Self.widened(spanAtAPlace, seconds) }
        }

        private static func widened(_ span: ClosedRange<Int64>?, _ seconds: Int64) -> ClosedRange<
            Int64
        > {
            span.map { min($0.lowerBound, seconds)...max($0.upperBound, seconds) }
                ?? seconds...seconds
        }
    }

    /// One series (or, for events without a series, one file): its tallies — the first two
    /// inline, since a third offset is rare, the rest in `Groups.more` — and how many
    /// examples it keeps (the first two). Plain values only, so counting an event updates
    /// it in place without retaining anything.
    struct Group {
        var series: Int32
        var file: Int32
        var total = 0
        var first: Tally?
        var second: Tally?
        var moreCount: Int32 = 0
        var examples: Int8 = 0
        /// Some start is written as UTC itself (`Z`); some event is at a place.
        var writtenInUTC = false
        var atAPlace = false

        var offsetCount: Int { first == nil ? 0 : second == nil ? 1 : 2 + Int(moreCount) }
    }

    /// A sampled instant of a group.
    struct Sample {
        var seconds: Int64
        var offset: Int32
        var group: Int32
    }

    /// An example a group keeps: where its event is and its start as written.
    struct Example {
        var group: Int32
        var offset: Int32
        var file: Int32
        var line: Int32
        var text: TextArena.Text
    }

    /// The groups of a partition, by the series and files it numbers.
    struct Groups {
        var groups = ChunkedArray<Group>()
        var bySeries: [Int32] = []
        var byFile: [Int32] = []
        var samples = ChunkedArray<Sample>()
        var examples = ChunkedArray<Example>()
        var texts = TextArena()
        /// The tallies of a group past its second, by group number.
        var more: [Int32: [Tally]] = [:]

        /// A group's tallies, in the order their offsets came.
        func tallies(of g: Int) -> [Tally] {
            [groups[g].first, groups[g].second].compactMap { $0 } + (more[Int32(g)] ?? [])
        }

        /// The number of the group of a series (or, with `series` -1, of a file).
        mutating func group(series: Int32, file: Int32) -> Int {
            func find(_ i: Int32, in table: inout [Int32]) -> Int {
                let i = Int(i)
                // Series are numbered as they come, so a new one is almost always the next:
                // one append each (appending a repeated -1 goes through a generic collection).
                while i >= table.count { table.append(-1) }
                if table[i] < 0 {
                    table[i] = Int32(groups.count)
                    groups.append(Group(series: series, file: series >= 0 ? -1 : file))
                }
                return Int(table[i])
            }
            return series >= 0 ? find(series, in: &bySeries) : find(file, in: &byFile)
        }

        /// Counts one event and keeps its instant as a sample while its offset has fewer
        /// than `samplesPerOffset`; true when its group wants it as an example (the first two).
        mutating func count(
            group g: Int, seconds: Int64, offset: Int32, marks: EventFacts.Marks = []
        ) -> Bool {
            if marks.contains(.writtenInUTC) { groups[g].writtenInUTC = true }
            if marks.contains(.atAPlace) { groups[g].atAPlace = true }
            let (sample, example) = Self.count(
                &groups[g], number: g, offset: offset, seconds: seconds,
                atAPlace: marks.contains(.atAPlace), more: &more)
            if sample { samples.append(Sample(seconds: seconds, offset: offset, group: Int32(g))) }
            return example
        }

        /// Counts one event of `group` (number `g`) with `offset`: whether its instant is
        /// sampled and whether it is an example.
        private static func count(
            _ group: inout Group, number g: Int, offset: Int32, seconds: Int64, atAPlace: Bool,
            more: inout [Int32: [Tally]]
        ) -> (Bool, Bool) {
            group.total += 1
            let example = group.examples < 2
            if example { group.examples += 1 }
            if group.first == nil { group.first = Tally(offset: offset, count: 0) }
            if group.first!.offset == offset {
                return (take(&group.first!, seconds, atAPlace), example)
            }
            if group.second == nil { group.second = Tally(offset: offset, count: 0) }
            if group.second!.offset == offset {
                return (take(&group.second!, seconds, atAPlace), example)
            }
            var tallies = more.removeValue(forKey: Int32(g)) ?? []
            defer { more[Int32(g)] = tallies }
            if let i = tallies.firstIndex(where: { $0.offset == offset }) {
                return (take(&tallies[i], seconds, atAPlace), example)
            }
            tallies.append(Tally(offset: offset, count: 0))
            group.moreCount += 1
            return (take(&tallies[tallies.count - 1], seconds, atAPlace), example)
        }

        /// Counts an event in its offset's tally: true while the tally samples instants.
        private static func take(_ tally: inout Tally, _ seconds: Int64, _ atAPlace: Bool) -> Bool {
            tally.widen(seconds, atAPlace: atAPlace)
            tally.count += 1
            guard tally.sampled < MixedOffsetsRule.samplesPerOffset else { return false }
            tally.sampled += 1
            return true
        }

        /// Whether group `g` is a journey: no start written as UTC itself, and its offsets'
        /// spans — of the events at a place, when some are — follow each other in time
        /// without overlapping.
        func isJourney(_ g: Int) -> Bool {
            let group = groups[g]
            guard !group.writtenInUTC else { return false }
            let spans = tallies(of: g).compactMap { group.atAPlace ? $0.spanAtAPlace : $0.span }
                .sorted { $0.lowerBound < $1.lowerBound }
            return zip(spans, spans.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }
        }

        /// Counts a batch's events written with an offset their own zone does not explain,
        /// by series (else file), in input order (`numbers`: the batch's numbers here).
        mutating func read(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
            // The batch's start texts are shared once it gives an example.
            var textBase: Int?
            // A series' events mostly follow each other: its group is looked up once for them.
            var last: (key: Int64, group: Int) = (Int64.min, 0)
            for e in batch.facts {
                guard e.basis == .offset, !e.offsetFitsItsZone, let instant = e.instant,
                    let offset = e.offset
                else { continue }
                let file = numbers.files[Int(e.file)]
                let key = e.hasSeries ? Int64(numbers.series[Int(e.series)]) : -1 - Int64(file)
                if key != last.key {
                    last = (
                        key,
                        key >= 0
                            ? group(series: Int32(key), file: -1) : group(series: -1, file: file)
                    )
                }
                let g = last.group
                guard
                    count(
                        group: g, seconds: instant.seconds, offset: Int32(offset.seconds),
                        marks: e.marks)
                else { continue }
                let base = textBase ?? texts.append(batch.starts)
                textBase = base
                examples.append(
                    Example(
                        group: Int32(g), offset: Int32(offset.seconds), file: file, line: e.line,
                        text: TextArena.Text(
                            start: e.startText.start + base, count: e.startText.count)))
            }
        }
    }

    static let samplesPerOffset: Int32 = 16
    private var groups = Groups()

    func read(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
        groups.read(batch, numbers)
    }

    var approximateBytes: Int {
        groups.groups.count * MemoryLayout<Group>.stride + groups.samples.count
            * MemoryLayout<Sample>.stride
            + groups.examples.count * MemoryLayout<Example>.stride
            + (groups.bySeries.count + groups.byFile.count) * 4
    }

    /// What one partition found: how many series or files have offsets no zone explains
    /// and how many events they hold, and the first of them by name (a series before a
    /// file of the same name), each with its offsets and the examples it kept.
    struct Part {
        var groups = 0
        var events = 0
        var first: [(name: String, isFile: Bool, offsets: String, examples: [Finding.Example])] = []
    }

    func finishPart(_ names: RunNames) -> Part {
        guard let span = names.offsetSpan else { return Part() }
        let groups = self.groups  // one copy, not one per use of a class property
        // Only zones that changed offset within the run's span can explain a mix (a zone must
        // give each sample's offset at its instant, and every sample lies in the span); a
        // group whose offsets no such zone has is flagged without looking at its samples.
        // The span is the run's, not this partition's, so no partition sees other zones.
        lazy var candidates = ZoneCandidates(ZonesInSpan.of(span))
        var flagged: [Int] = []
        // The groups some zone may explain, each with those zones; `checkOf`: a group's
        // place among them, -1 for none.
        var checked: [(group: Int, zones: [ZoneRules])] = []
        var checkOf: [Int32] = []
        for g in groups.groups.indices where groups.groups[g].offsetCount > 1 {
            let zones = candidates.zones(for: g, in: groups)
            if zones.isEmpty {
                flagged.append(g)
            } else {
                if checkOf.isEmpty { checkOf = Array(repeating: -1, count: groups.groups.count) }
                checkOf[g] = Int32(checked.count)
                checked.append((g, zones))
            }
        }
        if !checked.isEmpty {
            // The samples of each checked group, side by side (a counting sort by group).
            var start = [Int](repeating: 0, count: checked.count + 1)
            for s in groups.samples where checkOf[Int(s.group)] >= 0 {
                start[Int(checkOf[Int(s.group)]) + 1] += 1
            }
            for c in checked.indices { start[c + 1] += start[c] }
            var filled = start
            var samples = [(Instant, Int)](
                repeating: (Instant(unchecked: 0, nanoseconds: 0), 0), count: start[checked.count])
            for s in groups.samples where checkOf[Int(s.group)] >= 0 {
                let c = Int(checkOf[Int(s.group)])
                samples[filled[c]] = (Instant(unchecked: s.seconds, nanoseconds: 0), Int(s.offset))
                filled[c] += 1
            }
            for (c, check) in checked.enumerated()
            where !Self.explained(samples[start[c]..<start[c + 1]], by: check.zones) {
                flagged.append(check.group)
            }
        }
        flagged.removeAll { groups.isJourney($0) }
        let all = groups.groups
        guard !flagged.isEmpty else { return Part() }
        func name(_ g: Int) -> String {
            all[g].series >= 0
                ? names.series.strings[Int(all[g].series)] : names.files.strings[Int(all[g].file)]
        }
        let first = Self.smallest(Finding.maximumExamples, of: flagged) {
            (name($0), all[$0].series < 0 ? 1 : 0) < (name($1), all[$1].series < 0 ? 1 : 0)
        }
        let shown = Set(first)
        var examplesOf: [Int: [Example]] = [:]
        for e in groups.examples where shown.contains(Int(e.group)) {
            examplesOf[Int(e.group), default: []].append(e)
        }
        return Part(
            groups: flagged.count, events: flagged.reduce(0) { $0 + all[$1].total },
            first: first.map { g in
                (
                    name(g), all[g].series < 0,
                    groups.tallies(of: g).sorted { $0.offset < $1.offset }.map {
                        "\(UTCOffset(seconds: Int($0.offset)).isoString) ×\($0.count)"
                    }
                    .joined(separator: ", "),
                    (examplesOf[g] ?? []).map { e in
                        Finding.Example(
                            file: names.files.strings[Int(e.file)],
                            line: e.line < 0 ? nil : Int(e.line), value: groups.texts[e.text],
                            note: UTCOffset(seconds: Int(e.offset)).isoString)
                    }
                )
            })
    }

    static func finding(combining parts: [Part]) -> Finding? {
        let flagged = parts.reduce(0) { $0 + $1.groups }
        guard flagged > 0 else { return nil }
        let first = parts.flatMap(\.first).sorted {
            ($0.name, $0.isFile ? 1 : 0) < ($1.name, $1.isFile ? 1 : 0)
        }.prefix(Finding.maximumExamples)
        let describe = first.prefix(4).map { "\($0.name): \($0.offsets)" }.joined(separator: "; ")
        var examples: [Finding.Example] = []
        for group in first where examples.count < Finding.maximumExamples {
            examples += group.examples
        }
        return Finding(
            code: Self.code, severity: .warning, count: parts.reduce(0) { $0 + $1.events },
            message:
                "offsets that no single zone's rules explain, in \(flagged) series or file(s) (\(describe)"
                + (flagged > 4 ? "; …" : "")
                + "): the values come from different clocks; count days in one zone with \(.zone)",
            examples: examples)
    }

    /// The `k` smallest of `items` in order (one pass; `k` is small).
    static func smallest(_ k: Int, of items: [Int], by less: (Int, Int) -> Bool) -> [Int] {
        var out: [Int] = []
        for item in items {
            guard out.count < k || less(item, out[out.count - 1]) else { continue }
            let i = out.firstIndex { less(item, $0) } ?? out.count
            out.insert(item, at: i)
            if out.count > k { out.removeLast() }
        }
        return out
    }

    /// The zones that can explain a group's offsets, cached by offset set (groups mostly
    /// share a few).
    struct ZoneCandidates {
        let zones: ZonesInSpan
        private var bySet: [Set<Int>: [ZoneRules]] = [:]
        private var lastPair: (low: Int32, high: Int32, zones: [ZoneRules])?

        init(_ zones: ZonesInSpan) {
            self.zones = zones
        }

        mutating func zones(for g: Int, in groups: Groups) -> [ZoneRules] {
            let group = groups.groups[g]
            if group.offsetCount == 2, let a = group.first?.offset, let b = group.second?.offset {
                let (low, high) = (min(a, b), max(a, b))
                if let last = lastPair, last.low == low, last.high == high { return last.zones }
                let found = zones(for: [Int(low), Int(high)])
                lastPair = (low, high, found)
                return found
            }
            return zones(for: Set(groups.tallies(of: g).map { Int($0.offset) }))
        }

        private mutating func zones(for offsets: Set<Int>) -> [ZoneRules] {
            if let known = bySet[offsets] { return known }
            let found = zones.candidates(for: offsets)
            bySet[offsets] = found
            return found
        }
    }

    /// True when one of `zones` has exactly these offsets at these instants.
    static func explained(_ samples: ArraySlice<(Instant, Int)>, by zones: [ZoneRules]) -> Bool {
        guard !zones.isEmpty else { return false }
        return zones.contains { rules in
            samples.allSatisfy { rules.offset(at: $0.0).seconds == $0.1 }
        }
    }
}

/// The zones that used more than one offset between the earliest and the latest sampled
/// instant, with those offsets: only they can explain a mix of offsets there (a zone must
/// give each sample's offset at its instant). Foundation is asked for each zone's offset at
/// the start and at each transition up to the end — a few calls per zone for data spanning
/// a year — instead of building every zone's whole transition table (which cost a third
/// of a second, more than the rest of the check on a million events).
struct ZonesInSpan {
    let zones: [(identifier: String, offsets: Set<Int>)]

    /// The zones of `span`, made once for the last span asked (every partition of a run
    /// asks for the run's).
    static func of(_ span: ClosedRange<Int64>) -> ZonesInSpan {
        last.withLock { last in
            if let last, last.span == span { return last.zones }
            let zones = ZonesInSpan(span)
            last = (span, zones)
            return zones
        }
    }

    private static let last = Mutex<(span: ClosedRange<Int64>, zones: ZonesInSpan)?>(nil)

    init(_ span: ClosedRange<Int64>) {
        let (low, high) = (span.lowerBound, span.upperBound)
        // Within the years the zone tables cover (through 2199): past them every zone only
        // repeats its last rules, and walking thousands of years of transitions of every
        // zone would take seconds for one far-off value.
        func clamped(_ t: Int64) -> Double {
            Double(min(max(t, ZoneRules.tableStart), ZoneRules.tableEnd))
        }
        let start = Date(timeIntervalSince1970: clamped(low))
        let end = Date(timeIntervalSince1970: clamped(high))
        zones = TimeZone.knownTimeZoneIdentifiers.compactMap { id in
            guard let zone = TimeZone(identifier: id) else { return nil }
            var offsets: Set<Int> = [zone.secondsFromGMT(for: start)]
            var cursor = start
            while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= end {
                offsets.insert(zone.secondsFromGMT(for: next))
                cursor = next
            }
            return offsets.count > 1 ? (id, offsets) : nil
        }
    }

    /// The rules of the zones whose offsets in the span include all of `offsets`.
    func candidates(for offsets: Set<Int>) -> [ZoneRules] {
        zones.filter { offsets.isSubset(of: $0.offsets) }.compactMap {
            ZoneResolver.ianaRules($0.identifier)
        }
    }
}

extension MixedOffsetsRule.Part: StateCodable {
    func encode(to out: inout [UInt8]) {
        FlaggedKeysCoding.encode(flagged: groups, events: events, first: first, to: &out) {
            group, out in
            BinaryWriter.string(group.name, &out)
            out.append(group.isFile ? 1 : 0)
            BinaryWriter.string(group.offsets, &out)
            group.examples.encode(to: &out)
        }
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        (groups, events, first) = try FlaggedKeysCoding.decode(&r) {
            (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
            let name = try r.string()
            let isFile = try r.byte()
            guard isFile <= 1 else { throw BinaryReader.Corrupt() }
            return (name, isFile == 1, try r.string(), try r.list())
        }
    }
}

extension FindingCode {
    /// TZ102: offsets in one series that no single zone explains.
    public static let mixedOffsets = FindingCode("TZ102", name: "mixed-offsets")
}
