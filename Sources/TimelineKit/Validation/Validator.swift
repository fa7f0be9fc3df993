import Dispatch
import Foundation
import Synchronization

/// What the validator took from one batch of events: each event rule's digest (in the
/// order of the rules), and for the partitioned rules the batch itself (`keep`) and, once the
/// run encodes them, its keyed facts by store and partition. Made on a worker thread and
/// handed to the validator's queue.
package struct ValidationDigest: Sendable {
    fileprivate let parts: [any Sendable]
    fileprivate let batch: ValidationBatch
    fileprivate let keyed: [[[UInt8]]]?
}

/// Runs the rules over a stream of events and folds in what the import found (rejects and
/// date notices). One per run: every batch of events is digested (on any thread) and the
/// digests absorbed in input order, then `report`. The rules whose state grows with series
/// or ids (`PartitionedRule`) read their events at the end: the batches themselves while they
/// take under two thirds of `memory` (the rest is for those rules' own state, checked as one
/// partition), else by partition of their keyed facts, spilled to `directory`. Digesting
/// reads only the rules' settings (their static `digest`); everything that changes is in
/// `state`, folded in on the absorbing queue and read by `report` once that has drained.
final class Validator: EventStreamObserver, Sendable {
    package let context: ValidationContext
    /// Each event rule's `digest`, in the order of `ValidatorState.rules`.
    private let readers: [@Sendable (ValidationBatch) -> any Sendable]
    /// The keys of the facts this validation keeps (one store each), in order.
    let factKeys: [PartitionKey]
    /// Whether batches go to the stores as keyed facts (`ValidatorState.encoding`), for
    /// the worker threads: from then on they encode each batch's keyed facts as they
    /// digest it.
    private let encodesOnWorkers = Atomic<Bool>(false)
    /// Whether the run has begun to encode keyed facts (past its memory budget, or with a
    /// saved state folded in).
    var encoding: Bool { encodesOnWorkers.load(ordering: .relaxed) }
    private let state: Mutex<ValidatorState>

    /// - Parameters:
    ///   - memory: about how many bytes the partitioned rules' facts may take in memory.
    ///   - directory: where they spill past it; nil keeps them in memory.
    package init(_ context: ValidationContext, memory: Int = 256 << 20, directory: String? = nil) {
        self.context = context
        var rules: [AnyValidationRule] = []
        var ruleCodes: [FindingCode] = []
        var partitioned: [AnyPartitionedRule] = []
        for rule in RuleRegistry.all where !context.ignored.contains(rule.code) {
            if let check = rule.makePartitionedCheck(context) {
                partitioned.append(check)
            } else if let check = rule.makeCheck(context) {
                rules.append(check)
                ruleCodes.append(rule.code)
            }
        }
        readers = rules.map(\.reader)
        factKeys = Self.factKeys(ignoring: context.ignored)
        state = Mutex(
            ValidatorState(
                context: context, rules: rules, ruleCodes: ruleCodes, partitioned: partitioned,
                factKeys: factKeys, memory: memory, directory: directory))
    }

    /// An empty batch, filled as events are mapped (see `EventStreamObserver`).
    func makeObservation(expectedCount: Int) -> any EventObservation {
        let recent = recentCount.load(ordering: .relaxed)
        return ValidationObservation(
            capacity: recent > 0 ? recent + recent / 8 + 16 : expectedCount, validator: self)
    }

    /// How many events the batch digested last held: batches of one run are mostly alike,
    /// and a batch that reserves a little more than that is seldom copied into less room
    /// when it is held (`ValidationBatch.compact`), as one reserving for the largest batch
    /// so far (which may be half as large again as most) always is.
    private let recentCount = Atomic<Int>(0)

    /// Reads a filled batch; thread-safe.
    func digest(_ batch: ValidationBatch) -> ValidationDigest {
        if batch.count >= 64 { recentCount.store(batch.count, ordering: .relaxed) }
        let keyed =
            encodesOnWorkers.load(ordering: .relaxed)
            ? factKeys.map { KeyedFactCodec.encode(batch, key: $0) } : nil
        return ValidationDigest(parts: readers.map { $0(batch) }, batch: batch, keyed: keyed)
    }

    /// Folding digests in runs on its own thread, off the thread that delivers the events;
    /// at most `digestsInFlight` wait, so memory stays bounded.
    private let absorbing = DispatchQueue(label: "timeline.validation")
    private let slots = DispatchSemaphore(value: Validator.digestsInFlight)
    static let digestsInFlight = 8

