import Dispatch
import Foundation
import Synchronization

/// The zones a validation runs against, and the codes left out of it.
package struct ValidationContext: Sendable {
    /// Where days are counted (`--zone`).
    package var displayZone: ResolvedZone
    /// `--assume-zone`, when given.
    package var assumedZone: ResolvedZone?
    /// How the display zone was chosen: findings that hinge on a day in it are warnings
    /// only in a zone the user chose.
    package var displayZoneChoice: DisplayZoneChoice = .named
    /// Codes whose checks are not run and whose findings are not reported (`--ignore`).
    package var ignored: Set<FindingCode> = []

    package init(
        displayZone: ResolvedZone, assumedZone: ResolvedZone?, ignored: Set<FindingCode> = []
    ) {
        self.displayZone = displayZone
        self.assumedZone = assumedZone
        self.ignored = ignored
    }
}

/// A check over the converted events (a plug-in; the validator holds an explicit list).
/// Streaming, in two steps so the per-event work runs on the worker threads that map the
/// events: the static `digest` reads one batch (on any thread, several batches at once, with
/// the run's settings only — being static, it cannot reach a rule's state) and returns what
/// the finding needs from it (counts, the first examples, compact per-series facts, with
/// files and series by their batch numbers); `absorb` takes the digests one by one in input
/// order, with the batch numbers translated to the run's, and folds them in. The rule never
/// holds the events.
protocol ValidationRule: AnyObject {
    associatedtype Digest: Sendable
    static func digest(_ batch: ValidationBatch, _ context: ValidationContext) -> Digest
    func absorb(_ digest: consuming Digest, _ numbers: BatchNumbers)
    /// Zero or one finding (a finding counts all affected events); `names` has the files
    /// and series of the run by the numbers absorbed.
    func finish(_ names: RunNames) -> Finding?
}

/// A rule of any digest type, for the validator's list: what reads a batch, on any thread,
/// and the rule's state, which takes what was read.
struct AnyValidationRule {
    /// The rule's `digest` with the run's settings.
    let reader: @Sendable (ValidationBatch) -> any Sendable
    /// Folds in a digest `reader` made.
    let absorb: (any Sendable, BatchNumbers) -> Void
    let finish: (RunNames) -> Finding?
    /// For a `MergeableRule`: its absorbed state, and folding a saved state in (with the
    /// saving run's file numbers translated by the numbers).
    let save: (() -> [UInt8])?
    let restore: ((inout BinaryReader, BatchNumbers) throws(BinaryReader.Corrupt) -> Void)?

    init<Rule: ValidationRule>(_ rule: Rule, _ context: ValidationContext) {
        reader = { Rule.digest($0, context) }
        absorb = { rule.absorb($0 as! Rule.Digest, $1) }
        finish = { rule.finish($0) }
        save = nil
        restore = nil
    }

    init<Rule: MergeableRule>(mergeable rule: Rule, _ context: ValidationContext) {
        reader = { Rule.digest($0, context) }
        absorb = { rule.absorb($0 as! Rule.Digest, $1) }
        finish = { rule.finish($0) }
        save = {
            var out: [UInt8] = []
            rule.absorbed.encode(to: &out)
            return out
        }
        restore = { (r: inout BinaryReader, numbers) throws(BinaryReader.Corrupt) in
            rule.absorb(try Rule.Digest(decoding: &r), numbers)
        }
    }
}

/// A rule whose state grows with the keys it tracks — series, ids — rather than staying
/// small. The validator keeps the batches while they fit in the memory budget, else what it
/// reads of each event by partition of the key (`KeyedFactStore`, spilling to disk), and
/// checks the batches, or each partition, with a fresh instance: every event of a key is in
/// one partition, in input order. Each
/// instance finishes with a `Part` (counts and the first few flagged keys by the order the
/// finding lists them), and `finding(combining:)` makes of the parts what one instance that
/// saw every event would report, whatever the partitions were.
protocol PartitionedRule: RuleDeclaration, AnyObject {
    /// Saved in a state when a partition is finished apart from the others (a merge by
    /// partition, `ValidationState.finishingPartitions`).
    associatedtype Part: StateCodable
    /// Which events must meet in one partition.
    static var partitionKey: PartitionKey { get }
    init(_ context: ValidationContext)
    /// Reads the partition's next batch (`numbers`: its files in the run, its series in the
    /// partition). A partition is read on one thread, so a rule reads its events straight into
    /// its state, with no digest to fold in.
    func read(_ batch: ValidationBatch, _ numbers: BatchNumbers)
    /// After the partition's batches are read: whether the rule reads them again
    /// (`reread`, in the same order and numbering) before it finishes. A rule that needs the
    /// whole of only a few keys learns which in the first reading and keeps just theirs in
    /// the second. The default is no.
    func rereads() -> Bool
    func reread(_ batch: ValidationBatch, _ numbers: BatchNumbers)
    /// Whether the rule may read the batches held in memory as they are absorbed, during
    /// the conversion, rather than at its end: true when what it reads of a batch does not
    /// depend on later ones (TZ113 does: it needs to know every file first). The default is no.
    static var readsAsAbsorbed: Bool { get }
    /// About the bytes the rule's state takes (what it keeps beyond the batches' own
    /// texts): a rule reading held batches as they come counts against the same budget.
    var approximateBytes: Int { get }
    /// What this instance found, to be combined with the other partitions'.
    func finishPart(_ names: RunNames) -> Part
    /// The finding of all the parts (in any order), nil when none flags anything.
    static func finding(combining parts: [Part]) -> Finding?
}

