/// TZ111 (warning): epoch numbers in one file written in different units (10 digits are
/// seconds, 13 milliseconds — see `EpochSyntax`), or read as dates before 1980 or after 2100,
/// which in records usually means the unit was misjudged upstream (seconds written where
/// milliseconds were meant, say).
struct EpochUnitRule: ValidationRule {
    var code: FindingCode { .epochUnit }
    static let plausible = 1980...2100

    func check(_ context: ValidationContext) -> Finding? {
        var byFile: [String: [Event]] = [:]
        for e in context.events where e.start.basis == .epoch { byFile[e.source?.file ?? "-", default: []].append(e) }
        var flagged: [(Event, String)] = []
        var notes: [String] = []
        for (file, events) in byFile.sorted(by: { $0.key < $1.key }) {
            var units: [String: Int] = [:]
            for e in events { units[Self.unit(e.start), default: 0] += 1 }
            if units.count > 1 {
                let majority = units.max { $0.value < $1.value }!.key
                notes.append("\(file): " + units.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
                flagged += events.filter { Self.unit($0.start) != majority }.map { ($0, "in \(Self.unit($0.start)); most are \(majority)") }
            }
            for e in events where !Self.plausible.contains(e.start.instant!.local(in: .utc).date.year) {
                flagged.append((e, "reads as \(e.start.instant!.isoString(fractionDigits: 0))"))
            }
        }
        guard !flagged.isEmpty else { return nil }
        return Finding(
            code: code, severity: .warning, count: flagged.count,
            message: "epoch numbers with mixed units or implausible dates" + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
                + "; check the unit the source writes (10 digits: seconds, 13: milliseconds, 16: microseconds, 19: nanoseconds)",
            examples: flagged.map { $0.0.example(note: $0.1) })
    }

    static func unit(_ value: TimeValue) -> String {
        let digits = (value.raw ?? "").drop { $0 == "-" }.prefix { $0.isNumber }.count
        switch digits {
        case 13: return "milliseconds"
        case 16: return "microseconds"
        case 19: return "nanoseconds"
        default: return "seconds"
        }
    }
}
