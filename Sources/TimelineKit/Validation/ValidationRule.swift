/// What rules look at: every event that was read, and the zones involved.
public struct ValidationContext {
    public var events: [Event]
    /// Where days are counted (`--zone`).
    public var displayZone: ResolvedZone
    /// `--assume-zone`, when given.
    public var assumedZone: ResolvedZone?

    public init(events: [Event], displayZone: ResolvedZone, assumedZone: ResolvedZone?) {
        self.events = events
        self.displayZone = displayZone
        self.assumedZone = assumedZone
    }
}

/// A check over the converted events (a plug-in; the validator holds an explicit list).
public protocol ValidationRule {
    var code: FindingCode { get }
    /// Zero or one finding (a finding counts all affected events).
    func check(_ context: ValidationContext) -> Finding?
}

extension Event {
    /// An example for findings: where the event came from and its start's source text.
    func example(note: String? = nil, value: String? = nil) -> Finding.Example {
        Finding.Example(
            file: source?.file ?? "-", line: source?.line, value: value ?? start.raw ?? start.rfc3339, note: note)
    }
}

/// Runs the rules and folds in what the import found (rejects and date notices).
public struct Validator {
    public var rules: [any ValidationRule] = [
        AssumedZoneRule(), MixedOffsetsRule(), DayShiftRule(), SuspectZoneShiftRule(), DateAsMidnightRule(), EpochUnitRule(),
        DuplicateIDRule(), EndBeforeStartRule(),
    ]

    public init() {}

    /// - Parameters:
    ///   - rejects: records the import rejected (their codes become findings; E001 otherwise).
    ///   - notices: import warnings with codes (TZ104–TZ106 from the date engine).
    public func run(_ context: ValidationContext, records: Int, rejects: [RejectedRecord], notices: [Diagnostic]) -> ValidationReport {
        var findings = ImportFindings.from(rejects: rejects, notices: notices)
        findings += rules.compactMap { $0.check(context) }
        findings.sort { ($0.severity.rank, $1.code.rawValue) > ($1.severity.rank, $0.code.rawValue) }
        return ValidationReport(records: records, rejected: rejects.count, zone: context.displayZone.identifier, findings: findings)
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
