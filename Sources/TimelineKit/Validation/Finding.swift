/// A finding's stable code and name (`TZ103`, `day-shift`), declared by the rule that
/// reports it (`FindingCode.dayShift` in `Rules/DayShiftRule.swift`). Two codes are equal
/// when their texts are.
public struct FindingCode: Hashable, Sendable, CustomStringConvertible {
    /// `TZ101`…, `E001`….
    public let rawValue: String
    /// `naive-time`, `day-shift`, ….
    public let name: String

    package init(_ rawValue: String, name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    /// The code with this text, among the registered rules' codes.
    public init?(rawValue: String) {
        guard let rule = RuleRegistry.rule(rawValue) else { return nil }
        self = rule.code
    }

    /// Every code a report can carry, in registry order.
    public static var all: [FindingCode] { RuleRegistry.all.map { $0.code } }

    /// What findings with this code are about, in a line.
    public var summary: String { summary(for: .library) }

    /// The summary with its settings named for `audience`.
    package func summary(for audience: MessageAudience) -> String {
        SettingText.rendered(RuleRegistry.rule(rawValue)?.summary ?? "", for: audience)
    }

    /// The first and last of the codes that begin with `prefix` (`TZ101–TZ114`), as lists
    /// of codes name them.
    package static func range(_ prefix: String) -> String {
        let codes = all.map(\.rawValue).filter {
            $0.hasPrefix(prefix) && $0.dropFirst(prefix.count).allSatisfy(\.isNumber)
        }.sorted()
        guard let first = codes.first, let last = codes.last else { return "" }
        return first == last ? first : "\(first)–\(last)"
    }

    public var description: String { rawValue }

    public static func == (a: FindingCode, b: FindingCode) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// One kind of problem found, how often, what to do, and up to five examples.
public struct Finding: Sendable {
    /// One affected value, where it is, and a note on it.
    public struct Example: Sendable, Hashable {
        /// The input it is in.
        public var file: String
        /// Its line.
        public var line: Int?
        /// The value as written, or the message about it, settings marked (`SettingText`).
        package var valueText: String
        /// The value as written (a date, an id, a rejected record), or the message about it.
        public var value: String {
            get { SettingText.rendered(valueText, for: .library) }
            set { valueText = newValue }
        }
        /// What is wrong with it, briefly.
        public var note: String?

        /// An example.
        public init(file: String, line: Int?, value: String, note: String? = nil) {
            self.file = file
            self.line = line
            self.valueText = value
            self.note = note
        }
    }

    /// A finding keeps at most this many examples.
    public static let maximumExamples = 5

    /// What kind of problem.
    public var code: FindingCode
    /// How serious.
    public var severity: Severity
    /// How many events or values it concerns.
    public var count: Int
    /// What was found and what to do about it, settings marked (`SettingText`).
    package var text: String
    /// What was found and what to do about it, settings named as the library names them.
    public var message: String {
        get { SettingText.rendered(text, for: .library) }
        set { text = newValue }
    }
    /// The first few affected values.
    public var examples: [Example]

    /// A finding; only the first `maximumExamples` examples are kept.
    public init(
        code: FindingCode, severity: Severity, count: Int, message: String,
        examples: [Example]
    ) {
        self.code = code
        self.severity = severity
        self.count = count
        self.text = message
        self.examples = Array(examples.prefix(Self.maximumExamples))
    }
}

/// The result of a validation run (docs/validation.md, `Schemas/validation-report.schema.json`).
public struct ValidationReport: Sendable {
    /// Records read (events and rejects).
    public var records: Int
    /// Records rejected.
    public var rejected: Int
    /// The display zone days were counted in.
    public var zone: String
    /// How the zone was chosen (the user, the data, a default), and so why it was used.
    package var zoneChoice: DisplayZoneChoice = .named
    /// Worst first, then by code.
    public var findings: [Finding]

    /// A report; the zone is taken as chosen by the user.
    public init(records: Int, rejected: Int, zone: String, findings: [Finding]) {
        self.records = records
        self.rejected = rejected
        self.zone = zone
        self.findings = findings
    }

    /// The number of findings of `severity`.
    public func count(_ severity: Severity) -> Int {
        findings.filter { $0.severity == severity }.count
    }

    /// True when a finding reaches `level` (`nil`: never).
    public func fails(at level: Severity?) -> Bool {
        guard let level else { return false }
        return findings.contains { $0.severity >= level }
    }

    /// The JSON report.
    public var json: [UInt8] { json(for: .library) }

    /// The JSON report, its messages naming settings for `audience`.
    package func json(for audience: MessageAudience) -> [UInt8] {
        var w = JSONWriter()
        w.raw("{\"summary\":{\"records\":")
        appendDigits(records, width: 1, to: &w.bytes)
        w.raw(",\"rejected\":")
        appendDigits(rejected, width: 1, to: &w.bytes)
        for (name, severity) in [
            ("errors", Severity.error), ("warnings", .warning), ("infos", .info),
        ] {
            w.bytes += Array(",\"\(name)\":".utf8)
            appendDigits(count(severity), width: 1, to: &w.bytes)
        }
        w.raw(",\"zone\":")
        w.string(zone)
        w.raw(",\"zoneReason\":")
        w.string(zoneChoice.reason(for: audience))
        w.raw("},\"findings\":[")
        for (i, f) in findings.enumerated() {
            if i > 0 { w.bytes.append(UInt8(ascii: ",")) }
            w.raw("\n{\"code\":")
            w.string(f.code.rawValue)
            w.raw(",\"name\":")
            w.string(f.code.name)
            w.raw(",\"severity\":")
            w.string(f.severity.rawValue)
            w.raw(",\"count\":")
            appendDigits(f.count, width: 1, to: &w.bytes)
            w.raw(",\"message\":")
            w.string(SettingText.rendered(f.text, for: audience))
            w.raw(",\"examples\":[")
            for (j, e) in f.examples.enumerated() {
                if j > 0 { w.bytes.append(UInt8(ascii: ",")) }
                w.raw("{\"file\":")
                w.string(e.file)
                if let line = e.line {
                    w.raw(",\"line\":")
                    appendDigits(line, width: 1, to: &w.bytes)
                }
                w.raw(",\"value\":")
                w.string(SettingText.rendered(e.valueText, for: audience))
                if let note = e.note {
                    w.raw(",\"note\":")
                    w.string(note)
                }
                w.bytes.append(UInt8(ascii: "}"))
            }
            w.raw("]}")
        }
        w.raw(findings.isEmpty ? "]}\n" : "\n]}\n")
        return w.bytes
    }

    /// The report for people: findings grouped by severity, worst first, then one summary line.
    public var text: String { text(for: .library) }

    /// The report for people, its messages naming settings for `audience`.
    package func text(for audience: MessageAudience) -> String {
        var out = ""
        for severity in [Severity.error, .warning, .info] {
            let group = findings.filter { $0.severity == severity }
            guard !group.isEmpty else { continue }
            out += "\(severity.rawValue.uppercased())S\n"
            for f in group {
                out +=
                    "  \(f.code.rawValue) \(f.code.name) (\(f.count)): \(VisibleText.forPeople(SettingText.rendered(f.text, for: audience)))\n"
                for e in f.examples {
                    let place = VisibleText.forPeople(e.line.map { "\(e.file):\($0)" } ?? e.file)
                    out +=
                        "      \(place): \(VisibleText.forPeople(SettingText.rendered(e.valueText, for: audience)))"
                        + (e.note.map { "  (\(VisibleText.forPeople($0)))" } ?? "") + "\n"
                }
            }
            out += "\n"
        }
        out +=
            "\(records) records, \(rejected) rejected; \(count(.error)) errors, \(count(.warning)) warnings, \(count(.info)) notes; days counted in \(zoneChoice.describing(zone, for: audience))\n"
        return out
    }
}