    /// Takes a batch's digest; call in input order.
    func absorb(_ digest: ValidationDigest) {
        slots.wait()
        absorbing.async { [self] in
            withState { $0.absorb(digest) }
            slots.signal()
        }
    }

    /// Runs `body` on the state, then tells the workers if the state now encodes keyed facts.
    private func withState<R: Sendable, E: Error>(
        _ body: (inout ValidatorState) throws(E) -> R
    ) throws(E) -> R {
        let (result, encoding) = try state.withLock { (state) throws(E) in
            (try body(&state), state.encoding)
        }
        if encoding { encodesOnWorkers.store(true, ordering: .relaxed) }
        return result
    }

    /// - Parameters:
    ///   - records: records read (events and rejects).
    ///   - imported: the records the import rejected and its warnings with codes.
    /// - Throws: when the keyed facts could not be spilled or read back.
    package func report(records: Int, imported: ImportFindings = ImportFindings())
        throws(TimelineError) -> ValidationReport
    {
        absorbing.sync {}  // every digest folded in
        return try withState { (state) throws(TimelineError) in
            try state.report(records: records, imported: imported)
        }
    }

    /// What the run absorbed, to be folded into another run (`absorb(header:)`, then
    /// `absorb(facts:key:files:)`): the header — the run's files and offset span, each
    /// rule's absorbed state by code — and the keyed facts of each store by partition, as
    /// appended. Call before `report`, which uses the facts up.
    func saved() throws(TimelineError) -> (
        header: [UInt8], facts: [(key: PartitionKey, partitions: [[UInt8]])]
    ) {
        absorbing.sync {}
        return try withState { (state) throws(TimelineError) in try state.saved() }
    }

    /// The keys of the facts a validation leaving out `ignored` keeps: those of its
    /// partitioned rules, in `PartitionKey` order.
    static func factKeys(ignoring ignored: Set<FindingCode>) -> [PartitionKey] {
        // The rules' declarations only: no rule is made, so the zone does not matter.
        let context = ValidationContext(displayZone: .utc, assumedZone: nil, ignored: ignored)
        let keys = RuleRegistry.all.filter { !ignored.contains($0.code) }.compactMap {
            $0.makePartitionedCheck(context)?.key
        }
        return PartitionKey.allCases.filter(keys.contains)
    }

    /// Folds in the header of a run saved by `saved()` with the same context, as if its
    /// events came after those absorbed so far; returns the numbers of its files in this
    /// run, for its facts.
    func absorb(header r: inout BinaryReader) throws(BinaryReader.Corrupt) -> [Int32] {
        absorbing.sync {}
        let bytes = r.bytes
        let (files, at) = try withState { (state) throws(BinaryReader.Corrupt) in
            var reader = BinaryReader(bytes: bytes, at: r.at)
            let files = try state.absorb(header: &reader)
            return (files, reader.at)
        }
        r.at = at
        return files
    }

    /// Folds in a saved run's keyed facts for `key` by partition (empty for a partition
    /// finished elsewhere or not here), its files numbered `files` in this run; after its header.
    func absorb(facts partitions: [[UInt8]], key: PartitionKey, files: [Int32])
        throws(BinaryReader.Corrupt)
    {
        try withState { (state) throws(BinaryReader.Corrupt) in
            try state.absorb(facts: partitions, key: key, files: files)
        }
    }

    /// What the rules keyed by `key` find in each of its partitions (all `fanOut` of them),
    /// as a state saves a finished partition: the rules' count, then each rule's code and its
    /// parts. Uses the facts up, as `report` does.
    func finishedPartitions(of key: PartitionKey) throws(TimelineError) -> [[UInt8]] {
        absorbing.sync {}
        return try withState { (state) throws(TimelineError) in
            try state.finishedPartitions(of: key)
        }
    }

    /// Takes a partition of `key` finished elsewhere (`finishedPartitions(of:)`): its parts
    /// join those of the partitions checked here.
    func absorb(finished bytes: [UInt8], key: PartitionKey) throws(BinaryReader.Corrupt) {
        try withState { (state) throws(BinaryReader.Corrupt) in
            try state.absorb(finished: bytes, key: key)
        }
    }

