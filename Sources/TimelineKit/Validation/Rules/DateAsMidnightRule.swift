/// TZ108 (warning): a file whose start times are all midnight in one offset — dates stored as
/// midnight instants — and that land on another day in the display zone. A note, not a
/// warning, when the user chose no zone (the day changes only in the run's default).
final class DateAsMidnightRule: EventRuleDeclaration, MergeableRule {
    static let code = FindingCode.dateAsMidnight
    static let summary = "dates stored as midnight times, which another zone moves to another day"
    private let zone: ResolvedZone
    private let chosen: Bool

    /// Per file, while every start so far is a timed midnight in one offset: how many, and
    /// those that land on another day in the display zone. The first other start ends it.
    struct FileState: FileFoldable {
        var offset: UTCOffset?
        var qualifies = true
        var midnights = 0
        var shifted = FlaggedEvents()

        mutating func add(_ later: FileState) {
            guard qualifies else { return }
            guard later.qualifies, offset == nil || later.offset == nil || offset == later.offset
            else {
                self = FileState(qualifies: false)
                return
            }
            offset = offset ?? later.offset
            midnights += later.midnights
            shifted.add(later.shifted)
        }
    }

    private var files = PerFile<FileState>()

    init(_ context: ValidationContext) {
        zone = context.displayZone
        chosen = context.displayZoneChoice.isChosen
    }

    static func digest(_ batch: ValidationBatch, _ context: ValidationContext) -> PerFile<FileState>
    {
        let zone = context.displayZone
        var d = PerFile<FileState>()
        for e in batch.facts {
            d.with(e.file) { state in
                guard state.qualifies else { return }
                guard let written = e.written, let offset = e.offset, let instant = e.instant,
                    written.second == 0, instant.nanoseconds == 0,
                    state.offset == nil || state.offset == offset
                else {
                    state = FileState(qualifies: false)
                    return
                }
                state.offset = offset
                state.midnights += 1
                if zone.rules.dayNumber(of: instant) != written.day {
                    state.shifted.add(batch.example(e))
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
            guard state.qualifies, state.midnights >= 2, let offset = state.offset,
                state.shifted.count > 0
            else { continue }
            count += state.shifted.count
            examples += state.shifted.examples
            notes.append("\(file): all at 00:00 \(offset.isoString)")
        }
        guard count > 0 else { return nil }
        return Finding(
            code: Self.code, severity: chosen ? .warning : .info, count: count,
            message:
                "dates stored as midnight instants (\(notes.joined(separator: "; "))) land on the previous or next day in "
                + "\(zone.identifier); read them as dates (e.g. \(.dateFormat, "yyyy-MM-dd") on the date part) or count days in their offset",
            examples: examples)
    }
}

extension DateAsMidnightRule.FileState: StateCodable {
    func encode(to out: inout [UInt8]) {
        BinaryWriter.optional(offset, &out) { $0.encode(to: &$1) }
        out.append(qualifies ? 1 : 0)
        BinaryWriter.count(midnights, &out)
        shifted.encode(to: &out)
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        self.init(
            offset: try r.optional { (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
                try UTCOffset(decoding: &r)
            },
            qualifies: try r.byte() != 0, midnights: try r.number(),
            shifted: try FlaggedEvents(decoding: &r))
    }
}

extension FindingCode {
    /// TZ108: dates stored as midnight instants that change day in the display zone.
    public static let dateAsMidnight = FindingCode("TZ108", name: "date-as-midnight")
}
