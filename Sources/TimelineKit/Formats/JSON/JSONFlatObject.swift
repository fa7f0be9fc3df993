/// A record's JSON object read straight from its bytes, with no tree: each member's key and
/// value are byte ranges, and a value becomes text only when the mapping asks for it. Real
/// records are flat objects of plain strings and numbers, and building, then freeing, a
/// tree of `String`s for every one of them cost more than mapping it.
///
/// It reads only what it can read with certainty, as `JSONParser` would: plain strings (no
/// escape, no control character), numbers, `true`, `false` and `null`, with any spacing; a
/// nested object or array is parsed by `JSONParser` at its depth in the record. For anything
/// else — a syntax error, an escape, invalid UTF-8 — `read` returns false and the caller
/// parses the record through the tree, which accepts it or says what is wrong with it.
/// `JSONFlatObjectTests` holds the two to the same texts.
struct JSONFlatObject {
    enum Kind {
        case string, number, `true`, `false`, null
        /// An object or array: the index of its parsed value in `nested`.
        case nested(Int)
    }

    struct Member {
        let key: Range<Int>
        let value: Range<Int>
        let kind: Kind
    }

    /// The record's members in order, a repeated key each time it occurs.
    private(set) var members: [Member] = []
    private var nested: [JSONValue] = []
    /// The bytes read: the members' ranges are offsets in them.
    private(set) var bytes: [UInt8] = []

    init() {}

    /// Reads `bytes` as one JSON object (surrounding spacing allowed), replacing what was read
    /// before; false when the tree parser must read it.
    mutating func read(_ bytes: [UInt8]) -> Bool {
        read(bytes, bytes.indices)
    }

    /// Reads the record at `range` of `bytes` (a block's buffer); the members' ranges are
    /// offsets in `bytes`.
    mutating func read(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        members.removeAll(keepingCapacity: true)
        if !nested.isEmpty { nested.removeAll(keepingCapacity: true) }
        self.bytes = bytes
        return bytes.withByteView { whole in
            // The record's own bytes, and nothing after them: each index below stays below
            // `view.count`, so it is an offset in `bytes` too once `range` starts the view.
            let view = whole[0..<range.upperBound]
            // Outside its strings, JSON is ASCII (any other byte there fails the grammar):
            // the record's UTF-8 needs checking, once and whole, only when a string holds a
            // byte that is not ASCII, or a nested value was parsed.
            var asciiStrings = true
            var i = Self.skipSpace(view, range.lowerBound)
            guard i < view.count, view[i] == UInt8(ascii: "{") else { return false }
            i = Self.skipSpace(view, i + 1)
            if i < view.count, view[i] == UInt8(ascii: "}") {
                return Self.skipSpace(view, i + 1) == view.count
            }
            while true {
                guard let key = Self.plainString(view, &i, ascii: &asciiStrings) else {
                    return false
                }
                i = Self.skipSpace(view, i)
                guard i < view.count, view[i] == UInt8(ascii: ":") else { return false }
                i = Self.skipSpace(view, i + 1)
                guard i < view.count else { return false }
                let start = i
                var string: Range<Int>?
                let kind: Kind
                switch view[i] {
                case UInt8(ascii: "\""):
                    string = Self.plainString(view, &i, ascii: &asciiStrings)
                    guard string != nil else { return false }
                    kind = .string
                case UInt8(ascii: "t"):
                    guard Self.literal("true", view, &i) else { return false }
                    kind = .true
                case UInt8(ascii: "f"):
                    guard Self.literal("false", view, &i) else { return false }
                    kind = .false
                case UInt8(ascii: "n"):
                    guard Self.literal("null", view, &i) else { return false }
                    kind = .null
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard Self.number(view, &i) else { return false }
                    kind = .number
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    // The parser reads the block's whole buffer: a value it ends past this
                    // record's bytes is not this record's.
                    var parser = JSONParser(bytes: bytes, offset: i)
                    guard let value = try? parser.parseValue(nestedAt: 1),
                        parser.offset <= range.upperBound
                    else { return false }
                    i = parser.offset
                    kind = .nested(nested.count)
                    nested.append(value)
                default:
                    return false
                }
                members.append(Member(key: key, value: string ?? start..<i, kind: kind))
                i = Self.skipSpace(view, i)
                guard i < view.count else { return false }
                if view[i] == UInt8(ascii: ",") {
                    i = Self.skipSpace(view, i + 1)
                    continue
                }
                guard view[i] == UInt8(ascii: "}") else { return false }
                guard Self.skipSpace(view, i + 1) == view.count else { return false }
                return (asciiStrings && nested.isEmpty)
                    || String(validating: bytes[range], as: UTF8.self) != nil
            }
        }
    }