    /// Observes `events` in batches of `batchSize` and reports (in memory: nothing spills).
    package func run(events: [Event], batchSize: Int = 4096, records: Int) -> ValidationReport {
        for start in stride(from: 0, to: events.count, by: max(1, batchSize)) {
            let batch = ValidationObservation(
                capacity: min(events.count - start, batchSize), validator: self)
            EventRef.forEach(
                in: events, range: start..<min(events.count, start + max(1, batchSize))
            ) { batch.add($0) }
            batch.digest().absorb()
        }
        do throws(TimelineError) {
            return try report(records: records)
        } catch {
            preconditionFailure(
                "a validation that spills nothing cannot fail to read back: \(error.diagnostic.text)"
            )
        }
    }
}

/// What a validation has absorbed: the event rules' state, the batches held for the
/// partitioned rules or the stores of their keyed facts, and the run's names. Reached only
/// through its `Validator`'s lock.
struct ValidatorState {
    private let context: ValidationContext
    private let rules: [AnyValidationRule]
    /// The rules' codes, as saved states name them.
    private let ruleCodes: [FindingCode]
    private let partitioned: [AnyPartitionedRule]
    /// The keyed facts, one store per key the partitioned rules use.
    private let stores: [(key: PartitionKey, store: KeyedFactStore)]
    /// The batches absorbed so far with their files' and series' run numbers, while
    /// `encoding` is false: a run whose batches fit (`keep`) never encodes keyed facts,
    /// and its partitioned rules read the batches as one partition.
    private var held: [(batch: ValidationBatch, numbers: BatchNumbers)] = []
    private var heldBytes = 0
    /// By partitioned rule, its check reading the held batches as they come, for the rules
    /// that may (`PartitionedRule.readsAsAbsorbed`), while batches are held: the conversion
    /// is still running then, and the end of the run has less to do on one core.
    private var absorbedChecks: [PartitionCheck?] = []
    /// Whether batches go to the stores as keyed facts: from the first batch past the budget
    /// (or the first saved state folded in) on, so every partition stays in input order.
    private(set) var encoding = false
    private let memory: Int
    private let directory: String?
    /// The run's files and series by number.
    private var names = RunNames()
    /// The first failure to spill keyed facts (reported by `report`).
    private var spillFailure: TimelineError?
    /// By key, each rule's parts of the partitions finished elsewhere (`absorb(finished:key:)`).
    private var finished: [PartitionKey: [[Any]]] = [:]

    init(
        context: ValidationContext, rules: [AnyValidationRule], ruleCodes: [FindingCode],
        partitioned: [AnyPartitionedRule], factKeys: [PartitionKey], memory: Int,
        directory: String?
    ) {
        self.context = context
        self.rules = rules
        self.ruleCodes = ruleCodes
        self.partitioned = partitioned
        self.memory = memory
        self.directory = directory
        stores = factKeys.map {
            ($0, KeyedFactStore(budget: memory / max(1, factKeys.count), directory: directory))
        }
        absorbedChecks = partitioned.map {
            $0.readsAsAbsorbed ? PartitionCheck([$0], RunNames()) : nil
        }
    }

    /// Folds a batch's digest in (batches in input order).
    mutating func absorb(_ digest: ValidationDigest) {
        // Series are numbered for the run only while batches are held (the partitioned
        // rules read held batches by them); the other rules read files only.
        let series = stores.isEmpty || encoding ? StringIndex() : digest.batch.series
        let numbers = names.numbers(
            for: digest.batch.files, series: series, offsetSpan: digest.batch.offsetSpan)
        for (rule, part) in zip(rules, digest.parts) { rule.absorb(part, numbers) }
        if !stores.isEmpty { keep(digest, numbers) }
    }

    /// Keeps a batch for the partitioned rules: held as it is while the batches fit in the
    /// budget (or nothing may spill), else encoded into the stores with all held before it.
    private mutating func keep(_ digest: ValidationDigest, _ numbers: BatchNumbers) {
        guard !encoding else {
            return store(digest.keyed ?? encode(digest.batch), files: numbers.files)
        }
        var batch = digest.batch
        batch.compact()
        held.append((batch, numbers))
        heldBytes += batch.approximateBytes
        var absorbedBytes = 0
        for check in absorbedChecks {
            check?.read(batch, numbers)
            absorbedBytes += check?.approximateBytes ?? 0
        }
        if heldBytes + absorbedBytes > memory / 3 * 2, directory != nil {
            encodeHeld(spilling: true)
        }
    }

