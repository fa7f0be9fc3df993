import Foundation

/// What a validation must remember to be merged with validations of other parts of the
/// input — `timeline validate --state-out`, then `--merge`: a job that validates the
/// partitions of a large input on many machines merges their states into the report one
/// run over the whole input gives.
///
/// A state holds slices: one per validated run, named by where its input starts (the
/// first source's name and first record). Merging keeps every slice (in any grouping and
/// order: states are sets of slices), and the report folds the slices in by name, then
/// first record — the order of one run over the files in name order, slices of one file
/// in file order. Each slice keeps the counts and first examples of every rule, the files
/// and what reading rejected, and the facts the rules over ids and series must compare
/// across slices: an id (and its place) per event with one, the time and offset of each
/// event in a series or written with an offset.
///
/// The file format (version 1; integers little endian, byte strings as a 4-byte length and
/// the bytes, counts as 8 bytes): the 8 bytes `TLVSTATE`, the version (4 bytes); the
/// context — display zone, how it was chosen (a byte: named, assumed, declared, defaulted,
/// several zones; then the declared reason or the zones), assumed zone (behind a 0/1 byte),
/// the ignored codes; the slice
/// count; each slice as its length, a 64-bit hash of its bytes and the bytes; then the 8
/// bytes `TLVS-END`. A reader refuses another version, a file cut short and a slice that
/// does not match its hash.
public struct ValidationState: Sendable {
    /// The version of the format this build writes and reads.
    public static let formatVersion: UInt32 = 1
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

