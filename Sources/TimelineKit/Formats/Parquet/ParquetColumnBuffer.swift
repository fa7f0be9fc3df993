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
    /// The dictionary's values by index, for a buffer that takes another's values.
    private var dictionaryTexts: [String] = []
    /// The dictionary's values, PLAIN encoded, and where each starts.
    private(set) var dictionaryPlain: [UInt8] = []
    private var dictionaryStarts: [Int] = []
    private(set) var indices: [UInt32] = []
    /// The last few values looked up and their indices: neighbouring events often share a
    /// value (a file, a zone, an order's series), a column often has a handful (statuses,
    /// titles, bases), and comparing a few strings is cheaper than hashing one.
    private var recent: [(text: String, index: UInt32)] = []
    private var nextRecent = 0
    private static let recentLimit = 8
    /// The dictionary index of the value last appended.
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

    /// How many entries each of a buffer's arrays holds, to reserve as much in another.
    struct Room: Equatable {
        var definitions = 0
        var repetitions = 0
        var plain = 0
        var indices = 0

        /// Takes the larger of each count.
        mutating func extend(to other: Room) {
            definitions = max(definitions, other.definitions)
            repetitions = max(repetitions, other.repetitions)
            plain = max(plain, other.plain)
            indices = max(indices, other.indices)
        }
    }

    /// The room the buffer's values take.
    var room: Room {
        Room(
            definitions: definitions.count, repetitions: repetitions.count, plain: plain.count,
            indices: indices.count)
    }

    /// Reserves `room` in the buffer's arrays.
    mutating func reserve(_ room: Room) {
        definitions.reserveCapacity(room.definitions)
        repetitions.reserveCapacity(room.repetitions)
        plain.reserveCapacity(room.plain)
        indices.reserveCapacity(room.indices)
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
        dictionaryTexts.removeAll(keepingCapacity: true)
        dictionaryPlain.removeAll(keepingCapacity: true)
        dictionaryStarts.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        forgetRecent()
    }

    private mutating func level(definition: UInt8, repetition: UInt8) {
        if leaf.maxDefinition > 0 { definitions.append(definition) }
        if leaf.maxRepetition > 0 { repetitions.append(repetition) }
        entryCount += 1
    }

    /// No value: a null (definition 0), or an empty list or map (definition 1).
    mutating func appendNull(definition: UInt8 = 0, repetition: UInt8 = 0) {
        level(definition: definition, repetition: repetition)
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

    /// An event's id (a column without a dictionary), written without making its string.
    mutating func append(_ identity: EventIdentity) {
        guard !usesDictionary else { return append(identity.text) }
        present(0)
        BinaryWriter.identity(identity, &plain)
    }

    /// A time value's source text, or a null: one kept by its form is written without
    /// making its string, in a column without a dictionary.
    mutating func appendRaw(of value: TimeValue) {
        guard value.rawForm != nil, !usesDictionary else { return append(optional: value.raw) }
        present(0)
        BinaryWriter.raw(of: value, &plain)
    }

    mutating func append(_ text: String, repetition: UInt8 = 0) {
        present(repetition)
        guard usesDictionary else { return BinaryWriter.string(text, &plain) }
        for entry in recent where entry.text == text {
            indices.append(entry.index)
            lastIndex = entry.index
            return
        }
        if let index = dictionary[text] {
            indices.append(index)
            remember(text, index)
            return
        }
        guard dictionaryStarts.count < Self.dictionaryLimit else {
            dropDictionary()
            return BinaryWriter.string(text, &plain)
        }
        let index = UInt32(dictionaryStarts.count)
        dictionary[text] = index
        dictionaryTexts.append(text)
        dictionaryStarts.append(dictionaryPlain.count)
        BinaryWriter.string(text, &dictionaryPlain)
        indices.append(index)
        remember(text, index)
    }

    private mutating func remember(_ text: String, _ index: UInt32) {
        lastIndex = index
        if recent.count < Self.recentLimit {
            recent.append((text, index))
        } else {
            recent[nextRecent] = (text, index)
            nextRecent = (nextRecent + 1) % Self.recentLimit
        }
    }

    private mutating func forgetRecent() {
        recent.removeAll(keepingCapacity: true)
        nextRecent = 0
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
        dictionaryTexts.removeAll()
        dictionaryPlain.removeAll()
        dictionaryStarts.removeAll()
        indices.removeAll()
        forgetRecent()
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

    // MARK: Taking another buffer's values

    /// Where the next event of a buffer being taken from starts, and which of its dictionary
    /// indices are known here (cleared when this buffer starts a new row group).
    struct Cursor {
        var entry = 0
        var value = 0
        var plainOffset = 0
        var indexHere: [UInt32?] = []

        /// Room in `indexHere` for a dictionary of `count` values.
        mutating func cover(_ count: Int) {
            if indexHere.count < count {
                indexHere += repeatElement(nil, count: count - indexHere.count)
            }
        }
    }

    /// Appends the next `events` events of `other` (a buffer of the same column, filled
    /// elsewhere) from `cursor`: the same levels, values, dictionary order and statistics as
    /// appending those events' values one by one. A dictionary value is looked up here once
    /// per buffer taken from, not once per use.
    mutating func append(from other: ParquetColumnBuffer, events: Int, cursor: inout Cursor) {
        let entries = cursor.entry..<other.entryEnd(after: events, from: cursor.entry)
        if appendInBulk(from: other, entries: entries, cursor: &cursor) { return }
        appendOneByOne(from: other, events: events, cursor: &cursor)
    }

    /// The entry after the `events` events from entry `start`.
    private func entryEnd(after events: Int, from start: Int) -> Int {
        guard leaf.maxRepetition > 0 else { return start + events }
        var remaining = events
        var entry = start
        while entry < entryCount {
            if repetitions[entry] == 0 {
                if remaining == 0 { break }
                remaining -= 1
            }
            entry += 1
        }
        return entry
    }

    /// Appends `entries` of `other` a run of bytes at a time where both buffers hold the
    /// values the same way; false (having appended nothing) where they do not.
    private mutating func appendInBulk(
        from other: ParquetColumnBuffer, entries: Range<Int>, cursor: inout Cursor
    ) -> Bool {
        let isText: Bool
        switch kind {
        case .string, .stringList, .stringMap: isText = true
        case .boolean: return false
        default: isText = false
        }
        // Text taken from a dictionary into a dictionary: each index mapped to this
        // buffer's; other mixes value by value.
        if isText && (usesDictionary || other.usesDictionary)
            && !(usesDictionary && other.usesDictionary)
        {
            return false
        }
        let maxDefinition = UInt8(leaf.maxDefinition)
        var values = entries.count
        if leaf.maxDefinition > 0 {
            values = 0
            for entry in entries where other.definitions[entry] == maxDefinition { values += 1 }
            definitions += other.definitions[entries]
        }
        if leaf.maxRepetition > 0 { repetitions += other.repetitions[entries] }
        entryCount += entries.count
        nullCount += entries.count - values
        valueCount += values
        let valueRange = cursor.value..<cursor.value + values
        cursor.entry = entries.upperBound
        cursor.value = valueRange.upperBound
        switch kind {
        case .string, .stringList, .stringMap:
            if usesDictionary {
                cursor.cover(other.dictionaryCount)
                for (n, v) in valueRange.enumerated() {
                    let index = Int(other.indices[v])
                    if let here = cursor.indexHere[index] {
                        indices.append(here)
                    } else if let here = dictionaryIndex(other.dictionaryTexts[index]) {
                        cursor.indexHere[index] = here
                        indices.append(here)
                    } else {
                        // The dictionary is full: the rest as PLAIN values.
                        dropDictionary()
                        for rest in valueRange.dropFirst(n) {
                            BinaryWriter.string(
                                other.dictionaryTexts[Int(other.indices[rest])], &plain)
                        }
                        break
                    }
                }
            } else {
                let start = cursor.plainOffset
                for _ in valueRange {
                    cursor.plainOffset +=
                        4 + Int(Self.littleEndian(other.plain, at: cursor.plainOffset, bytes: 4))
                }
                plain += other.plain[start..<cursor.plainOffset]
            }
        case .timestamp, .integer, .date, .seconds, .decimal:
            let width: Int
            switch kind {
            case .timestamp, .integer: width = 8
            case .decimal: width = 16
            default: width = 4
            }
            let start = cursor.plainOffset
            cursor.plainOffset += values * width
            plain += other.plain[start..<cursor.plainOffset]
            guard width != 16 else { break }
            let end = cursor.plainOffset
            let (low, high) = other.plain.withByteView { bytes in
                var low = minimum
                var high = maximum
                for offset in stride(from: start, to: end, by: width) {
                    let value =
                        width == 8
                        ? bytes.integer(at: offset, as: Int64.self)
                        : Int64(bytes.integer(at: offset, as: Int32.self))
                    low = min(low, value)
                    high = max(high, value)
                }
                return (low, high)
            }
            minimum = low
            maximum = high
        case .boolean:
            preconditionFailure("booleans are taken one by one")
        }
        return true
    }

    /// The index of `text` in the dictionary, added if new; nil when the dictionary is full.
    private mutating func dictionaryIndex(_ text: String) -> UInt32? {
        if let index = dictionary[text] { return index }
        guard dictionaryStarts.count < Self.dictionaryLimit else { return nil }
        let index = UInt32(dictionaryStarts.count)
        dictionary[text] = index
        dictionaryTexts.append(text)
        dictionaryStarts.append(dictionaryPlain.count)
        BinaryWriter.string(text, &dictionaryPlain)
        return index
    }

    /// Appends the next `events` events of `other` value by value.
    private mutating func appendOneByOne(
        from other: ParquetColumnBuffer, events: Int, cursor: inout Cursor
    ) {
        var remaining = events
        let maxDefinition = UInt8(leaf.maxDefinition)
        while cursor.entry < other.entryCount {
            let repetition = leaf.maxRepetition > 0 ? other.repetitions[cursor.entry] : 0
            if repetition == 0 {
                if remaining == 0 { break }
                remaining -= 1
            }
            let definition = leaf.maxDefinition > 0 ? other.definitions[cursor.entry] : 0
            cursor.entry += 1
            guard definition == maxDefinition else {
                appendNull(definition: definition, repetition: repetition)
                continue
            }
            appendValue(from: other, repetition: repetition, cursor: &cursor)
            cursor.value += 1
        }
    }

    private mutating func appendValue(
        from other: ParquetColumnBuffer, repetition: UInt8, cursor: inout Cursor
    ) {
        switch kind {
        case .string, .stringList, .stringMap:
            if other.usesDictionary {
                let index = Int(other.indices[cursor.value])
                cursor.cover(other.dictionaryCount)
                if usesDictionary, let here = cursor.indexHere[index] {
                    present(repetition)
                    indices.append(here)
                    return
                }
                append(other.dictionaryTexts[index], repetition: repetition)
                if usesDictionary { cursor.indexHere[index] = lastIndex }
                return
            }
            let length = Int(Self.littleEndian(other.plain, at: cursor.plainOffset, bytes: 4))
            let bytes = other.plain[cursor.plainOffset + 4..<cursor.plainOffset + 4 + length]
            cursor.plainOffset += 4 + length
            if usesDictionary {
                append(String(decoding: bytes, as: UTF8.self), repetition: repetition)
            } else {
                present(repetition)
                plain += other.plain[cursor.plainOffset - 4 - length..<cursor.plainOffset]
            }
        case .timestamp, .integer:
            let value = Self.littleEndian(other.plain, at: cursor.plainOffset, bytes: 8)
            cursor.plainOffset += 8
            append(int64: Int64(bitPattern: value))
        case .date, .seconds:
            let value = Self.littleEndian(other.plain, at: cursor.plainOffset, bytes: 4)
            cursor.plainOffset += 4
            append(int32: Int32(bitPattern: UInt32(truncatingIfNeeded: value)))
        case .boolean:
            let bit = other.plain[cursor.value / 8] >> UInt8(cursor.value % 8) & 1
            append(bit == 1)
        case .decimal:
            present(repetition)
            plain += other.plain[cursor.plainOffset..<cursor.plainOffset + 16]
            cursor.plainOffset += 16
        }
    }

    /// The unsigned little-endian integer of `bytes` bytes at `offset`.
    private static func littleEndian(_ data: [UInt8], at offset: Int, bytes: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in (0..<bytes).reversed() { value = value << 8 | UInt64(data[offset + i]) }
        return value
    }
}
