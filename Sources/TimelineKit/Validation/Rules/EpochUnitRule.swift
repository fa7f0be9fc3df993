/// TZ111 (warning): epoch numbers in one file written in different units (10 digits are
/// seconds, 13 milliseconds — see `EpochSyntax`), or read as dates before 1980 or after 2100,
/// which in records usually means the unit was misjudged upstream (seconds written where
/// milliseconds were meant, say).
final class EpochUnitRule: EventRuleDeclaration, MergeableRule {
    static let code = FindingCode.epochUnit
    static let summary =
        "epoch numbers in different units in one file, or read as implausible dates"

    init(_ context: ValidationContext) {}
    static let plausible = 1980...2100

    /// Per file: epoch values by unit (with the first examples of each, numbered in input
    /// order, since the majority unit is known only at the end) and implausible dates.
    struct FileState: FileFoldable {
        var units: [String: (count: Int, examples: [(Int, Finding.Example)])] = [:]
        var implausible = FlaggedEvents()
        var seen = 0

        mutating func add(_ later: FileState) {
            for (unit, tally) in later.units {
                let stored = units[unit]?.examples.count ?? 0
                units[unit, default: (0, [])].count += tally.count
                units[unit]!.examples += tally.examples.prefix(Finding.maximumExamples - stored).map
                { ($0.0 + seen, $0.1) }
            }
            implausible.add(later.implausible)
            seen += later.seen
        }
    }

    private var files = PerFile<FileState>()

    static func digest(_ batch: ValidationBatch, _ context: ValidationContext) -> PerFile<FileState>
    {
        var d = PerFile<FileState>()
        for e in batch.facts {
            guard e.basis == .epoch, let instant = e.instant else { continue }
            d.with(e.file) { state in
                let unit = Self.unit(batch.startText(e))
                state.seen += 1
                let n = state.seen
                let stored = state.units[unit]?.examples.count ?? 0
                state.units[unit, default: (0, [])].count += 1
                if stored < Finding.maximumExamples {
                    state.units[unit]!.examples.append((n, batch.example(e, note: "in \(unit)")))
                }
                if !Self.plausible.contains(instant.local(in: .utc).date.year) {
                    state.implausible.add(
                        batch.example(e, note: "reads as \(instant.isoString(fractionDigits: 0))"))
                }
            }
        }
        return d
    }

    var absorbed: PerFile<FileState> { files }

    func absorb(_ d: consuming PerFile<FileState>, _ numbers: BatchNumbers) {
        files.add(d, files: numbers.files)
    }

    func finish(_ names: RunNames) -> Finding? {
        var count = 0
        var examples: [Finding.Example] = []
        var notes: [String] = []
        for (file, state) in files.sorted(names) {
            if state.units.count > 1 {
                // The majority unit; on a tie, the first by name (deterministic).
                let majority = state.units.max {
                    ($0.value.count, $1.key) < ($1.value.count, $0.key)
                }!.key
                notes.append(
                    "\(file): "
                        + state.units.sorted { $0.key < $1.key }.map {
                            "\($0.key) ×\($0.value.count)"
                        }.joined(separator: ", "))
                let others = state.units.filter { $0.key != majority }
                count += others.reduce(0) { $0 + $1.value.count }
                examples += others.flatMap(\.value.examples).sorted { $0.0 < $1.0 }.map {
                    $0.1.noting("most are \(majority)")
                }
            }
            count += state.implausible.count
            examples += state.implausible.examples
        }
        guard count > 0 else { return nil }
        return Finding(
            code: Self.code, severity: .warning, count: count,
            message: "epoch numbers with mixed units or implausible dates"
                + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
                + "; check the unit the source writes (10 digits: seconds, 13: milliseconds, 16: microseconds, 19: nanoseconds)",
            examples: examples)
    }

    /// The unit an epoch value was written in, by its digits.
    static func unit(_ text: String) -> String {
        let digits = text.drop { $0 == "-" }.prefix { $0.isNumber }.count
        switch digits {
        case 13: return "milliseconds"
        case 16: return "microseconds"
        case 19: return "nanoseconds"
        default: return "seconds"
        }
    }
}

extension EpochUnitRule.FileState: StateCodable {
    func encode(to out: inout [UInt8]) {
        BinaryWriter.count(units.count, &out)
        for (unit, tally) in units.sorted(by: { $0.key < $1.key }) {
            BinaryWriter.string(unit, &out)
            BinaryWriter.count(tally.count, &out)
            BinaryWriter.count(tally.examples.count, &out)
            for (n, example) in tally.examples {
                BinaryWriter.count(n, &out)
                example.encode(to: &out)
            }
        }
        implausible.encode(to: &out)
        BinaryWriter.count(seen, &out)
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        self.init()
        for _ in 0..<(try r.count()) {
            let unit = try r.string()
            let count = try r.number()
            var examples: [(Int, Finding.Example)] = []
            for _ in 0..<(try r.count()) {
                examples.append((try r.number(), try Finding.Example(decoding: &r)))
            }
            units[unit] = (count, examples)
        }
        implausible = try FlaggedEvents(decoding: &r)
        seen = try r.number()
    }
}

extension Finding.Example {
    /// The example with `text` added to its note.
    func noting(_ text: String) -> Finding.Example {
        var e = self
        e.note = note.map { "\($0); \(text)" } ?? text
        return e
    }
}

extension FindingCode {
    /// TZ111: epoch numbers in mixed units, or with implausible dates.
    public static let epochUnit = FindingCode("TZ111", name: "epoch-unit")
}
