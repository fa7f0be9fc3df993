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
    private struct Group {
        var counts: [(offset: Int, count: Int)] = []
        var samples: [(Instant, Int)] = []
        var examples: [(Finding.Example, UTCOffset)] = []
        var total = 0

        mutating func add(_ instant: Instant, _ offset: UTCOffset, example: () -> Finding.Example) {
            total += 1
            if examples.count < 2 { examples.append((example(), offset)) }
            let seconds = offset.seconds
            if let i = counts.firstIndex(where: { $0.offset == seconds }) {
                counts[i].count += 1
                if counts[i].count <= MixedOffsetsRule.samplesPerOffset { samples.append((instant, seconds)) }
            } else {
                counts.append((seconds, 1))
                samples.append((instant, seconds))
            }
        }
    }

    static let samplesPerOffset = 16
    private var groups: [String: Group] = [:]

    func observe(_ e: Event) {
        guard e.start.basis == .offset, let instant = e.start.instant, let offset = e.start.offset else { return }
        groups[e.series ?? e.source?.file ?? "-", default: Group()].add(instant, offset, example: { e.example() })
    }

    func finish() -> Finding? {
        var candidatesByOffsets: [Set<Int>: [ZoneRules]] = [:]
        var flagged: [(String, Group)] = []
        for (name, group) in groups.sorted(by: { $0.key < $1.key }) where group.counts.count > 1 {
            let offsets = Set(group.counts.map(\.offset))
            if candidatesByOffsets[offsets] == nil {
                candidatesByOffsets[offsets] = Self.zones.filter { offsets.isSubset(of: $0.offsets) }.map(\.rules)
            }
            guard !Self.explained(group.samples, by: candidatesByOffsets[offsets]!) else { continue }
            flagged.append((name, group))
        }
        guard !flagged.isEmpty else { return nil }
        let describe = flagged.prefix(4).map { name, group in
            "\(name): " + group.counts.sorted { $0.offset < $1.offset }.map { "\(UTCOffset(seconds: $0.offset).isoString) ×\($0.count)" }.joined(separator: ", ")
        }.joined(separator: "; ")
        let count = flagged.reduce(0) { $0 + $1.1.total }
        return Finding(
            code: code, severity: .warning, count: count,
            message: "offsets that no single zone's rules explain, in \(flagged.count) series or file(s) (\(describe)"
                + (flagged.count > 4 ? "; …" : "") + "): the values come from different clocks; count days in one zone with --zone",
            examples: flagged.flatMap { $0.1.examples.map { example, offset in example.noting(offset.isoString) } })
    }

    /// True when one of `zones` has exactly these offsets at these instants.
    static func explained(_ samples: [(Instant, Int)], by zones: [ZoneRules]) -> Bool {
        guard !zones.isEmpty else { return false }
        return zones.contains { rules in samples.allSatisfy { rules.offset(at: $0.0).seconds == $0.1 } }
    }

    /// Zones with DST (a zone without it cannot explain two offsets), each with every offset
    /// it has used (a zone can only explain offsets among those). Built once per process.
    static let zones: [(rules: ZoneRules, offsets: Set<Int>)] = TimeZone.knownTimeZoneIdentifiers.compactMap { id in
        guard let rules = ZoneResolver.ianaRules(id), !rules.transitions.isEmpty else { return nil }
        var offsets = Set(rules.transitions.map(\.offset.seconds))
        offsets.insert(rules.offset(atEpochSeconds: ZoneRules.tableStart).seconds)
        return (rules, offsets)
    }
}
