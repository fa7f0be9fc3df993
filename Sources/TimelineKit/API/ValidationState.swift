import Foundation

/// What a validation must remember to be merged with validations of other parts of the
/// input — `timeline validate --state-out`, then `--merge`: a job that validates the
/// partitions of a large input on many machines merges their states into the report one
/// run over the whole input gives.
///
/// A state is a set of entries, and merging is their union (in any grouping and order;
/// an entry met twice counts once):
/// - a **slice** per validated run, named by where its input starts (the first source's
///   name and first record): each rule's counts and first examples, the files, what
///   reading rejected. The report folds the slices in by name, then first record — the
///   order of one run over the files in name order, slices of one file in file order.
/// - the **facts** the rules over ids and series (TZ102, TZ107, TZ113) compare across
///   slices, one entry per slice and partition of their key (`partitionCount` of them):
///   they grow with the events that carry an id or a series.
/// - a **finished partition**: what those rules found in one partition over a set of
///   slices, in place of those slices' facts — a few examples and counts. A cluster merges
///   partition by partition (`splitByPartition`, then `finishingPartitions` where each
///   partition's facts meet), so the state that reaches one machine holds only slices and
///   finished partitions.
///
/// The file format (version 2; integers little endian, byte strings as a 4-byte length and
/// the bytes, counts as 8 bytes): the 8 bytes `TLVSTATE`, the version (4 bytes); the
/// context — display zone, how it was chosen (a byte: named, assumed, declared, defaulted,
/// several zones; then the declared reason or the zones), assumed zone (behind a 0/1 byte),
/// the ignored codes; the entry count; each entry as its kind (a byte: 0 slice, 1 facts,
/// 2 finished partition), its length, a 64-bit hash of its bytes and the bytes; then the 8
/// bytes `TLVS-END`. A reader refuses another version, a file cut short and an entry that
/// does not match its hash.
package struct ValidationState: Sendable {
    /// The version of the format this build writes and reads.
    package static let formatVersion: UInt32 = 3
    /// How many partitions the facts are cut into (`splitByPartition`).
    package static let partitionCount = KeyedFactCodec.fanOut
    private static let magic = Array("TLVSTATE".utf8)
    private static let trailer = Array("TLVS-END".utf8)

    /// What every merged state must share: where days are counted, the assumed zone and the
    /// codes left out.
    struct Context: Hashable, Sendable {
        var displayZone: String
        var choice: DisplayZoneChoice
        var assumedZone: String?
        var ignored: [String]

        init(_ context: ValidationContext) {
            displayZone = context.displayZone.identifier
            choice = context.displayZoneChoice
            assumedZone = context.assumedZone?.identifier
            ignored = context.ignored.map(\.rawValue).sorted()
        }

        init(
            displayZone: String, choice: DisplayZoneChoice, assumedZone: String?, ignored: [String]
        ) {
            self.displayZone = displayZone
            self.choice = choice
            self.assumedZone = assumedZone
            self.ignored = ignored
        }

        /// The choice as a kind byte and its reason.
        var choiceFields: (UInt8, String) {
            switch choice {
            case .named: return (0, "")
            case .assumed: return (1, "")
            case .declared(let why): return (2, why)
            case .fromData, .defaulted: return (3, "")
            case .severalZones(let zones): return (4, zones.joined(separator: "\n"))
            }
        }

        static func choice(kind: UInt8, reason: String) -> DisplayZoneChoice? {
            switch kind {
            case 0: return .named
            case 1: return .assumed
            case 2: return .declared(reason)
            case 3: return .defaulted
            case 4: return .severalZones(reason.split(separator: "\n").map(String.init))
            default: return nil
            }
        }

        var description: String {
            "days counted in \(displayZone) (\(choice.reasonText)), assumed zone \(assumedZone ?? "none"), ignored codes \(ignored.isEmpty ? "none" : ignored.joined(separator: ","))"
        }
    }

    /// Where a slice's input starts: it names the slice.
    struct SliceName: Hashable, Comparable, Sendable {
        var source: String
        var firstRecord: Int

        static func < (a: Self, b: Self) -> Bool {
            (a.source, a.firstRecord) < (b.source, b.firstRecord)
        }

        var description: String { "\(source) from record \(firstRecord)" }

        func encode(to out: inout [UInt8]) {
            BinaryWriter.string(source, &out)
            BinaryWriter.count(firstRecord, &out)
        }

        init(source: String, firstRecord: Int) {
            self.source = source
            self.firstRecord = firstRecord
        }

        init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
            self.init(source: try r.string(), firstRecord: try r.number())
        }
    }

    /// One entry: its identifying fields, read from its bytes, and the bytes as written.
    struct Entry: Sendable {
        enum Kind: UInt8, Sendable {
            /// A slice: its name, record count, what reading found, the validator's header
            /// (files, offset span, each rule's state).
            case slice = 0
            /// One partition of one slice's facts for one key: the slice's name, the key's
            /// name, the partition, then the records (`KeyedFactCodec`).
            case facts = 1
            /// One partition of one key finished over some slices: the key's name, the
            /// partition, the slices (name and the hash of their slice entry each), then
            /// what the rules of that key found (`Validator.finishedPartitions`).
            case finished = 2
        }

        var kind: Kind
        /// The slice (slice and facts entries).
        var slice: SliceName?
        /// The key's name (facts and finished entries).
        var key = ""
        var partition = 0
        /// A slice's records.
        var records = 0
        /// The slices a finished partition covers, with their entries' hashes.
        var covers: [(name: SliceName, hash: UInt64)] = []
        /// The whole entry as written, and where its content starts (after the fields above).
        var bytes: [UInt8]
        var contentStart: Int
        var hash: UInt64
        /// The state file it was read from, for messages.
        var origin: String

        init(kind: Kind, bytes: [UInt8], origin: String) throws(BinaryReader.Corrupt) {
            self.kind = kind
            self.bytes = bytes
            self.origin = origin
            hash = bytes.withByteView { StringIndex.hash(bytes: $0) }
            var r = BinaryReader(bytes: bytes, at: 0)
            switch kind {
            case .slice:
                slice = try SliceName(decoding: &r)
                records = try r.number()
            case .facts:
                slice = try SliceName(decoding: &r)
                key = try r.string()
                partition = Int(try r.byte())
            case .finished:
                key = try r.string()
                partition = Int(try r.byte())
                for _ in 0..<(try r.count()) {
                    covers.append((try SliceName(decoding: &r), UInt64(bitPattern: try r.int())))
                }
            }
            guard partition < ValidationState.partitionCount else { throw BinaryReader.Corrupt() }
            contentStart = r.at
        }

        /// What tells entries apart: two entries of one identity must be the same bytes.
        var identity: Identity {
            Identity(kind: kind.rawValue, slice: slice, key: key, partition: partition)
        }

        struct Identity: Hashable, Comparable {
            var kind: UInt8
            var slice: SliceName?
            var key: String
            var partition: Int

            static func < (a: Self, b: Self) -> Bool {
                if a.kind != b.kind { return a.kind < b.kind }
                if a.slice != b.slice, let x = a.slice, let y = b.slice { return x < y }
                return (a.key, a.partition) < (b.key, b.partition)
            }
        }

        var content: [UInt8] { Array(bytes[contentStart...]) }

        var description: String {
            switch kind {
            case .slice: return "the validation of \(slice!.description)"
            case .facts:
                return "partition \(partition) of the \(key) facts of \(slice!.description)"
            case .finished: return "partition \(partition) of the \(key) facts, finished"
            }
        }
    }

    let context: Context
    /// Sorted by identity: slices in the order they are folded in, then facts, then
    /// finished partitions.
    private let entries: [Entry]

    /// Records read by all the slices (events and rejects).
    public var records: Int { slices.reduce(0) { $0 + $1.records } }
    /// How many validated runs the state holds.
    public var sliceCount: Int { slices.count }

    private var slices: ArraySlice<Entry> { entries.prefix { $0.kind == .slice } }

    /// - Throws: `.data` when two entries of one identity differ (two runs that both claim
    ///   to be one slice, or a partition finished twice over different slices).
    private init(context: Context, entries: [Entry]) throws(TimelineError) {
        self.context = context
        var kept: [Entry] = []
        for entry in entries.sorted(by: { $0.identity < $1.identity }) {
            if let last = kept.last, last.identity == entry.identity {
                guard last.hash == entry.hash, last.bytes == entry.bytes else {
                    throw TimelineError(
                        .data,
                        "'\(last.origin)' and '\(entry.origin)' hold \(entry.description) with different contents",
                        notes: [
                            entry.kind == .finished
                                ? "finish each partition once, after merging the states of every part"
                                : "give each part its own \(.sourceName) and \(.firstRecord), and merge the states of one validation"
                        ])
                }
                continue
            }
            kept.append(entry)
        }
        self.entries = kept
    }

    /// The state of one run: its input starts at record `firstRecord` of `source`.
    init(
        context: ValidationContext, source: String, firstRecord: Int, records: Int,
        imported: ImportFindings,
        validator: (header: [UInt8], facts: [(key: PartitionKey, partitions: [[UInt8]])])
    ) throws(TimelineError) {
        let name = SliceName(source: source, firstRecord: firstRecord)
        var slice: [UInt8] = []
        name.encode(to: &slice)
        BinaryWriter.count(records, &slice)
        imported.encode(to: &slice)
        slice += validator.header
        var entries = [try Self.entry(.slice, slice, origin: "this run")]
        for (key, partitions) in validator.facts {
            for (p, records) in partitions.enumerated() {
                var facts: [UInt8] = []
                name.encode(to: &facts)
                BinaryWriter.string(key.name, &facts)
                facts.append(UInt8(p))
                facts += records
                entries.append(try Self.entry(.facts, facts, origin: "this run"))
            }
        }
        try self.init(context: Context(context), entries: entries)
    }

    private static func entry(_ kind: Entry.Kind, _ bytes: [UInt8], origin: String)
        throws(TimelineError) -> Entry
    {
        do throws(BinaryReader.Corrupt) {
            return try Entry(kind: kind, bytes: bytes, origin: origin)
        } catch {
            preconditionFailure("an entry this build wrote does not read back")
        }
    }

    // MARK: Files

    /// The state as a file's bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write { out += $0 }
        return out
    }

    /// Hands the file's bytes to `sink` in pieces (each entry whole), so a large state is
    /// not copied into one buffer to be written.
    func write<E: Error>(_ sink: ([UInt8]) throws(E) -> Void) throws(E) {
        var head = Self.magic
        BinaryWriter.u32(Self.formatVersion, &head)
        BinaryWriter.string(context.displayZone, &head)
        let (kind, reason) = context.choiceFields
        head.append(kind)
        BinaryWriter.string(reason, &head)
        BinaryWriter.optional(context.assumedZone, &head) { BinaryWriter.string($0, &$1) }
        BinaryWriter.strings(context.ignored, &head)
        BinaryWriter.count(entries.count, &head)
        try sink(head)
        for entry in entries {
            var frame: [UInt8] = [entry.kind.rawValue]
            BinaryWriter.count(entry.bytes.count, &frame)
            BinaryWriter.int(Int64(bitPattern: entry.hash), &frame)
            try sink(frame)
            try sink(entry.bytes)
        }
        try sink(Self.trailer)
    }

    /// Writes the state to `path`, replacing it only when whole.
    package func write(to path: String) throws(TimelineError) {
        let out = try TimelineDestination.file(path: path).open()
        do throws(TimelineError) {
            try write { (bytes: [UInt8]) throws(TimelineError) in try out.write(bytes) }
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
    }

    /// Reads a state file's bytes; `name` (the file) is what errors name.
    /// - Throws: `.data` (exit 65) for bytes that are not a state, a version this build
    ///   does not read, a file cut short or damaged.
    public init(bytes: [UInt8], name: String) throws(TimelineError) {
        func failure(_ problem: String) -> TimelineError {
            TimelineError(
                .data, "'\(name)' \(problem)",
                notes: ["give \(.merge) the files 'timeline validate \(.stateOut)' wrote, whole"])
        }
        guard bytes.starts(with: Self.magic) else {
            throw failure("is not a timeline validation state (it does not begin with TLVSTATE)")
        }
        var r = BinaryReader(bytes: bytes, at: Self.magic.count)
        func read<T>(_ field: (inout BinaryReader) throws(BinaryReader.Corrupt) -> T)
            throws(TimelineError) -> T
        {
            do throws(BinaryReader.Corrupt) {
                return try field(&r)
            } catch {
                throw failure("is cut short or damaged: it ends inside a field")
            }
        }
        let version = try read { r throws(BinaryReader.Corrupt) in try r.u32() }
        guard version == Self.formatVersion else {
            throw failure(
                "is a validation state of format version \(version); this timeline reads version \(Self.formatVersion): merge it with the timeline that wrote it"
            )
        }
        let context = try read { r throws(BinaryReader.Corrupt) in
            let zone = try r.string()
            guard let choice = Context.choice(kind: try r.byte(), reason: try r.string()) else {
                throw BinaryReader.Corrupt()
            }
            return Context(
                displayZone: zone, choice: choice,
                assumedZone: try r.optional {
                    (r: inout BinaryReader) throws(BinaryReader.Corrupt) in try r.string()
                }, ignored: try r.strings())
        }
        var entries: [Entry] = []
        for i in 0..<(try read { r throws(BinaryReader.Corrupt) in try r.count() }) {
            let (kind, length, hash) = try read { r throws(BinaryReader.Corrupt) in
                (try r.byte(), Int(try r.int()), UInt64(bitPattern: try r.int()))
            }
            guard length >= 0, length <= bytes.count - r.at else {
                throw failure("is cut short: entry \(i + 1) ends past the end of the file")
            }
            let content = Array(bytes[r.at..<(r.at + length)])
            r.at += length
            guard let kind = Entry.Kind(rawValue: kind) else {
                throw failure("is damaged: entry \(i + 1) is of no kind this timeline knows")
            }
            guard content.withByteView({ StringIndex.hash(bytes: $0) }) == hash else {
                throw failure("is damaged: entry \(i + 1) does not match its checksum")
            }
            do throws(BinaryReader.Corrupt) {
                entries.append(try Entry(kind: kind, bytes: content, origin: name))
            } catch {
                throw failure("is damaged: entry \(i + 1) does not begin with what it holds")
            }
        }
        guard bytes.count - r.at == Self.trailer.count, bytes[r.at...].elementsEqual(Self.trailer)
        else {
            throw failure(
                bytes.count - r.at < Self.trailer.count
                    ? "is cut short: it does not end with TLVS-END" : "has bytes after its end")
        }
        try self.init(context: context, entries: entries)
    }

    // MARK: Merging

    /// The states as one: the union of their entries. Any grouping and order of the same
    /// states gives the same state, and a state merged twice counts once.
    /// - Throws: `.usage` when the states were made with different zones or ignored codes,
    ///   `.data` when two hold one slice (or finished partition) with different contents.
    public static func merging(_ states: [ValidationState]) throws(TimelineError) -> ValidationState
    {
        guard let first = states.first else {
            throw TimelineError(.usage, "nothing to merge: name the state files")
        }
        for state in states.dropFirst() where state.context != first.context {
            throw TimelineError(
                .usage,
                "the states were validated with different options: \(state.entries.first?.origin ?? "one") has \(state.context.description), "
                    + "\(first.entries.first?.origin ?? "another") has \(first.context.description)",
                notes: ["validate every part with the same \(.zone), \(.assumeZone) and \(.ignore)"]
            )
        }
        return try ValidationState(context: first.context, entries: states.flatMap(\.entries))
    }

    /// The state cut into `partitionCount` states, one per partition of the facts: each
    /// holds every slice and that partition's facts (and finished partitions). Merging the
    /// pieces of many states partition by partition, then `finishingPartitions` each,
    /// keeps the facts of one partition on one machine; the finished pieces merge into a
    /// state that reports.
    package func splitByPartition() -> [ValidationState] {
        let slices = Array(self.slices)
        return (0..<Self.partitionCount).map { p in
            // Entries already unique and of one context: no check can fail.
            try! ValidationState(
                context: context,
                entries: slices + entries.filter { $0.kind != .slice && $0.partition == p })
        }
    }

    // MARK: Completeness

    /// One partition of the facts of one key.
    private struct PartitionName: Hashable {
        var key: String
        var partition: Int
    }

    /// The names of the facts' keys a validation of this context keeps (the rules over
    /// ids and series not ignored).
    private var factKeys: [String] {
        Validator.factKeys(ignoring: Set(context.ignored.compactMap { FindingCode(rawValue: $0) }))
            .map(\.name)
    }

    /// By key and partition: the finished entry, or the facts of each slice (by slice).
    private struct Plan {
        var finished: [String: [Int: Entry]] = [:]
        var facts: [String: [Int: [SliceName: Entry]]] = [:]
    }

    private var plan: Plan {
        var plan = Plan()
        for entry in entries {
            switch entry.kind {
            case .slice: break
            case .facts:
                plan.facts[entry.key, default: [:]][entry.partition, default: [:]][entry.slice!] =
                    entry
            case .finished: plan.finished[entry.key, default: [:]][entry.partition] = entry
            }
        }
        return plan
    }

    /// Whether partition `p` of `key` can be reported: finished over exactly these slices,
    /// or with the facts of each; else what is missing.
    private func missing(_ key: String, _ p: Int, in plan: Plan) -> String? {
        if let finished = plan.finished[key]?[p] {
            // The same slices, in the same (sorted) order, with the same contents.
            let same =
                finished.covers.count == slices.count
                && zip(finished.covers, slices).allSatisfy {
                    $0.name == $1.slice && $0.hash == $1.hash
                }
            return same
                ? nil
                : "partition \(p) of the \(key) facts was finished ('\(finished.origin)') over \(finished.covers.count) slice(s) that are not the \(slices.count) the state holds"
        }
        let facts = plan.facts[key]?[p] ?? [:]
        for slice in slices where facts[slice.slice!] == nil {
            return
                "no state holds partition \(p) of the \(key) facts of \(slice.slice!.description)"
        }
        return nil
    }

    /// Whether the state holds everything a report needs: for every partition of the
    /// facts, the facts of every slice or that partition finished over every slice.
    package var isComplete: Bool { incompleteness == nil }

    private var incompleteness: String? {
        let plan = self.plan
        for key in factKeys {
            for p in 0..<Self.partitionCount {
                if let missing = missing(key, p, in: plan) { return missing }
            }
        }
        return nil
    }

    /// A validator for this state's context, taking its slices' headers and, for each
    /// partition where `wanted` says so and it has not been finished, their facts.
    private func validator(
        memory: Int, temporaryDirectory: String?, plan: Plan, wanted: (String, Int) -> Bool
    ) throws(TimelineError) -> (Validator, ImportFindings) {
        let validator = Validator(
            try validationContext(), memory: memory, directory: temporaryDirectory)
        var imported = ImportFindings()
        for slice in slices {
            let name = slice.slice!
            do throws(BinaryReader.Corrupt) {
                var r = BinaryReader(bytes: slice.bytes, at: slice.contentStart)
                imported.add(try ImportFindings(decoding: &r))
                let files = try validator.absorb(header: &r)
                guard r.at == slice.bytes.count else { throw BinaryReader.Corrupt() }
                for key in validator.factKeys {
                    let partitions = (0..<Self.partitionCount).map { p in
                        plan.finished[key.name]?[p] == nil && wanted(key.name, p)
                            ? plan.facts[key.name]?[p]?[name]?.content ?? [] : []
                    }
                    try validator.absorb(facts: partitions, key: key, files: files)
                }
            } catch {
                throw TimelineError(
                    .data,
                    "'\(slice.origin)' holds a slice (\(name.description)) this timeline cannot read",
                    notes: [
                        "it matches its checksum, so it was written so: merge it with the timeline that wrote it"
                    ])
            }
        }
        return (validator, imported)
    }

    /// The state with each partition whose facts it holds for every slice finished: those
    /// facts are replaced by what the rules over ids and series found in them. Run it where
    /// one partition's pieces (`splitByPartition`) of every part have been merged.
    /// - Throws: `.data` when no partition has the facts of every slice and the state is
    ///   not complete.
    package func finishingPartitions(memory: Int = 256 << 20, temporaryDirectory: String? = nil)
        throws(TimelineError) -> ValidationState
    {
        let plan = self.plan
        var finishable = Set<PartitionName>()
        for key in factKeys {
            for p in 0..<Self.partitionCount
            where plan.finished[key]?[p] == nil && missing(key, p, in: plan) == nil {
                finishable.insert(PartitionName(key: key, partition: p))
            }
        }
        guard !finishable.isEmpty else {
            // Every partition finished already, or none to finish (the rules over ids and
            // series ignored): the state is as finished as it gets.
            if isComplete { return self }
            throw TimelineError(
                .data,
                "nothing to finish: no partition of the facts is held for every slice (\(incompleteness ?? "every partition is finished already"))",
                notes: [
                    "merge one partition's pieces (\(.splitOut)) of every part's state, then finish them"
                ])
        }
        let (validator, _) = try validator(
            memory: memory, temporaryDirectory: temporaryDirectory, plan: plan
        ) {
            finishable.contains(PartitionName(key: $0, partition: $1))
        }
        var kept = entries.filter {
            !($0.kind == .facts
                && finishable.contains(PartitionName(key: $0.key, partition: $0.partition)))
        }
        for key in validator.factKeys {
            let found = try validator.finishedPartitions(of: key)
            for (p, parts) in found.enumerated()
            where finishable.contains(PartitionName(key: key.name, partition: p)) {
                var bytes: [UInt8] = []
                BinaryWriter.string(key.name, &bytes)
                bytes.append(UInt8(p))
                BinaryWriter.count(slices.count, &bytes)
                for slice in slices {
                    slice.slice!.encode(to: &bytes)
                    BinaryWriter.int(Int64(bitPattern: slice.hash), &bytes)
                }
                bytes += parts
                kept.append(try Self.entry(.finished, bytes, origin: "this run"))
            }
        }
        return try ValidationState(context: context, entries: kept)
    }

    /// The report one validation over every slice's input at once would give (files in
    /// name order, the slices of one file in record order).
    /// - Parameters:
    ///   - memory: about how many bytes the facts of the rules over ids and series may
    ///     take in memory before they spill.
    ///   - temporaryDirectory: where they spill; nil keeps them in memory.
    /// - Throws: `.data` when the state lacks a partition of the facts (`isComplete`).
    public func report(memory: Int = 256 << 20, temporaryDirectory: String? = nil)
        throws(TimelineError) -> ValidationReport
    {
        if let incompleteness {
            throw TimelineError(
                .data, "the states hold only part of the validation: \(incompleteness)",
                notes: [
                    "merge the states of every part, or every finished partition (\(.finishPartitions)) of them"
                ])
        }
        let plan = self.plan
        let (validator, imported) = try validator(
            memory: memory, temporaryDirectory: temporaryDirectory, plan: plan
        ) { _, _ in true }
        for (key, partitions) in plan.finished.sorted(by: { $0.key < $1.key }) {
            guard let known = validator.factKeys.first(where: { $0.name == key }) else { continue }
            for (p, entry) in partitions.sorted(by: { $0.key < $1.key }) {
                do throws(BinaryReader.Corrupt) {
                    try validator.absorb(finished: entry.content, key: known)
                } catch {
                    throw TimelineError(
                        .data,
                        "'\(entry.origin)' holds partition \(p) of the \(key) facts finished in a way this timeline cannot read",
                        notes: [
                            "it matches its checksum, so it was written so: merge it with the timeline that wrote it"
                        ])
                }
            }
        }
        return try validator.report(records: records, imported: imported)
    }

    private func validationContext() throws(TimelineError) -> ValidationContext {
        var validation = ValidationContext(
            displayZone: try Self.zone(context.displayZone),
            assumedZone: try context.assumedZone.map(Self.zone),
            ignored: Set(try context.ignored.map(Self.code)))
        validation.displayZoneChoice = context.choice
        return validation
    }

    private static func zone(_ identifier: String) throws(TimelineError) -> ResolvedZone {
        guard identifier != "UTC" else { return .utc }
        do throws(ZoneResolutionError) {
            return try ZoneResolver().resolve(identifier)
        } catch {
            throw TimelineError(
                .data,
                "a validation state counts days in '\(identifier)', which this machine's zone database does not know: \(error.message)"
            )
        }
    }

    private static func code(_ text: String) throws(TimelineError) -> FindingCode {
        guard let code = FindingCode(rawValue: text) else {
            throw TimelineError(
                .data,
                "a validation state leaves out code '\(text)', which this timeline does not know")
        }
        return code
    }
}
