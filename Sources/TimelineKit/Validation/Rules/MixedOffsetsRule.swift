import Foundation

/// TZ102 (warning): one series (or, without series, one file) whose explicit offsets no
/// single IANA zone explains — a UTC server clock (`Z`) mixed with a UTC+8 phone clock, say.
/// A zone explains the offsets when its rules give exactly those offsets at those instants
/// (so New York's -05:00/-04:00 across DST is fine).
struct MixedOffsetsRule: ValidationRule {
    var code: FindingCode { .mixedOffsets }

    func check(_ context: ValidationContext) -> Finding? {
        var groups: [String: [Event]] = [:]
        for e in context.events where e.start.basis == .offset {
            groups[e.series ?? e.source?.file ?? "-", default: []].append(e)
        }
        var flagged: [(String, [Event], [Int: Int])] = []
        for (name, events) in groups.sorted(by: { $0.key < $1.key }) {
            var counts: [Int: Int] = [:]
            for e in events { counts[e.start.offset!.seconds, default: 0] += 1 }
            guard counts.count > 1, !Self.explained(events) else { continue }
            flagged.append((name, events, counts))
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
            examples: flagged.flatMap { _, events, _ in events.prefix(2).map { $0.example(note: $0.start.offset!.isoString) } })
    }

    /// True when some IANA zone has exactly these offsets at these instants.
    static func explained(_ events: [Event]) -> Bool {
        var samples: [(Instant, Int)] = []
        var perOffset: [Int: Int] = [:]
        for e in events {
            let o = e.start.offset!.seconds
            if perOffset[o, default: 0] < 16 {
                perOffset[o, default: 0] += 1
                samples.append((e.start.instant!, o))
            }
        }
        for id in Self.candidates {
            guard let rules = ZoneResolver.ianaRules(id) else { continue }
            if samples.allSatisfy({ rules.offset(at: $0.0).seconds == $0.1 }) { return true }
        }
        return false
    }

    /// Zones with DST (a zone without DST cannot explain two offsets).
    static let candidates: [String] = TimeZone.knownTimeZoneIdentifiers.filter {
        guard let tz = TimeZone(identifier: $0) else { return false }
        return tz.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: -2_208_988_800)) != nil
    }
}