    /// The member's value as `JSONRow.text` gives it: strings as they are, numbers as
    /// written, booleans as `true`/`false`, null as absent, objects and arrays as compact
    /// JSON.
    func text(_ member: Int) -> String? {
        let m = members[member]
        switch m.kind {
        case .string: return bytes.withByteView { $0[m.value].validatedString }
        case .number: return bytes.withByteView { $0[m.value].string }
        case .true: return "true"
        case .false: return "false"
        case .null: return nil
        case .nested(let k): return JSONRow.text(nested[k])
        }
    }

    /// Where member `member`'s text lies in `bytes`, for a plain string or a number (whose
    /// text is the number as written); nil for the others.
    func textRange(_ member: Int) -> Range<Int>? {
        let m = members[member]
        switch m.kind {
        case .string, .number: return m.value
        case .true, .false, .null, .nested: return nil
        }
    }

    /// The text at a dotted path that is not a key of its own (`customer.name`), as
    /// `JSONRow.value` finds it: in the object of the first member named by the path's head.
    func value(path: String) -> String? {
        let parts = path.split(separator: ".", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let head = parts[0]
        let member = bytes.withByteView { view in
            members.first { view[$0.key].validatedString.map { $0[...] == head } ?? false }
        }
        guard let member, case .nested(let k) = member.kind, case .object(let inner) = nested[k]
        else { return nil }
        return JSONRow(pairs: inner, siblings: []).value(String(parts[1]))
    }

    /// The members' keys, in order.
    var keys: [String] {
        bytes.withByteView { view in members.map { view[$0.key].validatedString ?? "" } }
    }

    /// The keys as one run of bytes and where each ends, to tell a later record with the
    /// same keys by `hasKeys`.
    var keyBytes: (bytes: [UInt8], ends: [Int]) {
        var out: [UInt8] = []
        var ends: [Int] = []
        bytes.withByteView { view in
            for m in members {
                view[m.key].append(to: &out)
                ends.append(out.count)
            }
        }
        return (out, ends)
    }

    /// Whether the members' keys are those `keyBytes` gave, in the same order.
    func hasKeys(_ keys: [UInt8], ends: [Int]) -> Bool {
        guard ends.count == members.count else { return false }
        return bytes.withByteView { view in
            keys.withByteView { keys in
                var start = 0
                for (m, end) in zip(members, ends) {
                    let key = view[m.key]
                    guard key.count == end - start, keys[start..<end].hasPrefix(key) else {
                        return false
                    }
                    start = end
                }
                return true
            }
        }
    }

    // MARK: - The JSON forms read, each as `JSONParser` reads it

    @inline(__always)
    private static func skipSpace(_ view: ByteView, _ from: Int) -> Int {
        var i = from
        while i < view.count {
            switch view[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return i
            }
        }
        return i
    }

    /// The bytes inside a string with no escape and no control character, the index moved
    /// past its closing quote; nil for any other string. `ascii` is set to false when the
    /// string holds a byte that is not ASCII (its UTF-8 is not checked here).
    @inline(__always)
    private static func plainString(_ view: ByteView, _ i: inout Int, ascii: inout Bool)
        -> Range<Int>?
    {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        guard i < view.count, view[i] == quote else { return nil }
        let start = i + 1
        var end = view.firstIndex(ofControlOr: quote, backslash, orNonASCII: true, from: start)
        if end < view.count, view[end] >= 0x80 {
            ascii = false
            end = view.firstIndex(ofControlOr: quote, backslash, from: end + 1)
        }
        guard end < view.count, view[end] == quote else { return nil }
        i = end + 1
        return start..<end
    }

    private static func literal(_ word: StaticString, _ view: ByteView, _ i: inout Int) -> Bool {
        let end = i + word.utf8CodeUnitCount
        guard end <= view.count, view[i..<end].equals(word) else { return false }
        i = end
        return true
    }

    /// A number by JSON's grammar (no leading zero, digits after `.` and in an exponent).
    private static func number(_ view: ByteView, _ i: inout Int) -> Bool {
        func digits(_ i: inout Int) -> Int {
            let start = i
            while i < view.count, view[i] &- 0x30 < 10 { i += 1 }
            return i - start
        }
        if view[i] == UInt8(ascii: "-") { i += 1 }
        let first = i
        let integer = digits(&i)
        guard integer > 0, integer == 1 || view[first] != UInt8(ascii: "0") else { return false }
        if i < view.count, view[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&i) > 0 else { return false }
        }
        if i < view.count, view[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < view.count, view[i] == UInt8(ascii: "+") || view[i] == UInt8(ascii: "-") {
                i += 1
            }
            guard digits(&i) > 0 else { return false }
        }
        return true
    }
}