    /// Moves the held batches into the stores, in input order; every later batch follows them.
    /// Past the budget the stores go to files at once: what did not fit held will not fit
    /// encoded either, and the held batches are released as they are encoded.
    private mutating func encodeHeld(spilling: Bool = false) {
        encoding = true
        // Each partition is checked by fresh instances from here on.
        absorbedChecks = absorbedChecks.map { _ in nil }
        if spilling {
            for (_, store) in stores where spillFailure == nil {
                do throws(TimelineError) { try store.spill() } catch { spillFailure = error }
            }
        }
        held.reverse()
        while let (batch, numbers) = held.popLast() { store(encode(batch), files: numbers.files) }
        heldBytes = 0
    }

    /// A batch's keyed facts for each store, by partition (file numbers the batch's).
    private func encode(_ batch: ValidationBatch) -> [[[UInt8]]] {
        stores.map { KeyedFactCodec.encode(batch, key: $0.key) }
    }

    /// Appends a batch's keyed facts to the stores, its files renumbered as the run's.
    private mutating func store(_ keyed: [[[UInt8]]], files: [Int32]) {
        let renumbered = files != Array(0..<Int32(files.count))
        for i in stores.indices where spillFailure == nil {
            var parts = keyed[i]
            if renumbered {
                for p in parts.indices { KeyedFactCodec.renumberFiles(&parts[p], files) }
            }
            do throws(TimelineError) { try stores[i].store.append(parts) } catch {
                spillFailure = error
            }
        }
    }

    /// - Parameters:
    ///   - records: records read (events and rejects).
    ///   - imported: the records the import rejected and its warnings with codes.
    /// - Throws: when the keyed facts could not be spilled or read back.
    mutating func report(records: Int, imported: ImportFindings) throws(TimelineError)
        -> ValidationReport
    {
        if let spillFailure { throw spillFailure }
        var findings = imported.findings.filter { !context.ignored.contains($0.code) }
        // Each rule finishes over its own state only: on all cores at once (the conversion
        // is over by now), in the rules' order.
        findings += Parallel.map(rules.count) { rules[$0].finish(names) }.compactMap { $0 }
        findings += try partitionedFindings()
        findings.sort {
            ($0.severity.rank, $1.code.rawValue) > ($1.severity.rank, $0.code.rawValue)
        }
        var report = ValidationReport(
            records: records, rejected: imported.rejected, zone: context.displayZone.identifier,
            findings: findings)
        report.zoneChoice = context.displayZoneChoice
        return report
    }

    /// Checks the held batches with a fresh instance of each partitioned rule, the rules on
    /// all cores at once; or each partition of each store with fresh instances of the rules
    /// keyed by it, combining their parts: the stores on all cores at once (each within its
    /// share of the memory), the partitions of one store in turn.
    private mutating func partitionedFindings() throws(TimelineError) -> [Finding] {
        guard encoding else {
            // The held batches as one partition: each rule reads them on its own, all at once.
            if stores.contains(where: { $0.key == .id }) {
                GeneratedIDs.markCollisions(in: &held, names: names.files.strings)
            }
            return Parallel.map(partitioned.count) { heldFinding($0) }.compactMap { $0 }
        }
        let results = Parallel.map(stores.count) { i in
            Result { () throws(TimelineError) in try self.findings(of: i) }
        }
        var findings: [Finding] = []
        for result in results { findings += try result.get() }
        return findings
    }

    /// The finding of partitioned rule `i` over the held batches, as one partition.
    private func heldFinding(_ i: Int) -> Finding? {
        let rule = partitioned[i]
        var check: PartitionCheck
        if let absorbed = absorbedChecks[i] {
            check = absorbed
            check.finishes(with: names)
        } else {
            check = PartitionCheck([rule], names)
            for (batch, numbers) in held { check.read(batch, numbers) }
        }
        if check.startRereading() {
            for (batch, numbers) in held { check.reread(batch, numbers) }
        }
        return rule.combine(check.parts())
    }

    /// The findings of the rules keyed by store `i`'s key: over each partition of the store,
    /// and the partitions finished elsewhere.
    private func findings(of i: Int) throws(TimelineError) -> [Finding] {
        let (keyed, parts) = try parts(of: i)
        let finished = self.finished[stores[i].key] ?? []
        return keyed.indices.compactMap { r in
            keyed[r].combine(parts.flatMap { $0[r] } + (finished.isEmpty ? [] : finished[r]))
        }
    }

