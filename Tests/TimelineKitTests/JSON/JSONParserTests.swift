import Testing

@testable import TimelineKit

@Suite("JSON parser and writer")
struct JSONParserTests {
    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var p = JSONParser(bytes: Array(text.utf8))
        let v = try p.parseValue()
        p.skipWhitespace()
        if !p.isAtEnd { throw p.error("trailing") }
        return v
    }

    @Test("values, key order and number text are kept")
    func values() throws {
        let v = try Self.parse(#"{"b":1,"a":[true,false,null,-0.50,1e3],"s":"x\"\\\/\n\u00e9\ud83d\ude00"}"#)
        guard case .object(let pairs) = v else {
            Issue.record("not an object")
            return
        }
        #expect(pairs.map(\.0) == ["b", "a", "s"])
        #expect(v["a"] == .array([.bool(true), .bool(false), .null, .number("-0.50"), .number("1e3")]))
        #expect(v["s"] == .string("x\"\\/\né😀"))
    }

    @Test("syntax errors name the byte offset", arguments: [
        (#"{"a":1,}"#, 7), (#"[1,2"#, 4), (#"{"a" 1}"#, 5), (#""abc"#, 0), (#"[01]"#, 1), (#"{"a":tru}"#, 5),
        ("[\"a\u{1}\"]", 3), (#"["\x"]"#, 2), (#"["\ud800"]"#, 8),
    ])
    func errors(text: String, offset: Int) {
        do {
            _ = try Self.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.offset == offset, "\(text): \(error.message)")
        }
    }

    @Test("deep nesting is an error, not a stack overflow")
    func depth() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try Self.parse(text) }
    }

    @Test("invalid UTF-8 inside strings is an error")
    func invalidUTF8() {
        var p = JSONParser(bytes: [0x22, 0xFF, 0x22])
        #expect(throws: JSONSyntaxError.self) { try p.parseValue() }
    }

    @Test("the writer escapes control characters and round-trips")
    func writer() throws {
        let original = JSONValue.object([("k\"", .string("a\u{0}b\tc\u{7F}é")), ("n", .number("12.50")), ("l", .array([.null, .bool(true)]))])
        var w = JSONWriter()
        w.value(original)
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text == #"{"k\"":"a\u0000b\tc\u007fé","n":12.50,"l":[null,true]}"#)
        #expect(try Self.parse(text) == original)
    }
}
