/// A value a validation saves in its state (`ValidationState`) and reads back to merge, in
/// `BinaryWriter`'s fields. Encodings are deterministic: dictionaries are written in key
/// order, so one run's state is the same bytes every time.
protocol StateCodable {
    func encode(to out: inout [UInt8])
    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt)
}

/// A rule whose absorbed state can be saved and folded into another run (a merge): what it
/// holds has the shape of one digest of the run, with the run's file numbers, so folding a
/// saved state in is `absorb` with the saving run's numbers translated.
protocol MergeableRule: ValidationRule where Digest: StateCodable {
    /// Everything absorbed so far, as one digest.
    var absorbed: Digest { get }
}

extension EventRuleDeclaration where Self: MergeableRule {
    static func makeCheck(_ context: ValidationContext) -> AnyValidationRule? {
        AnyValidationRule(mergeable: Self(context), context)
    }
}

extension BinaryWriter {
    static func count(_ n: Int, _ out: inout [UInt8]) { int(Int64(n), &out) }
}

extension BinaryReader {
    /// A count of items that follow, each at least one byte (so a damaged count cannot ask
    /// for more than the bytes left).
    mutating func count() throws(Corrupt) -> Int {
        let n = try int()
        guard n >= 0, n <= Int64(bytes.count - at) else { throw Corrupt() }
        return Int(n)
    }

    /// A count or number that is not a length: any non-negative value.
    mutating func number() throws(Corrupt) -> Int {
        let n = try int()
        guard n >= 0 else { throw Corrupt() }
        return Int(n)
    }

    mutating func list<T: StateCodable>(of type: T.Type = T.self) throws(Corrupt) -> [T] {
        var items: [T] = []
        for _ in 0..<(try count()) { items.append(try T(decoding: &self)) }
        return items
    }
}

extension Array where Element: StateCodable {
    func encode(to out: inout [UInt8]) {
        BinaryWriter.count(count, &out)
        for item in self { item.encode(to: &out) }
    }
}

/// The shape of every partitioned rule's part (`PartitionedRule.Part`) in a saved state:
/// how many keys it flags, how many events they hold, then its first flagged keys, each as
/// `item` writes it.
enum FlaggedKeysCoding {
    static func encode<Key>(
        flagged: Int, events: Int, first: [Key], to out: inout [UInt8],
        _ item: (Key, inout [UInt8]) -> Void
    ) {
        BinaryWriter.count(flagged, &out)
        BinaryWriter.count(events, &out)
        BinaryWriter.count(first.count, &out)
        for key in first { item(key, &out) }
    }

    static func decode<Key>(
        _ r: inout BinaryReader, _ item: (inout BinaryReader) throws(BinaryReader.Corrupt) -> Key
    ) throws(BinaryReader.Corrupt) -> (flagged: Int, events: Int, first: [Key]) {
        let (flagged, events) = (try r.number(), try r.number())
        var first: [Key] = []
        for _ in 0..<(try r.count()) { first.append(try item(&r)) }
        return (flagged, events, first)
    }
}

extension Finding.Example: StateCodable {
    func encode(to out: inout [UInt8]) {
        BinaryWriter.string(file, &out)
        BinaryWriter.optional(line, &out) { BinaryWriter.int(Int64($0), &$1) }
        BinaryWriter.string(value, &out)
        BinaryWriter.optional(note, &out) { BinaryWriter.string($0, &$1) }
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let file = try r.string()
        let line = try r.optional { (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
            Int(try r.int())
        }
        let value = try r.string()
        let note = try r.optional { (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
            try r.string()
        }
        self.init(file: file, line: line, value: value, note: note)
    }
}

extension FlaggedEvents: StateCodable {
    func encode(to out: inout [UInt8]) {
        BinaryWriter.count(count, &out)
        examples.encode(to: &out)
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let count = try r.number()
        let examples: [Finding.Example] = try r.list()
        guard examples.count <= min(count, Finding.maximumExamples) else {
            throw BinaryReader.Corrupt()
        }
        self.init(count: count, examples: examples)
    }
}

extension PerFile: StateCodable where State: StateCodable {
    func encode(to out: inout [UInt8]) {
        BinaryWriter.count(states.count, &out)
        for state in states { BinaryWriter.optional(state, &out) { $0.encode(to: &$1) } }
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        self.init()
        for file in 0..<(try r.count()) {
            if let state = try r.optional({ (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
                try State(decoding: &r)
            }) {
                with(Int32(file), initial: { state }) { _ in }
            }
        }
    }
}

extension UTCOffset: StateCodable {
    func encode(to out: inout [UInt8]) { BinaryWriter.int(Int64(seconds), &out) }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let seconds = try r.int()
        guard abs(seconds) < 86_400 else { throw BinaryReader.Corrupt() }
        self.init(seconds: Int(seconds))
    }
}

extension CivilDate: StateCodable {
    func encode(to out: inout [UInt8]) { BinaryWriter.int(daysSinceEpoch, &out) }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let days = try r.int()
        // About ±11,000 years from 1970: past any date a value can be read as.
        guard abs(days) < 4_000_000 else { throw BinaryReader.Corrupt() }
        self.init(daysSinceEpoch: days)
    }
}
