import Testing

@testable import TimelineKit

/// A column buffer that takes another's events (a part filled on a worker thread) must end
/// up exactly as one that was given the same values one by one: the same levels, PLAIN
/// bytes, dictionary order and indices, counts and statistics. The one-by-one path is the
/// one whose files pyarrow, DuckDB and polars read back (`ParquetOutputTests`).
@Suite("Parquet column buffers")
struct ParquetColumnBufferTests {
    /// One event's value for a column: absent (null or empty list) or one or more values.
    enum Value {
        case null
        case texts([String])
        case int64(Int64)
        case int32(Int32)
        case boolean(Bool)
        case decimal(Int128)
    }

    static func add(_ value: Value, to buffer: inout ParquetColumnBuffer) {
        switch value {
        case .null:
            buffer.appendNull(definition: buffer.leaf.maxRepetition > 0 ? 1 : 0)
        case .texts(let texts):
            for (i, text) in texts.enumerated() {
                buffer.append(text, repetition: i == 0 ? 0 : 1)
            }
        case .int64(let n): buffer.append(int64: n)
        case .int32(let n): buffer.append(int32: n)
        case .boolean(let b): buffer.append(b)
        case .decimal(let d): buffer.append(fixed16: d)
        }
    }

    static func same(_ a: ParquetColumnBuffer, _ b: ParquetColumnBuffer) -> Bool {
        a.definitions == b.definitions && a.repetitions == b.repetitions && a.plain == b.plain
            && a.valueCount == b.valueCount && a.entryCount == b.entryCount
            && a.nullCount == b.nullCount && a.minimum == b.minimum && a.maximum == b.maximum
            && a.usesDictionary == b.usesDictionary && a.dictionaryPlain == b.dictionaryPlain
            && a.indices == b.indices && a.dictionaryCount == b.dictionaryCount
    }

    /// `values` given one by one, against the same values put in parts of `partSize` events
    /// and taken in stretches of `stretch` events (a row group's end or a size check falls
    /// inside a part).
    static func check(
        _ kind: ParquetSchema.Kind, _ leaf: ParquetSchema.Leaf, _ values: [Value],
        partSize: Int, stretch: Int, _ label: String
    ) {
        var serial = ParquetColumnBuffer(kind: kind, leaf: leaf)
        for value in values { add(value, to: &serial) }
        var merged = ParquetColumnBuffer(kind: kind, leaf: leaf)
        var start = 0
        while start < values.count {
            var part = ParquetColumnBuffer(kind: kind, leaf: leaf)
            let events = values[start..<min(start + partSize, values.count)]
            for value in events { add(value, to: &part) }
            var cursor = ParquetColumnBuffer.Cursor()
            var taken = 0
            while taken < events.count {
                let n = min(stretch, events.count - taken)
                merged.append(from: part, events: n, cursor: &cursor)
                taken += n
            }
            start += partSize
        }
        let equal = same(serial, merged)
        #expect(equal, "\(label): parts of \(partSize), stretches of \(stretch)")
    }

    static let optionalText = ParquetSchema.Leaf(path: ["x"], maxDefinition: 1, maxRepetition: 0)
    static let requiredText = ParquetSchema.Leaf(path: ["x"], maxDefinition: 0, maxRepetition: 0)
    static let list = ParquetSchema.Leaf(
        path: ["x", "list", "element"], maxDefinition: 2, maxRepetition: 1)

