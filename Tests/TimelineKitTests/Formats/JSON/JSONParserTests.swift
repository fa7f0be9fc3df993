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
        let v = try Self.parse(
            #"{"b":1,"a":[true,false,null,-0.50,1e3],"s":"x\"\\\/\n\u00e9\ud83d\ude00"}"#)
        guard case .object(let pairs) = v else {
            Issue.record("not an object")
            return
        }
        #expect(pairs.map(\.0) == ["b", "a", "s"])
        #expect(
            v["a"] == .array([.bool(true), .bool(false), .null, .number("-0.50"), .number("1e3")]))
        #expect(v["s"] == .string("x\"\\/\né😀"))
    }

    @Test(
        "syntax errors name the byte offset",
        arguments: [
            (#"{"a":1,}"#, 7), (#"[1,2"#, 4), (#"{"a" 1}"#, 5), (#""abc"#, 0), (#"[01]"#, 1),
            (#"{"a":tru}"#, 5),
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

    // Strings of every length up to two words, with a non-ASCII character (valid, a lone
    // continuation byte, a truncated sequence, an encoded surrogate) at every position, with
    // and without an escape after it: valid text reads back as written, invalid text is an
    // error at the string's first byte. Expected values by construction.
    @Test(
        "UTF-8 is checked wherever it falls in a string",
        arguments: [
            ([0xC3, 0xA9], true), ([0xE4, 0xB8, 0xAD], true), ([0xF0, 0x9F, 0x98, 0x80], true),
            ([0x80], false), ([0xE4, 0xB8], false), ([0xED, 0xA0, 0x80], false),
            ([0xC0, 0xAF], false),
        ])
    func utf8Positions(sequence: [UInt8], valid: Bool) {
        for length in 0...16 {
            for position in 0...length {
                for escaped in [false, true] {
                    var body = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    body.insert(contentsOf: sequence, at: position)
                    let tail: [UInt8] = escaped ? Array(#"\n"#.utf8) : []
                    var p = JSONParser(bytes: [0x5B, 0x22] + body + tail + [0x22, 0x5D])
                    do {
                        let value = try p.parseValue()
                        let expected = String(decoding: body, as: UTF8.self) + (escaped ? "\n" : "")
                        #expect(
                            valid && value == .array([.string(expected)]),
                            "length \(length), at \(position)")
                    } catch {
                        #expect(
                            !valid && error.offset == 2
                                && error.message == "invalid UTF-8 in a string",
                            "length \(length), at \(position)")
                    }
                }
            }
        }
    }

    @Test("the writer escapes control characters and round-trips")
    func writer() throws {
        let original = JSONValue.object([
            ("k\"", .string("a\u{0}b\tc\u{7F}é")), ("n", .number("12.50")),
            ("l", .array([.null, .bool(true)])),
        ])
        var w = JSONWriter()
        w.value(original)
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text == #"{"k\"":"a\u0000b\tc\u007fé","n":12.50,"l":[null,true]}"#)
        #expect(try Self.parse(text) == original)
    }
}

@Suite("JSON array stream")
struct JSONArrayStreamTests {
    @Test("elements come out whole wherever chunk boundaries fall")
    func chunking() throws {
        let text = #" [ {"a":"x]y","b":[1,{"c":"\"}"}]} , 12.5,"s,t" ,true,null,{"d":"\\"},[[]] ] "#
        var expected: [String] = []
        var whole = JSONParser(bytes: Array(text.utf8))
        guard case .array(let items) = try whole.parseValue() else {
            Issue.record("not an array")
            return
        }
        for item in items {
            var w = JSONWriter()
            w.value(item)
            expected.append(String(decoding: w.bytes, as: UTF8.self))
        }
        for chunk in 1...12 {
            let stream = JSONArrayStream(
                input: InputReader(name: "t", bytes: Array(text.utf8), chunkSize: chunk))
            var got: [String] = []
            loop: while true {
                switch try stream.next() {
                case .end: break loop
                case .malformed(let offset, let message):
                    Issue.record("chunk \(chunk): malformed at \(offset): \(message)")
                    break loop
                case .element(let bytes, _):
                    var p = JSONParser(bytes: bytes)
                    var w = JSONWriter()
                    w.value(try p.parseValue())
                    got.append(String(decoding: w.bytes, as: UTF8.self))
                }
            }
            #expect(got == expected, "chunk \(chunk)")
        }
    }

    @Test("a cut-off array is reported with its line and column")
    func truncated() throws {
        let stream = JSONArrayStream(
            input: InputReader(name: "t", bytes: Array("[1,\n2,".utf8), chunkSize: 2))
        var steps: [String] = []
        loop: while true {
            switch try stream.next() {
            case .end: break loop
            case .element(let b, _): steps.append(String(decoding: b, as: UTF8.self))
            case .malformed(let offset, _):
                let (line, column) = stream.location(of: offset)
                steps.append("malformed \(line):\(column)")
                break loop
            }
        }
        #expect(steps == ["1", "2", "malformed 2:3"])
    }
}
