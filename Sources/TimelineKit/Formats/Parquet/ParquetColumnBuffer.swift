/// One leaf column's values of the row group being filled: its levels, its values PLAIN
/// encoded (or as indices into a dictionary of the values met so far), and the minimum
/// and maximum of an integer column.
struct ParquetColumnBuffer {
    let kind: ParquetSchema.Kind
    let leaf: ParquetSchema.Leaf

    private(set) var definitions: [UInt8] = []
    private(set) var repetitions: [UInt8] = []
    /// The values, PLAIN encoded (when not in the dictionary).
    private(set) var plain: [UInt8] = []
    /// Values that are not null.
    private(set) var valueCount = 0
    /// Level entries: rows, plus the further elements of lists and maps.
    private(set) var entryCount = 0
    private(set) var nullCount = 0
    private(set) var minimum = Int64.max
    private(set) var maximum = Int64.min

    /// Whether values go to the dictionary in this row group.
    private(set) var usesDictionary: Bool
    private var dictionary: [String: UInt32] = [:]
    /// The dictionary's values, PLAIN encoded, and where each starts.
    private(set) var dictionaryPlain: [UInt8] = []
    private var dictionaryStarts: [Int] = []
    private(set) var indices: [UInt32] = []
    /// The last value looked up and its index: neighbouring events often share a value (a
    /// file, a zone, an order's series), and comparing is cheaper than hashing.
    private var lastText: String?
    private var lastIndex: UInt32 = 0

    /// A dictionary that grows past this many values stops: the column's values are then
    /// mostly distinct, and looking each one up costs more than it saves.
    static let dictionaryLimit = 1 << 16

    init(kind: ParquetSchema.Kind, leaf: ParquetSchema.Leaf) {
        self.kind = kind
        self.leaf = leaf
        usesDictionary = kind.isDictionaryEncoded
    }

    var dictionaryCount: Int { dictionaryStarts.count }

    /// About how many bytes the buffered values take.
    var byteCount: Int {
        plain.count + dictionaryPlain.count + indices.count * 4 + definitions.count
            + repetitions.count
    }

    /// Empties the buffer for the next row group.
    mutating func reset() {
        definitions.removeAll(keepingCapacity: true)
        repetitions.removeAll(keepingCapacity: true)
        plain.removeAll(keepingCapacity: true)
        valueCount = 0
        entryCount = 0
        nullCount = 0
        minimum = .max
        maximum = .min
        usesDictionary = kind.isDictionaryEncoded
        dictionary.removeAll(keepingCapacity: true)
        dictionaryPlain.removeAll(keepingCapacity: true)
        dictionaryStarts.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        lastText = nil
    }

    private mutating func level(definition: UInt8, repetition: UInt8) {
        if leaf.maxDefinition > 0 { definitions.append(definition) }
        if leaf.maxRepetition > 0 { repetitions.append(repetition) }
        entryCount += 1
    }

    /// No value: a null (definition 0), or an empty list or map (definition 1).
    mutating func appendNull(definition: UInt8 = 0) {
        level(definition: definition, repetition: 0)
        nullCount += 1
    }

    private mutating func present(_ repetition: UInt8) {
        level(definition: UInt8(leaf.maxDefinition), repetition: repetition)
        valueCount += 1
    }

    /// A text, or a null.
    mutating func append(optional text: String?) {
        if let text { append(text) } else { appendNull() }
    }

    mutating func append(_ text: String, repetition: UInt8 = 0) {
        present(repetition)
        guard usesDictionary else { return BinaryWriter.string(text, &plain) }
        if let lastText, lastText == text {
            indices.append(lastIndex)
            return
        }
        if let index = dictionary[text] {
            indices.append(index)
            lastText = text
            lastIndex = index
            return
        }
        guard dictionaryStarts.count < Self.dictionaryLimit else {
            dropDictionary()
            return BinaryWriter.string(text, &plain)
        }
        let index = UInt32(dictionaryStarts.count)
        dictionary[text] = index
        dictionaryStarts.append(dictionaryPlain.count)
        BinaryWriter.string(text, &dictionaryPlain)
        indices.append(index)
        lastText = text
        lastIndex = index
    }

    /// Writes the values met so far as PLAIN values and stops using the dictionary.
    mutating func dropDictionary() {
        guard usesDictionary else { return }
        dictionaryStarts.append(dictionaryPlain.count)
        for index in indices {
            let i = Int(index)
            plain += dictionaryPlain[dictionaryStarts[i]..<dictionaryStarts[i + 1]]
        }
        usesDictionary = false
        dictionary.removeAll()
        dictionaryPlain.removeAll()
        dictionaryStarts.removeAll()
        indices.removeAll()
        lastText = nil
    }

    mutating func append(int64 value: Int64) {
        present(0)
        BinaryWriter.int(value, &plain)
        minimum = min(minimum, value)
        maximum = max(maximum, value)
    }

    mutating func append(int32 value: Int32) {
        present(0)
        BinaryWriter.u32(UInt32(bitPattern: value), &plain)
        minimum = min(minimum, Int64(value))
        maximum = max(maximum, Int64(value))
    }

    /// A boolean: PLAIN packs them one bit each, the first in the lowest bit.
    mutating func append(_ value: Bool) {
        if valueCount % 8 == 0 { plain.append(0) }
        if value { plain[plain.count - 1] |= 1 << UInt8(valueCount % 8) }
        present(0)
    }

    /// A FIXED_LEN_BYTE_ARRAY value of 16 bytes: a two's-complement integer, big endian.
    mutating func append(fixed16 value: Int128) {
        present(0)
        let bits = UInt128(bitPattern: value)
        for shift in stride(from: 120, through: 0, by: -8) {
            plain.append(UInt8(truncatingIfNeeded: bits >> UInt128(shift)))
        }
    }

}
