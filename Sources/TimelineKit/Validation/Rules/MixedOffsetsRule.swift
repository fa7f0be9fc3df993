import Foundation

/// TZ102 (warning): one series (or, without series, one file) whose explicit offsets no
/// single IANA zone explains — a UTC server clock (`Z`) mixed with a UTC+8 phone clock, say.
/// A zone explains the offsets when its rules give exactly those offsets at those instants
/// (so New York's -05:00/-04:00 across DST is fine).
struct MixedOffsetsRule: ValidationRule {
    var code: FindingCode { .mixedOffsets }

    func check(_ context: ValidationContext) -> Finding? {
        var candidatesByOffsets: [Set<Int>: [ZoneRules]] = [:]
        // Indices, not events: copying every event into the groups cost more than the check.
        var groups: [String: [Int]] = [:]
        for (i, e) in context.events.enumerated() where e.start.basis == .offset {
            groups[e.series ?? e.source?.file ?? "-", default: []].append(i)
        }
        var flagged: [(String, [Int], [Int: Int])] = []
        for (name, indices) in groups.sorted(by: { $0.key < $1.key }) {
            var counts: [Int: Int] = [:]
            for i in indices { counts[context.events[i].start.offset!.seconds, default: 0] += 1 }
            guard counts.count > 1 else { continue }
            let offsets = Set(counts.keys)
            if candidatesByOffsets[offsets] == nil {
                candidatesByOffsets[offsets] = Self.zones.filter { offsets.isSubset(of: $0.offsets) }.map(\.rules)
            }
            guard !Self.explained(indices.lazy.map { context.events[$0].start }, by: candidatesByOffsets[offsets]!) else { continue }
            flagged.append((name, indices, counts))
        }
        guard !flagged.isEmpty else { return nil }
        let describe = flagged.prefix(4).map { name, _, counts in
            "\(name): " + counts.sorted { $0.key < $1.key }.map { "\(UTCOffset(seconds: $0.key).isoString) ×\($0.value)" }.joined(separator: ", ")
        }.joined(separator: "; ")
        let count = flagged.reduce(0) { $0 + $1.1.count }
        return Finding(
            code: code, severity: .warning, count: count,
            message: "offsets that no single zone's rules explain, in \(flagged.count) series or file(s) (\(describe)"
                + (flagged.count > 4 ? "; …" : "") + "): the values come from different clocks; count days in one zone with --zone",
            examples: flagged.flatMap { _, indices, _ in
                indices.prefix(2).map { context.events[$0] }.map { $0.example(note: $0.start.offset!.isoString) }
            })
    }

    /// True when one of `zones` has exactly these offsets at these instants.
    static func explained(_ starts: some Sequence<TimeValue>, by zones: [ZoneRules]) -> Bool {
        guard !zones.isEmpty else { return false }
        var samples: [(Instant, Int)] = []
        var perOffset: [Int: Int] = [:]
        for start in starts {
            let o = start.offset!.seconds
            if perOffset[o, default: 0] < 16 {
                perOffset[o, default: 0] += 1
                samples.append((start.instant!, o))
            }
        }
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