extension PartitionedRule {
    static func makePartitionedCheck(_ context: ValidationContext) -> AnyPartitionedRule? {
        AnyPartitionedRule(Self.self, context)
    }
    func rereads() -> Bool { false }
    func reread(_ batch: ValidationBatch, _ numbers: BatchNumbers) {}
    static var readsAsAbsorbed: Bool { false }
    var approximateBytes: Int { 0 }
}

/// A partitioned rule of any part type, for the validator's list: a fresh check per
/// partition, and the combination of their parts.
struct AnyPartitionedRule {
    /// One partition's check: it reads the partition's batches and finishes with its part.
    struct PartitionCheck {
        let read: (ValidationBatch, BatchNumbers) -> Void
        let rereads: () -> Bool
        let approximateBytes: () -> Int
        let reread: (ValidationBatch, BatchNumbers) -> Void
        let finish: (RunNames) -> Any
    }

    let code: FindingCode
    let key: PartitionKey
    let readsAsAbsorbed: Bool
    let makeCheck: () -> PartitionCheck
    let combine: ([Any]) -> Finding?
    let encodePart: (Any, inout [UInt8]) -> Void
    let decodePart: (inout BinaryReader) throws(BinaryReader.Corrupt) -> Any

    init<Rule: PartitionedRule>(_ rule: Rule.Type, _ context: ValidationContext) {
        code = Rule.code
        key = Rule.partitionKey
        readsAsAbsorbed = Rule.readsAsAbsorbed
        makeCheck = {
            let rule = Rule(context)
            return PartitionCheck(
                read: { rule.read($0, $1) }, rereads: { rule.rereads() },
                approximateBytes: { rule.approximateBytes },
                reread: { rule.reread($0, $1) }, finish: { rule.finishPart($0) })
        }
        combine = { parts in Rule.finding(combining: parts.map { $0 as! Rule.Part }) }
        encodePart = { part, out in (part as! Rule.Part).encode(to: &out) }
        decodePart = { (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
            try Rule.Part(decoding: &r)
        }
    }
}

/// The number of events a rule flagged and the first few as examples (all a finding shows).
struct FlaggedEvents {
    private(set) var count = 0
    private(set) var examples: [Finding.Example] = []

    init() {}

    /// Read back from a saved state.
    init(count: Int, examples: [Finding.Example]) {
        self.count = count
        self.examples = examples
    }

    mutating func add(_ example: @autoclosure () -> Finding.Example) {
        count += 1
        if examples.count < Finding.maximumExamples { examples.append(example()) }
    }

    /// Adds events flagged after these (a later batch's digest).
    mutating func add(_ later: FlaggedEvents) {
        count += later.count
        examples += later.examples.prefix(Finding.maximumExamples - examples.count)
    }
}

/// Per-file state for rules that judge each input file on its own, by file number (the
/// batch's in a digest, the run's in the rule).
struct PerFile<State> {
    private(set) var states: [State?] = []

    mutating func with<R>(_ file: Int32, initial: () -> State, _ body: (inout State) -> R) -> R {
        let i = Int(file)
        if i >= states.count { states += repeatElement(nil, count: i + 1 - states.count) }
        if states[i] == nil { states[i] = initial() }
        return body(&states[i]!)
    }

    /// The files and their states, by file name.
    func sorted(_ names: RunNames) -> [(file: String, state: State)] {
        states.indices.compactMap { i in states[i].map { (names.files.strings[i], $0) } }.sorted {
            $0.file < $1.file
        }
    }
}

extension PerFile: Sendable where State: Sendable {}

/// A per-file state that a later batch's state of the same file can be folded into.
protocol FileFoldable {
    init()
    /// The state after `later` (the same file's next events).
    mutating func add(_ later: Self)
}

extension PerFile where State: FileFoldable {
    mutating func with<R>(_ file: Int32, _ body: (inout State) -> R) -> R {
        with(file, initial: { State() }, body)
    }