        init(displayZone: String, choice: DisplayZoneChoice, assumedZone: String?, ignored: [String]) {
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
            "days counted in \(displayZone) (\(choice.reason)), assumed zone \(assumedZone ?? "none"), ignored codes \(ignored.isEmpty ? "none" : ignored.joined(separator: ","))"
        }
    }

    /// One validated run: where its input starts, its record count, and the rest as saved.
    struct Slice: Sendable {
        var source: String
        var firstRecord: Int
        var records: Int
        /// The whole slice as written (the fields above, what reading found, the validator's state).
        var bytes: [UInt8]
        /// The state file it was read from, for messages.
        var origin: String

        func precedes(_ other: Slice) -> Bool {
            if (source, firstRecord) != (other.source, other.firstRecord) { return (source, firstRecord) < (other.source, other.firstRecord) }
            return bytes.lexicographicallyPrecedes(other.bytes)
        }
    }

    let context: Context
    /// In the order they are folded in.
    private(set) var slices: [Slice]

    /// Records read by all the slices (events and rejects).
    public var records: Int { slices.reduce(0) { $0 + $1.records } }
    /// How many validated runs the state holds.
    public var sliceCount: Int { slices.count }

    init(context: Context, slices: [Slice]) {
        self.context = context
        self.slices = slices.sorted { $0.precedes($1) }
    }

    /// The state of one run: its input starts at record `firstRecord` of `source`.
    init(context: ValidationContext, source: String, firstRecord: Int, records: Int, imported: ImportFindings, validator: [UInt8]) {
        var bytes: [UInt8] = []
        BinaryWriter.string(source, &bytes)
        BinaryWriter.count(firstRecord, &bytes)
        BinaryWriter.count(records, &bytes)
        imported.encode(to: &bytes)
        bytes += validator
        self.init(
            context: Context(context), slices: [Slice(source: source, firstRecord: firstRecord, records: records, bytes: bytes, origin: "this run")])
    }

    // MARK: Files

    /// The state as a file's bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        write { out += $0 }
        return out
    }

    /// Hands the file's bytes to `sink` in pieces (each slice whole), so a large state is
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
        BinaryWriter.count(slices.count, &head)
        try sink(head)
        for slice in slices {
            var frame: [UInt8] = []
            BinaryWriter.count(slice.bytes.count, &frame)
            BinaryWriter.int(Int64(bitPattern: slice.bytes.withByteView { StringIndex.hash(bytes: $0) }), &frame)
            try sink(frame)
            try sink(slice.bytes)
        }
        try sink(Self.trailer)
    }

    /// Writes the state to `path`, replacing it only when whole.
    package func write(to path: String) throws(TimelineError) {
        let out = try TimelineDestination.file(path: path).open()
        try write { (bytes: [UInt8]) throws(TimelineError) in try out.write(bytes) }
        try out.commit()
    }

    /// Reads a state file's bytes; `name` (the file) is what errors name.
    /// - Throws: `.data` (exit 65) for bytes that are not a state, a version this build
    ///   does not read, a file cut short or damaged.
    public init(bytes: [UInt8], name: String) throws(TimelineError) {
        func failure(_ problem: String) -> TimelineError {
            TimelineError(.data, "'\(name)' \(problem)", notes: ["give --merge the files 'timeline validate --state-out' wrote, whole"])
        }
        guard bytes.starts(with: Self.magic) else {
            throw failure("is not a timeline validation state (it does not begin with TLVSTATE)")
        }
        var r = BinaryReader(bytes: bytes, at: Self.magic.count)
        func read<T>(_ field: (inout BinaryReader) throws(BinaryReader.Corrupt) -> T) throws(TimelineError) -> T {
            do throws(BinaryReader.Corrupt) {
                return try field(&r)
            } catch {
                throw failure("is cut short or damaged: it ends inside a field")
            }
        }
        let version = try read { r throws(BinaryReader.Corrupt) in try r.u32() }
        guard version == Self.formatVersion else {
            throw failure("is a validation state of format version \(version); this timeline reads version \(Self.formatVersion): merge it with the timeline that wrote it")
        }
        let context = try read { r throws(BinaryReader.Corrupt) in
            let zone = try r.string()
            guard let choice = Context.choice(kind: try r.byte(), reason: try r.string()) else { throw BinaryReader.Corrupt() }
            return Context(
                displayZone: zone, choice: choice,
                assumedZone: try r.optional { (r: inout BinaryReader) throws(BinaryReader.Corrupt) in try r.string() }, ignored: try r.strings())
        }
        var slices: [Slice] = []
        for i in 0..<(try read { r throws(BinaryReader.Corrupt) in try r.count() }) {
            let (length, hash) = try read { r throws(BinaryReader.Corrupt) in (Int(try r.int()), UInt64(bitPattern: try r.int())) }
            guard length >= 0, length <= bytes.count - r.at else { throw failure("is cut short: slice \(i + 1) ends past the end of the file") }
            let slice = Array(bytes[r.at..<(r.at + length)])
            r.at += length
            guard slice.withByteView({ StringIndex.hash(bytes: $0) }) == hash else { throw failure("is damaged: slice \(i + 1) does not match its checksum") }
            var s = BinaryReader(bytes: slice, at: 0)
            do throws(BinaryReader.Corrupt) {
                slices.append(Slice(source: try s.string(), firstRecord: try s.number(), records: try s.number(), bytes: slice, origin: name))
            } catch {
                throw failure("is damaged: slice \(i + 1) does not begin with its source")
            }
        }
        guard bytes.count - r.at == Self.trailer.count, bytes[r.at...].elementsEqual(Self.trailer) else {
            throw failure(bytes.count - r.at < Self.trailer.count ? "is cut short: it does not end with TLVS-END" : "has bytes after its end")
        }
        self.init(context: context, slices: slices)
    }

    // MARK: Merging

    /// The states as one: every slice of each, in fold order. Any grouping and order of the
    /// same states gives the same state.
    /// - Throws: `.usage` when the states were made with different zones or ignored codes,
    ///   `.data` when two hold the same slice (it would be counted twice).
    public static func merging(_ states: [ValidationState]) throws(TimelineError) -> ValidationState {
        guard let first = states.first else { throw TimelineError(.usage, "nothing to merge: name the state files") }
        for state in states.dropFirst() where state.context != first.context {
            throw TimelineError(
                .usage, "the states were validated with different options: \(state.slices.first?.origin ?? "one") has \(state.context.description), "
                    + "\(first.slices.first?.origin ?? "another") has \(first.context.description)",
                notes: ["validate every part with the same --zone, --assume-zone and --ignore"])
        }
        let merged = ValidationState(context: first.context, slices: states.flatMap(\.slices))
        for (a, b) in zip(merged.slices, merged.slices.dropFirst()) where (a.source, a.firstRecord) == (b.source, b.firstRecord) {
            throw TimelineError(
                .data, "'\(a.origin)' and '\(b.origin)' both hold the validation of \(a.source) from record \(a.firstRecord)",
                notes: ["merge each part's state once (a part merged twice would count its events twice)"])
        }
        return merged
    }

    /// The report one validation over every slice's input at once would give (files in
    /// name order, the slices of one file in record order).
    /// - Parameters:
    ///   - memory: about how many bytes the facts of the rules over ids and series may
    ///     take in memory before they spill.
    ///   - temporaryDirectory: where they spill; nil keeps them in memory.
    public func report(memory: Int = 256 << 20, temporaryDirectory: String? = nil) throws(TimelineError) -> ValidationReport {
        var validation = ValidationContext(
            displayZone: try Self.zone(context.displayZone), assumedZone: try context.assumedZone.map(Self.zone),
            ignored: Set(try context.ignored.map(Self.code)))
        validation.displayZoneChoice = context.choice
        let validator = Validator(validation, memory: memory, directory: temporaryDirectory)
        var imported = ImportFindings()
        for slice in slices {
            var r = BinaryReader(bytes: slice.bytes, at: 0)
            do throws(BinaryReader.Corrupt) {
                _ = (try r.string(), try r.number(), try r.number())
                imported.add(try ImportFindings(decoding: &r))
                try validator.absorb(saved: &r)
                guard r.at == slice.bytes.count else { throw BinaryReader.Corrupt() }
            } catch {
                throw TimelineError(
                    .data, "'\(slice.origin)' holds a slice (\(slice.source) from record \(slice.firstRecord)) this timeline cannot read",
                    notes: ["it matches its checksum, so it was written so: merge it with the timeline that wrote it"])
            }
        }
        return try validator.report(records: records, imported: imported)
    }

    private static func zone(_ identifier: String) throws(TimelineError) -> ResolvedZone {
        guard identifier != "UTC" else { return .utc }
        do throws(ZoneResolutionError) {
            return try ZoneResolver().resolve(identifier)
        } catch {
            throw TimelineError(.data, "a validation state counts days in '\(identifier)', which this machine's zone database does not know: \(error.message)")
        }
    }

    private static func code(_ text: String) throws(TimelineError) -> FindingCode {
        guard let code = FindingCode(rawValue: text) else {
            throw TimelineError(.data, "a validation state leaves out code '\(text)', which this timeline does not know")
        }
        return code
    }
}
