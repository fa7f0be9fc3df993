/// TZ107 (warning): a series whose status progression is out of order as written, but fully
/// in order once the events of one source (a file and written offset) are shifted by a whole
/// number of hours — a courier feed writing UTC clock times with a `+08:00` label, say, so
/// that "delivered" comes 8 hours before "shipped".
///
/// Stages come from the canonical status: pending, then processing, then completed
/// (cancelled events are left out). Only a series with at least two sources can be
/// explained this way; a series no single shift repairs is not reported (its statuses may
/// simply be coarse).
struct SuspectZoneShiftRule: ValidationRule {
    var code: FindingCode { .suspectZoneShift }
    static let shifts: [Int64] = (1...14).flatMap { [Int64($0), -Int64($0)] }

    func check(_ context: ValidationContext) -> Finding? {
        var bySeries: [String: [Event]] = [:]
        for e in context.events where e.series != nil && e.start.instant != nil && Self.stage(e) != nil {
            bySeries[e.series!, default: []].append(e)
        }
        var flagged: [(Event, String)] = []
        var notes: [String] = []
        for (series, events) in bySeries.sorted(by: { $0.key < $1.key }) where events.count >= 3 {
            let times = events.map { $0.start.instant!.seconds }
            guard Self.inversions(events, times) > 0 else { continue }
            var groups: [String: [Int]] = [:]
            for (i, e) in events.enumerated() { groups["\(e.source?.file ?? "-") \(e.start.offset!.isoString)", default: []].append(i) }
            guard groups.count >= 2 else { continue }
            // Shifting by a group's own offset comes first (UTC readings labelled with a local
            // offset, or the reverse), then every other whole-hour shift, smallest first.
            var candidates: [(Int64, String, [Int])] = []
            for (group, members) in groups.sorted(by: { $0.key < $1.key }) {
                let offset = events[members[0]].start.offset!.seconds
                if offset != 0 && offset % 3600 == 0 {
                    candidates += [(Int64(offset / 3600), group, members), (Int64(-offset / 3600), group, members)]
                }
            }
            for hours in Self.shifts {
                for (group, members) in groups.sorted(by: { $0.key < $1.key }) { candidates.append((hours, group, members)) }
            }
            search: for (hours, group, members) in candidates {
                var shifted = times
                for i in members { shifted[i] += hours * 3600 }
                if Self.inversions(events, shifted) == 0 {
                    // With two sources only their relative offset is known: name the one
                    // that must move forward.
                    var (hours, group, members) = (hours, group, members)
                    if groups.count == 2 && hours < 0, let other = groups.first(where: { $0.key != group }) {
                        (hours, group, members) = (-hours, other.key, other.value)
                    }
                    let against = groups.count == 2 ? " against \(groups.keys.first { $0 != group }!)" : ""
                    notes.append("\(series): \(group) by \(hours > 0 ? "+" : "")\(hours) h\(against)")
                    flagged += members.map { (events[$0], "in order only if shifted \(hours > 0 ? "+" : "")\(hours) h") }
                    break search
                }
            }
        }
        guard !flagged.isEmpty else { return nil }
        return Finding(
            code: code, severity: .warning, count: flagged.count,
            message: "status order is only consistent after shifting one source by whole hours (\(notes.prefix(4).joined(separator: "; "))"
                + (notes.count > 4 ? "; …" : "") + "): its times are probably labelled with the wrong offset; fix the source's zone "
                + "(--assume-zone or --map zone=COLUMN for naive values)",
            examples: flagged.map { $0.0.example(note: $0.1) })
    }

    static func stage(_ e: Event) -> Int? {
        switch e.status {
        case .pending?: return 0
        case .processing?: return 1
        case .completed?: return 2
        default: return nil
        }
    }

    /// Pairs that are in time order but against the stage order.
    static func inversions(_ events: [Event], _ times: [Int64]) -> Int {
        var count = 0
        for i in events.indices {
            for j in events.indices where times[i] < times[j] && stage(events[i])! > stage(events[j])! { count += 1 }
        }
        return count
    }
}