    /// Folds a later batch's states in, file by file (`files`: the batch's file numbers in the run).
    mutating func add(_ later: PerFile<State>, files: [Int32]) {
        for (i, state) in later.states.enumerated() {
            if let state { with(files[i]) { $0.add(state) } }
        }
    }
}

/// Findings made of what the import already knew: rejected records by their code, and the
/// date engine's notices (DST gaps and overlaps resolved, offsets contradicting zones).
/// Counted as they come, keeping per code only what a finding shows (the first reason and
/// examples), so a file of a million bad rows costs no more than one of five.
struct ImportFindings {
    /// One code's count, the first reject's reason and the first examples.
    fileprivate struct Tally {
        var count = 0
        var first = ""
        var examples: [Finding.Example] = []

        mutating func add(
            _ reason: @autoclosure () -> String, _ example: @autoclosure () -> Finding.Example
        ) {
            if count == 0 { first = reason() }
            count += 1
            if examples.count < Finding.maximumExamples { examples.append(example()) }
        }
    }

    private var rejects: [FindingCode: Tally] = [:]
    private var notices: [FindingCode: Tally] = [:]
    /// Records rejected.
    private(set) var rejected = 0

    init() {}

    mutating func add(reject r: RejectedRecord) {
        rejected += 1
        rejects[r.code, default: Tally()].add(
            r.reasonText,
            Finding.Example(file: r.location.file, line: r.location.line, value: r.raw))
    }

    /// Keeps a diagnostic that carries a finding code (TZ104–TZ106 from the date engine).
    mutating func add(notice n: Diagnostic) {
        guard let code = n.code.flatMap(FindingCode.init(rawValue:)) else { return }
        notices[code, default: Tally()].add(
            n.text,
            Finding.Example(file: n.location?.file ?? "-", line: n.location?.line, value: n.text)
        )
    }

    var findings: [Finding] {
        rejects.sorted { $0.key.rawValue < $1.key.rawValue }.map { code, t in
            Finding(
                code: code, severity: .error, count: t.count,
                message:
                    "\(t.count) record(s) rejected: \(Self.advice(code)); the first: \(t.first)",
                examples: t.examples)
        }
            + notices.sorted { $0.key.rawValue < $1.key.rawValue }.map { code, t in
                Finding(
                    code: code, severity: .warning, count: t.count,
                    message: "\(t.count) value(s): \(Self.advice(code))", examples: t.examples)
            }
    }

    /// What the rule that declares `code` says to do about what reading found.
    static func advice(_ code: FindingCode) -> String {
        RuleRegistry.rule(code.rawValue)?.readingAdvice ?? "see the message"
    }
}

extension ImportFindings: StateCodable {
    /// Adds what reading found in a later part of the input (a merge of saved states).
    mutating func add(_ later: ImportFindings) {
        rejected += later.rejected
        for (code, tally) in later.rejects { rejects[code, default: Tally()].add(tally) }
        for (code, tally) in later.notices { notices[code, default: Tally()].add(tally) }
    }

    func encode(to out: inout [UInt8]) {
        BinaryWriter.count(rejected, &out)
        for tallies in [rejects, notices] {
            BinaryWriter.count(tallies.count, &out)
            for (code, t) in tallies.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                BinaryWriter.string(code.rawValue, &out)
                BinaryWriter.count(t.count, &out)
                BinaryWriter.string(t.first, &out)
                t.examples.encode(to: &out)
            }
        }
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        self.init()
        rejected = try r.number()
        func tallies(_ r: inout BinaryReader) throws(BinaryReader.Corrupt) -> [FindingCode: Tally] {
            var tallies: [FindingCode: Tally] = [:]
            for _ in 0..<(try r.count()) {
                guard let code = FindingCode(rawValue: try r.string()) else {
                    throw BinaryReader.Corrupt()
                }
                tallies[code] = Tally(
                    count: try r.number(), first: try r.string(), examples: try r.list())
            }
            return tallies
        }
        rejects = try tallies(&r)
        notices = try tallies(&r)
    }
}

extension ImportFindings.Tally {
    mutating func add(_ later: Self) {
        if count == 0 { first = later.first }
        count += later.count
        examples += later.examples.prefix(Finding.maximumExamples - examples.count)
    }
}
