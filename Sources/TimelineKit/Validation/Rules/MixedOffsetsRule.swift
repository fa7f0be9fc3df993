import Foundation

/// TZ102 (warning): one series (or, without series, one file) whose explicit offsets no
/// single IANA zone explains — a UTC server clock (`Z`) mixed with a UTC+8 phone clock, say.
/// A zone explains the offsets when its rules give exactly those offsets at those instants
/// (so New York's -05:00/-04:00 across DST is fine).
final class MixedOffsetsRule: ValidationRule {
    var code: FindingCode { .mixedOffsets }

    /// What a zone must explain about one series (or file): how many events carry each
    /// offset, the first instants of each (the samples a zone is checked against) and the
    /// first two events as examples.
    struct Group {
        var counts: [(offset: Int, count: Int)] = []
        var samples: [(Instant, Int)] = []
        var examples: [(Finding.Example, UTCOffset)] = []
        var total = 0

        mutating func add(_ instant: Instant, _ offset: UTCOffset, example: Finding.Example?) {
            total += 1
            if let example { examples.append((example, offset)) }
            let seconds = offset.seconds
            if let i = counts.firstIndex(where: { $0.offset == seconds }) {
                counts[i].count += 1
                if counts[i].count <= MixedOffsetsRule.samplesPerOffset { samples.append((instant, seconds)) }
            } else {
                counts.append((seconds, 1))
                samples.append((instant, seconds))
            }
        }

        /// The group after `later` (the same series' next events): counts add up, and
        /// each offset keeps its first samples and the group its first two examples.
        mutating func add(_ later: Group) {
            total += later.total
            examples += later.examples.prefix(2 - examples.count)
            var stored = counts.map { (offset: $0.offset, samples: min($0.count, MixedOffsetsRule.samplesPerOffset)) }
            for sample in later.samples {
                if let i = stored.firstIndex(where: { $0.offset == sample.1 }) {
                    guard stored[i].samples < MixedOffsetsRule.samplesPerOffset else { continue }
                    stored[i].samples += 1
                } else {
                    stored.append((sample.1, 1))
                }
                samples.append(sample)
            }
            for (offset, count) in later.counts {
                if let i = counts.firstIndex(where: { $0.offset == offset }) {
                    counts[i].count += count
                } else {
                    counts.append((offset, count))
                }
            }
        }
    }

    /// A batch's groups, with their names hashed (on the worker thread).
    struct Digest {
        var names = StringIndex()
        var groups: [Group] = []
    }

    static let samplesPerOffset = 16
    /// Series (or file) names by number, and their groups by the same number.
    private var names = StringIndex()
    private var groups: [Group] = []

    func digest(_ events: UnsafeBufferPointer<EventFacts>) -> Digest {
        var d = Digest()
        events.forEachFact { e in
            guard e.pointee.basis == .offset, let instant = e.pointee.instant, let offset = e.pointee.offset else { return }
            let (n, isNew) = d.names.number(of: e.pointee.series ?? e.pointee.file)
            if isNew { d.groups.append(Group()) }
            d.groups[n].add(instant, offset, example: d.groups[n].examples.count < 2 ? e.pointee.example() : nil)
        }
        return d
    }

    func absorb(_ d: consuming Digest) {
        for (i, later) in d.groups.enumerated() {
            let name = d.names.strings[i]
            let (n, isNew) = names.number(of: name, hash: d.names.hash(at: i))
            if isNew {
                groups.append(later)
            } else {
                groups[n].add(later)
            }
        }
    }

    func finish() -> Finding? {
        var candidatesByOffsets: [Set<Int>: [ZoneRules]] = [:]
        // Group numbers only: copying groups (three arrays each) cost more than the check.
        var flagged: [Int] = []
        let mixed = groups.indices.filter { groups[$0].counts.count > 1 }
        let zones = ZonesInSpan(mixed.lazy.flatMap { self.groups[$0].samples.lazy.map(\.0.seconds) })
        for n in mixed.sorted(by: { names.strings[$0] < names.strings[$1] }) {
            let offsets = Set(groups[n].counts.map(\.offset))
            if candidatesByOffsets[offsets] == nil {
                candidatesByOffsets[offsets] = zones.candidates(for: offsets)
            }
            guard !Self.explained(groups[n].samples, by: candidatesByOffsets[offsets]!) else { continue }
            flagged.append(n)
        }
        guard !flagged.isEmpty else { return nil }
        let describe = flagged.prefix(4).map { n in
            "\(names.strings[n]): "
                + groups[n].counts.sorted { $0.offset < $1.offset }.map { "\(UTCOffset(seconds: $0.offset).isoString) ×\($0.count)" }.joined(separator: ", ")
        }.joined(separator: "; ")
        let count = flagged.reduce(0) { $0 + groups[$1].total }
        var examples: [Finding.Example] = []
        for n in flagged where examples.count < Finding.maximumExamples {
            examples += groups[n].examples.map { example, offset in example.noting(offset.isoString) }
        }
        return Finding(
            code: code, severity: .warning, count: count,
            message: "offsets that no single zone's rules explain, in \(flagged.count) series or file(s) (\(describe)"
                + (flagged.count > 4 ? "; …" : "") + "): the values come from different clocks; count days in one zone with --zone",
            examples: examples)
    }

    /// True when one of `zones` has exactly these offsets at these instants.
    static func explained(_ samples: [(Instant, Int)], by zones: [ZoneRules]) -> Bool {
        guard !zones.isEmpty else { return false }
        return zones.contains { rules in samples.allSatisfy { rules.offset(at: $0.0).seconds == $0.1 } }
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

    init(_ instants: some Sequence<Int64>) {
        var low = Int64.max
        var high = Int64.min
        for t in instants {
            low = min(low, t)
            high = max(high, t)
        }
        guard low <= high else {
            zones = []
            return
        }
        let start = Date(timeIntervalSince1970: Double(low))
        let end = Date(timeIntervalSince1970: Double(high))
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
        zones.filter { offsets.isSubset(of: $0.offsets) }.compactMap { ZoneResolver.ianaRules($0.identifier) }
    }
}