    /// By partition of store `i` (at level 0), each rule of its key, its parts (several for
    /// a partition split to fit the budget, none for a partition without facts).
    private func parts(of i: Int) throws(TimelineError) -> (
        rules: [AnyPartitionedRule], parts: [[[Any]]]
    ) {
        let (key, store) = stores[i]
        let keyed = partitioned.filter { $0.key == key }
        var parts = [[[Any]]](
            repeating: [[Any]](repeating: [], count: keyed.count), count: KeyedFactCodec.fanOut)
        let files = names.files.strings
        try store.forEachPartition { number, partition throws(TimelineError) in
            var check = PartitionCheck(keyed, names.forPartition())
            try Self.replay(partition, files: files) { check.read($0) }
            if check.startRereading() {
                try Self.replay(partition, files: files) { check.reread($0) }
            }
            for (r, part) in check.parts().enumerated() { parts[number][r].append(part) }
        }
        return (keyed, parts)
    }

    /// Calls `body` with a partition's keyed facts as batches, in input order.
    private static func replay(
        _ partition: KeyedFactStore.Partition, files: [String], _ body: (ValidationBatch) -> Void
    ) throws(TimelineError) {
        var batch = ValidationBatch(replaying: files, capacity: Self.replayBatch)
        var scratch: [UInt8] = []
        try partition.forEachRecord { _, bytes, payload throws(TimelineError) in
            do throws(BinaryReader.Corrupt) {
                try KeyedFactCodec.decode(bytes, at: payload, into: &batch, scratch: &scratch)
            } catch {
                throw TimelineError(
                    .ioError,
                    "the validation's temporary facts were damaged while it ran; run it again")
            }
            if batch.count == Self.replayBatch {
                body(batch)
                batch = ValidationBatch(replaying: files, capacity: Self.replayBatch)
            }
        }
        if batch.count > 0 { body(batch) }
    }

    /// Fresh instances of the rules of one key reading one partition's batches in input
    /// order, with a series numbering of their own; then again, by those that ask to
    /// (`PartitionedRule.rereads`).
    private struct PartitionCheck {
        private let checks: [AnyPartitionedRule.PartitionCheck]
        private var names: RunNames
        private var rereading: [AnyPartitionedRule.PartitionCheck] = []

        init(_ keyed: [AnyPartitionedRule], _ names: RunNames) {
            checks = keyed.map { $0.makeCheck() }
            self.names = names
        }

        /// Reads a batch, numbering its series in this partition.
        mutating func read(_ batch: ValidationBatch) {
            read(batch, names.numbers(for: batch.files, series: batch.series, offsetSpan: nil))
        }

        /// Reads a batch whose files and series `names` has numbered already.
        func read(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
            for check in checks { check.read(batch, numbers) }
        }

        /// Takes the run's names, for a check that read batches the run numbered as they came.
        mutating func finishes(with names: RunNames) {
            self.names = names
        }

        /// About the bytes the rules' states take.
        var approximateBytes: Int { checks.reduce(0) { $0 + $1.approximateBytes() } }

        /// After the first reading: whether some rule reads the batches again.
        mutating func startRereading() -> Bool {
            rereading = checks.filter { $0.rereads() }
            return !rereading.isEmpty
        }

        /// Reads a batch again (numbered as the first time: every series is known by now).
        mutating func reread(_ batch: ValidationBatch) {
            reread(batch, names.numbers(for: batch.files, series: batch.series, offsetSpan: nil))
        }

        func reread(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
            for check in rereading { check.reread(batch, numbers) }
        }

        /// Each rule's part, in the order of the rules.
        func parts() -> [Any] { checks.map { $0.finish(names) } }
    }

    private static let replayBatch = 4096

    // MARK: Saved states

    /// What the run absorbed, to be folded into another run (`absorb(header:)`, then
    /// `absorb(facts:key:files:)`): the header — the run's files and offset span, each
    /// rule's absorbed state by code — and the keyed facts of each store by partition, as
    /// appended. Call before `report`, which uses the facts up.
    mutating func saved() throws(TimelineError) -> (
        header: [UInt8], facts: [(key: PartitionKey, partitions: [[UInt8]])]
    ) {
        if !encoding { encodeHeld() }
        if let spillFailure { throw spillFailure }
        var out: [UInt8] = []
        BinaryWriter.strings(names.files.strings, &out)
        BinaryWriter.optional(names.offsetSpan, &out) { span, out in
            BinaryWriter.int(span.lowerBound, &out)
            BinaryWriter.int(span.upperBound, &out)
        }
        BinaryWriter.count(rules.count, &out)
        for (code, rule) in zip(ruleCodes, rules) {
            guard let save = rule.save else {
                preconditionFailure(
                    "\(code) keeps state it cannot save: declare it a MergeableRule")
            }
            BinaryWriter.string(code.rawValue, &out)
            save().withByteView { BinaryWriter.bytes($0, &out) }
        }
        var facts: [(PartitionKey, [[UInt8]])] = []
        for (key, store) in stores {
            var partitions: [[UInt8]] = []
            for p in 0..<KeyedFactCodec.fanOut { partitions.append(try store.records(of: p)) }
            facts.append((key, partitions))
        }
        return (out, facts)
    }

