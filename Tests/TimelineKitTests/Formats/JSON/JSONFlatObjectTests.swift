import Testing

@testable import TimelineKit

/// The flat reader against the tree parser it stands in for: on every record it reads, the
/// keys and texts must be the tree's; the records it leaves are the tree's to judge.
@Suite("JSON flat object")
struct JSONFlatObjectTests {
    /// The tree's reading of a record: its keys and texts, or nil when it is not an object.
    static func tree(_ bytes: [UInt8]) -> [(String, String?)]? {
        guard case .object(let pairs)? = try? JSONParser.parseComplete(bytes, what: "a record")
        else { return nil }
        return pairs.map { ($0.0, JSONRow.text($0.1)) }
    }

    static func flat(_ bytes: [UInt8], with reader: inout JSONFlatObject) -> [(String, String?)]? {
        guard reader.read(bytes) else { return nil }
        return zip(reader.keys, reader.members.indices).map { ($0, reader.text($1)) }
    }

    static func same(_ a: [(String, String?)], _ b: [(String, String?)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    @Test(
        "a record's members: strings as they are, numbers as written, literals, nested values as compact JSON, keys repeated as they come"
    )
    func members() throws {
        var reader = JSONFlatObject()
        let line =
            #" { "id" : "SO-1", "amount":-12.50e+1,"paid":true, "void":false,"note":null, "items":[1, {"a" : "b"}],"id":"again","名":"张三" } "#
        let read = try #require(Self.flat(Array(line.utf8), with: &reader))
        #expect(read.map(\.0) == ["id", "amount", "paid", "void", "note", "items", "id", "名"])
        #expect(
            read.map(\.1) == [
                "SO-1", "-12.50e+1", "true", "false", nil, #"[1,{"a":"b"}]"#, "again", "张三",
            ])
        #expect(Self.flat(Array("{}".utf8), with: &reader)?.isEmpty == true)
    }

    @Test(
        "a dotted path finds what JSONRow finds: in the object of the first member named by its head"
    )
    func paths() throws {
        let record =
            #"{"customer":{"name":"Li","addr":{"city":"SZ"}},"items":[1],"c":1,"c":{"n":"2"},"s":"t"}"#
        let bytes = Array(record.utf8)
        var reader = JSONFlatObject()
        let read = reader.read(bytes)
        #expect(read)
        guard case .object(let pairs)? = try? JSONParser.parseComplete(bytes, what: "a record")
        else {
            Issue.record("not an object")
            return
        }
        let row = JSONRow(pairs: pairs, siblings: [])
        let expected: [String: String?] = [
            "customer.name": "Li", "customer.addr.city": "SZ", "customer.addr": #"{"city":"SZ"}"#,
            "customer.none": nil,
            "items.0": nil, "c.n": nil, "s.x": nil, "nowhere.x": nil,
        ]
        for (path, text) in expected {
            #expect(reader.value(path: path) == text, "\(path)")
            #expect(row.value(path) == text, "\(path)")
        }
    }

    @Test(
        "records the tree must judge are left to it",
        arguments: [
            #"{"id":"a\"b"}"#, #"{"id\u0041":"a"}"#, "{\"id\":\"a\tb\"}", #"{"n":012}"#,
            #"{"n":1.}"#, #"{"n":1e}"#, #"{"n":-}"#,
            #"{"id":"a",}"#, #"{"id":"a"} x"#, #"{"id" "a"}"#, #"["a"]"#, #""a""#, #"{"t":tru}"#,
            #"{"t":truex}"#, #"{"a":[1,2}"#, #"{'a':1}"#, "",
        ])
    func leftToTheTree(line: String) {
        var reader = JSONFlatObject()
        let read = reader.read(Array(line.utf8))
        #expect(!read)
    }

    @Test(
        "a record in a block's buffer is read within its own bytes: a nested value that would end in the next record is left to the tree"
    )
    func withinItsRange() throws {
        var reader = JSONFlatObject()
        let first = Array(#"{"a":[1,"#.utf8)
        let second = Array(#"2]}"#.utf8)
        let third = Array(#"{"b":{"c":1},"d":"e"}"#.utf8)
        let buffer = first + second + third
        let read = reader.read(buffer, 0..<first.count)
        #expect(!read)  // [1,2] would end in the next record
        let thirdRange = first.count + second.count..<buffer.count
        let members = try #require(
            reader.read(buffer, thirdRange) ? reader.members.indices.map(reader.text) : nil)
        #expect(reader.keys == ["b", "d"])
        #expect(members == [#"{"c":1}"#, "e"])
        let truncated = reader.read(buffer, thirdRange.lowerBound..<buffer.count - 1)
        #expect(!truncated)
    }

    @Test("invalid UTF-8 anywhere is left to the tree, which rejects it")
    func invalidUTF8() {
        var reader = JSONFlatObject()
        for bytes in [
            Array(#"{"id":""#.utf8) + [0xC3] + Array(#""}"#.utf8),
            Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8),
            // After a valid string that is not ASCII; inside a nested value.
            Array(#"{"a":"é","b":""#.utf8) + [0xFF] + Array(#""}"#.utf8),
            Array(#"{"a":["#.utf8) + [0x22, 0xC3, 0x22] + Array("]}".utf8),
        ] {
            let read = reader.read(bytes)
            #expect(!read)
            #expect(Self.tree(bytes) == nil)
        }
    }

    @Test("nesting is limited as deep as in the tree, counted from the record's top")
    func depth() {
        var reader = JSONFlatObject()
        for depth in JSONParser.maximumDepth - 3...JSONParser.maximumDepth + 1 {
            let line = Array(
                (#"{"a":"# + String(repeating: "[", count: depth)
                    + String(repeating: "]", count: depth) + "}").utf8)
            let read = reader.read(line)
            #expect(read == (Self.tree(line) != nil), "depth \(depth)")
        }
    }

    @Test(
        "bytes changed anywhere in real records: what the flat reader reads, the tree reads the same; what the tree rejects, the flat reader leaves"
    )
    func mutatedRecords() {
        var random = SplitMix64(seed: 17)
        let records = [
            #"{"order_id": "SO-000001", "event": "Paid", "status": "paid", "time": "2024-01-01T08:00:17+08:00", "amount": "12.50", "currency": "CNY"}"#,
            #"{"id":7,"ok":true,"gone":null,"tags":["a","b"],"customer":{"name":"李四","vip":false},"total":-0.5E-3}"#,
            #"  {"运单号":"SF123", "状态":"已签收", "时间":"2024/06/12 08:00"}  "#,
        ].map { Array($0.utf8) }
        let insertions: [UInt8] =
            Array("\"\\,:{}[] 0129.-+eEtrnulfa".utf8) + [0x01, 0x0A, 0x80, 0xC3, 0xE5, 0xFF]
        var reader = JSONFlatObject()
        var agreed = 0
        var left = 0
        for _ in 0..<30_000 {
            let line = random.mutated(
                records[Int(random.next() % UInt64(records.count))], edits: 3, alphabet: insertions)
            let tree = Self.tree(line)
            guard let flat = Self.flat(line, with: &reader) else {
                left += 1
                continue
            }
            guard let tree else {
                Issue.record(
                    "read a record the tree rejects: \(String(decoding: line, as: UTF8.self))")
                continue
            }
            #expect(Self.same(flat, tree), "\(String(decoding: line, as: UTF8.self))")
            agreed += 1
        }
        // Both kinds must be reached: mutations that keep a record valid, and ones that break it.
        #expect(agreed > 3_000 && left > 3_000)
    }

    @Test("a key set is told again by its bytes, and not by keys of the same length or order")
    func keys() throws {
        var reader = JSONFlatObject()
        #expect(Self.flat(Array(#"{"ab":1,"c":2}"#.utf8), with: &reader) != nil)
        let (bytes, ends) = reader.keyBytes
        #expect(reader.hasKeys(bytes, ends: ends))
        for (other, same) in [
            (#"{"ab" : "x", "c":null}"#, true), (#"{"a":1,"bc":2}"#, false),
            (#"{"c":1,"ab":2}"#, false), (#"{"ab":1}"#, false),
            (#"{"ab":1,"c":2,"d":3}"#, false),
        ] {
            #expect(Self.flat(Array(other.utf8), with: &reader) != nil)
            #expect(reader.hasKeys(bytes, ends: ends) == same, "\(other)")
        }
    }
}
