/// TZ103 (warning): events whose calendar day in the display zone differs from their day in
/// the offset they were written in — the UTC server time that lands on the wrong day on a
/// UTC+8 phone. Epoch values have no written offset and are not counted. A warning only in a
/// zone the user chose (`--zone`, `--assume-zone`): in a zone the run fell back to or took
/// from the data it is a note saying which days would differ and to name the zone.
final class DayShiftRule: EventRuleDeclaration, MergeableRule {
    static let code = FindingCode.dayShift
    static let summary =
        "an event on another calendar day in the display zone than in the offset it was written in"
    private let zone: ResolvedZone
    private let chosen: Bool
    private var moved = Digest()

    /// A written day and the day shown, as days since 1970-01-01: a digest counts every
    /// event that moved by them, and makes calendar dates only for what it reports.
    struct DayMove: Hashable {
        var writtenDay: Int64
        var shownDay: Int64
        var written: CivilDate { CivilDate(daysSinceEpoch: writtenDay) }
        var shown: CivilDate { CivilDate(daysSinceEpoch: shownDay) }
        var description: String { "\(written.isoString) → \(shown.isoString)" }
    }

    struct Digest {
        var flagged = FlaggedEvents()
        /// How many events moved from each written day to each shown day.
        var perDay: [DayMove: Int] = [:]
    }

    init(_ context: ValidationContext) {
        zone = context.displayZone
        chosen = context.displayZoneChoice.isChosen
    }

    static func digest(_ batch: ValidationBatch, _ context: ValidationContext) -> Digest {
        let zone = context.displayZone
        var d = Digest()
        var offsets = ZoneRules.OffsetCache()
        for e in batch.facts {
            guard let instant = e.instant, let writtenDay = e.written?.day, e.basis != .epoch else {
                continue
            }
            // Days as numbers: calendar dates are made only for the examples kept.
            let shownDay = zone.rules.dayNumber(of: instant, cache: &offsets)
            guard shownDay != writtenDay else { continue }
            let move = DayMove(writtenDay: writtenDay, shownDay: shownDay)
            d.perDay[move, default: 0] += 1
            d.flagged.add(
                batch.example(
                    e,
                    note:
                        "\(move.written.isoString) written, \(move.shown.isoString) in \(zone.identifier)"
                ))
        }
        return d
    }

    var absorbed: Digest { moved }

    func absorb(_ d: consuming Digest, _ numbers: BatchNumbers) {
        moved.flagged.add(d.flagged)
        moved.perDay.merge(d.perDay, uniquingKeysWith: +)
    }

    func finish(_ names: RunNames) -> Finding? {
        let count = moved.flagged.count
        guard count > 0 else { return nil }
        let perDay = moved.perDay
        let days = perDay.map { ($0.key.description, $0.value) }.sorted { $0.0 < $1.0 }.prefix(6)
            .map { "\($0.0): \($0.1)" }.joined(separator: ", ")
        let moves = "(\(days)" + (perDay.count > 6 ? ", …" : "") + ")"
        guard chosen else {
            return Finding(
                code: Self.code, severity: .info, count: count,
                message:
                    "\(count) event(s) would fall on another calendar day in \(zone.identifier), which no option named, than in the offset "
                    + "they were written in \(moves); name the zone people see with \(.zone) to count days there",
                examples: moved.flagged.examples)
        }
        return Finding(
            code: Self.code, severity: .warning, count: count,
            message:
                "\(count) event(s) fall on another calendar day in \(zone.identifier) than in the offset they were written in \(moves)"
                + "; if people saw the written day, group in their zone with \(.zone)",
            examples: moved.flagged.examples)
    }
}

extension DayShiftRule.Digest: StateCodable {
    func encode(to out: inout [UInt8]) {
        flagged.encode(to: &out)
        BinaryWriter.count(perDay.count, &out)
        for (move, count) in perDay.sorted(by: {
            ($0.key.writtenDay, $0.key.shownDay) < ($1.key.writtenDay, $1.key.shownDay)
        }) {
            move.written.encode(to: &out)
            move.shown.encode(to: &out)
            BinaryWriter.count(count, &out)
        }
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        self.init(flagged: try FlaggedEvents(decoding: &r))
        for _ in 0..<(try r.count()) {
            let move = DayShiftRule.DayMove(
                writtenDay: try CivilDate(decoding: &r).daysSinceEpoch,
                shownDay: try CivilDate(decoding: &r).daysSinceEpoch)
            perDay[move] = try r.number()
        }
    }
}

extension FindingCode {
    /// TZ103: an event on another calendar day in the display zone than where it was written.
    public static let dayShift = FindingCode("TZ103", name: "day-shift")
}