    @Test(
        "every kind: nulls, lists, repeated dictionary values, parts cut mid-way",
        arguments: [(1, 1), (7, 3), (100, 100), (64, 17)])
    func kinds(partSize: Int, stretch: Int) {
        var random = SystemRandomNumberGenerator()
        func texts(_ distinct: Int, _ n: Int) -> [Value] {
            (0..<n).map { i in
                i % 5 == 0 ? .null : .texts(["v\(Int.random(in: 0..<distinct, using: &random))"])
            }
        }
        let n = 300
        Self.check(
            .string(dictionary: true), Self.optionalText, texts(12, n), partSize: partSize,
            stretch: stretch, "dictionary text")
        Self.check(
            .string(dictionary: false), Self.optionalText, texts(1000, n),
            partSize: partSize, stretch: stretch, "plain text")
        Self.check(
            .string(dictionary: true), Self.requiredText,
            (0..<n).map { .texts(["r\($0 % 9)"]) }, partSize: partSize, stretch: stretch,
            "required dictionary text")
        let lists: [Value] = (0..<n).map { i in
            i % 4 == 0 ? .null : .texts((0..<(i % 3 + 1)).map { "t\(($0 + i) % 6)" })
        }
        Self.check(.stringList, Self.list, lists, partSize: partSize, stretch: stretch, "list")
        Self.check(.stringMap, Self.list, lists, partSize: partSize, stretch: stretch, "map")
        let int64s: [Value] = (0..<n).map { i in
            i % 6 == 0 ? .null : .int64(Int64.random(in: -1 << 60...1 << 60, using: &random))
        }
        Self.check(
            .timestamp(utc: true), Self.optionalText, int64s, partSize: partSize,
            stretch: stretch, "int64")
        let int32s: [Value] = (0..<n).map { i in
            i % 6 == 0 ? .null : .int32(Int32.random(in: -50_000...50_000, using: &random))
        }
        Self.check(
            .seconds, Self.optionalText, int32s, partSize: partSize, stretch: stretch, "int32")
        let booleans: [Value] = (0..<n).map { i in i % 7 == 0 ? .null : .boolean(i % 3 == 0) }
        Self.check(
            .boolean, Self.optionalText, booleans, partSize: partSize, stretch: stretch, "boolean")
        let decimals: [Value] = (0..<n).map { i in
            i % 2 == 0 ? .null : .decimal(Int128(i) * -1_000_000_000_000_000_007)
        }
        Self.check(
            .decimal, Self.optionalText, decimals, partSize: partSize, stretch: stretch, "decimal")
    }

    @Test("a dictionary that fills up while parts are taken turns to PLAIN where one by one would")
    func dictionaryFillsUp() {
        let limit = ParquetColumnBuffer.dictionaryLimit
        let values: [Value] = (0..<(limit + 500)).map { .texts(["d\($0)"]) } + [.texts(["d3"])]
        Self.check(
            .string(dictionary: true), Self.requiredText, values, partSize: 4096,
            stretch: 1000, "dictionary filling up")
    }

    @Test("a part reserves the room another took, and fills it with the same values")
    func room() {
        let values: [Value] = (0..<200).map { i in
            i % 4 == 0 ? .null : .texts((0..<(i % 3 + 1)).map { "t\(($0 + i) % 6)" })
        }
        var first = ParquetColumnBuffer(kind: .stringList, leaf: Self.list)
        for value in values { Self.add(value, to: &first) }
        let room = first.room
        #expect(
            room
                == ParquetColumnBuffer.Room(
                    definitions: first.definitions.count, repetitions: first.repetitions.count,
                    plain: first.plain.count, indices: first.indices.count))
        #expect(room.definitions > 200 && room.repetitions == room.definitions)
        var larger = ParquetColumnBuffer.Room(definitions: 1, plain: 10_000)
        larger.extend(to: room)
        #expect(larger.definitions == room.definitions && larger.plain == 10_000)

        var reserved = ParquetColumnBuffer(kind: .stringList, leaf: Self.list)
        reserved.reserve(room)
        #expect(reserved.definitions.capacity >= room.definitions)
        #expect(reserved.plain.capacity >= room.plain)
        #expect(reserved.room == ParquetColumnBuffer.Room())
        for value in values { Self.add(value, to: &reserved) }
        #expect(Self.same(first, reserved))
    }
}
