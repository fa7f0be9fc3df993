/// The zones a validation runs against.
public struct ValidationContext: Sendable {
    /// Where days are counted (`--zone`).
    public var displayZone: ResolvedZone
    /// `--assume-zone`, when given.
    public var assumedZone: ResolvedZone?

    public init(displayZone: ResolvedZone, assumedZone: ResolvedZone?) {
        self.displayZone = displayZone
        self.assumedZone = assumedZone
    }
}

/// A check over the converted events (a plug-in; the validator holds an explicit list).
/// Streaming: it sees every event once, in input order, and keeps only what its finding
/// needs (counts, the first examples, compact per-series facts) — never the events.
public protocol ValidationRule: AnyObject {
    var code: FindingCode { get }
    func observe(_ event: Event)
    /// Zero or one finding (a finding counts all affected events).
    func finish() -> Finding?
}

extension Event {
    /// An example for findings: where the event came from and its start's source text.
    func example(note: String? = nil, value: String? = nil) -> Finding.Example {
        Finding.Example(
            file: source?.file ?? "-", line: source?.line, value: value ?? start.raw ?? start.rfc3339, note: note)
    }
}

/// The number of events a rule flagged and the first few as examples (all a finding shows).
struct FlaggedEvents {
    private(set) var count = 0
    private(set) var examples: [Finding.Example] = []

    mutating func add(_ example: @autoclosure () -> Finding.Example) {
        count += 1
        if examples.count < Finding.maximumExamples { examples.append(example()) }
    }
}

/// Per-file state for rules that judge each input file on its own; consecutive events of
/// one file (the usual case) find their state without hashing the name again.
struct PerFile<State> {
    private(set) var states: [(file: String, state: State)] = []
    private var index: [String: Int] = [:]
    private var last = -1

    mutating func with<R>(_ file: String, initial: () -> State, _ body: (inout State) -> R) -> R {
        if last < 0 || states[last].file != file {
            if let i = index[file] {
                last = i
            } else {
                last = states.count
                index[file] = last
                states.append((file, initial()))
            }
        }
        return body(&states[last].state)
    }

    /// The files and their states, by file name.
    var sorted: [(file: String, state: State)] { states.sorted { $0.file < $1.file } }
}

/// Runs the rules over a stream of events and folds in what the import found (rejects and
/// date notices). One per run: `observe` every event, then `report`.
public final class Validator {
    public let context: ValidationContext
    public var rules: [any ValidationRule]

    public init(_ context: ValidationContext) {
        self.context = context
        rules = [
            AssumedZoneRule(context), MixedOffsetsRule(), DayShiftRule(context), SuspectZoneShiftRule(), DateAsMidnightRule(context),
            EpochUnitRule(), DuplicateIDRule(), EndBeforeStartRule(context),
        ]
    }

    public func observe(_ event: Event) {
        for rule in rules { rule.observe(event) }
    }

    /// - Parameters:
    ///   - records: records read (events and rejects).
    ///   - rejects: records the import rejected (their codes become findings; E001 otherwise).
    ///   - notices: import warnings with codes (TZ104–TZ106 from the date engine).
    public func report(records: Int, rejects: [RejectedRecord], notices: [Diagnostic]) -> ValidationReport {
        var findings = ImportFindings.from(rejects: rejects, notices: notices)
        findings += rules.compactMap { $0.finish() }
        findings.sort { ($0.severity.rank, $1.code.rawValue) > ($1.severity.rank, $0.code.rawValue) }
        return ValidationReport(records: records, rejected: rejects.count, zone: context.displayZone.identifier, findings: findings)
    }

    /// Observes `events` and reports.
    public func run(events: [Event], records: Int, rejects: [RejectedRecord], notices: [Diagnostic]) -> ValidationReport {
        for e in events { observe(e) }
        return report(records: records, rejects: rejects, notices: notices)
    }
}

/// Findings made of what the import already knew: rejected records by their code, and the
/// date engine's notices (DST gaps and overlaps resolved, offsets contradicting zones).
enum ImportFindings {
    static func from(rejects: [RejectedRecord], notices: [Diagnostic]) -> [Finding] {
        var findings: [Finding] = []
        var byCode: [FindingCode: [RejectedRecord]] = [:]
        for r in rejects { byCode[FindingCode(rawValue: r.code ?? "") ?? .unparseable, default: []].append(r) }
        for (code, list) in byCode.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            findings.append(Finding(
                code: code, severity: .error, count: list.count,
                message: "\(list.count) record(s) rejected: \(Self.advice(code)); the first: \(list[0].reason)",
                examples: list.map { Finding.Example(file: $0.location.file, line: $0.location.line, value: $0.raw) }))
        }
        var noticesByCode: [FindingCode: [Diagnostic]] = [:]
        for n in notices {
            if let c = n.code.flatMap(FindingCode.init(rawValue:)) { noticesByCode[c, default: []].append(n) }
        }
        for (code, list) in noticesByCode.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            findings.append(Finding(
                code: code, severity: .warning, count: list.count, message: "\(list.count) value(s): \(Self.advice(code))",
                examples: list.map { Finding.Example(file: $0.location?.file ?? "-", line: $0.location?.line, value: $0.message) }))
        }
        return findings
    }

    static func advice(_ code: FindingCode) -> String {
        switch code {
        case .naiveTime: return "times with no offset or zone; name their zone with --assume-zone ZONE (or a zone column with --map zone=COLUMN)"
        case .unparseable: return "values no parser accepts; add their shape with --date-format"
        case .ambiguousAbbreviation: return "zone abbreviations with several meanings; resolve them with --abbrev ABBR=Area/City"
        case .unknownZone: return "zone names that are neither IANA, Windows nor known abbreviations; fix the source or map the zone"
        case .fieldOrderAmbiguous: return "dates that read either day-first or month-first; pass --day-first or --month-first"
        case .dstGap: return "local times that do not exist (DST gap); they were moved forward (--on-gap reject refuses them)"
        case .dstOverlap: return "local times that occur twice (DST overlap); the earlier was used (see --on-overlap)"
        case .offsetZoneMismatch: return "explicit offsets that contradict the named zone at that instant; the offset was used — check which is right"
        default: return "see the message"
        }
    }
}