    /// Folds in the header of a run saved by `saved()` with the same context, as if its
    /// events came after those absorbed so far; returns the numbers of its files in this
    /// run, for its facts.
    mutating func absorb(header r: inout BinaryReader) throws(BinaryReader.Corrupt) -> [Int32] {
        if !encoding { encodeHeld() }
        let files = try r.strings()
        let span = try r.optional { (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
            let (low, high) = (try r.int(), try r.int())
            guard low <= high else { throw BinaryReader.Corrupt() }
            return low...high
        }
        let numbers = names.numbers(for: files, series: StringIndex(), offsetSpan: span)
        guard try r.count() == rules.count else { throw BinaryReader.Corrupt() }
        for (code, rule) in zip(ruleCodes, rules) {
            guard try r.string() == code.rawValue else { throw BinaryReader.Corrupt() }
            var state = BinaryReader(bytes: r.bytes, at: 0)
            let range = try r.bytesRange()
            state.at = range.lowerBound
            try rule.restore!(&state, numbers)
            guard state.at == range.upperBound else { throw BinaryReader.Corrupt() }
        }
        return numbers.files
    }

    /// Folds in a saved run's keyed facts for `key` by partition (empty for a partition
    /// finished elsewhere or not here), its files numbered `files` in this run; after its header.
    mutating func absorb(facts partitions: [[UInt8]], key: PartitionKey, files: [Int32])
        throws(BinaryReader
        .Corrupt)
    {
        guard let i = stores.firstIndex(where: { $0.key == key }),
            partitions.count == KeyedFactCodec.fanOut
        else { throw BinaryReader.Corrupt() }
        var parts = partitions
        // Files are renumbered in place; a frame that does not fit is damage.
        for p in parts.indices where !parts[p].isEmpty {
            guard KeyedFactCodec.renumberFiles(&parts[p], files, checkingPayloads: true) else {
                throw BinaryReader.Corrupt()
            }
        }
        do throws(TimelineError) { try stores[i].store.append(parts) } catch {
            spillFailure = spillFailure ?? error
        }
    }

    /// What the rules keyed by `key` find in each of its partitions (all `fanOut` of them),
    /// as a state saves a finished partition: the rules' count, then each rule's code and its
    /// parts. Uses the facts up, as `report` does.
    func finishedPartitions(of key: PartitionKey) throws(TimelineError) -> [[UInt8]] {
        if let spillFailure { throw spillFailure }
        guard let i = stores.firstIndex(where: { $0.key == key }) else { return [] }
        let (keyed, parts) = try parts(of: i)
        return parts.map { byRule in
            var out: [UInt8] = []
            BinaryWriter.count(keyed.count, &out)
            for (rule, rulesParts) in zip(keyed, byRule) {
                BinaryWriter.string(rule.code.rawValue, &out)
                BinaryWriter.count(rulesParts.count, &out)
                for part in rulesParts { rule.encodePart(part, &out) }
            }
            return out
        }
    }

    /// Takes a partition of `key` finished elsewhere (`finishedPartitions(of:)`): its parts
    /// join those of the partitions checked here.
    mutating func absorb(finished bytes: [UInt8], key: PartitionKey) throws(BinaryReader.Corrupt) {
        let keyed = partitioned.filter { $0.key == key }
        var r = BinaryReader(bytes: bytes, at: 0)
        guard try r.count() == keyed.count else { throw BinaryReader.Corrupt() }
        var parts = finished[key] ?? [[Any]](repeating: [], count: keyed.count)
        for (n, rule) in keyed.enumerated() {
            guard try r.string() == rule.code.rawValue else { throw BinaryReader.Corrupt() }
            for _ in 0..<(try r.count()) { parts[n].append(try rule.decodePart(&r)) }
        }
        guard r.at == bytes.count else { throw BinaryReader.Corrupt() }
        finished[key] = parts
    }
}
