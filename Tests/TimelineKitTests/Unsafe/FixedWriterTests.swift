import Foundation
import Testing

@testable import TimelineKit

@Suite("FixedWriter (formatting into room sized beforehand)")
struct FixedWriterTests {
    /// `value` as decimal text, zero-padded to `width` digits after any sign — the oracle for
    /// `digits`, from the standard library's own formatting.
    static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count))
            + digits
    }

    @Test("JSON strings are escaped as expected by hand (RFC 8259 §7)")
    func jsonStrings() {
        // Control characters as lower-case \u00xx; UTF-8 as is.
        let strings: [(String, String)] = [
            ("", #""""#), ("plain", #""plain""#),
            ("quote \" and \\ backslash", #""quote \" and \\ backslash""#),
            ("ctl \u{0}\u{1}\u{1F}\t\r\n", #""ctl \u0000\u0001\u001f\t\r\n""#),
            ("del \u{7F}", #""del \u007f""#),
            ("€ 中文 🙂", "\"€ 中文 🙂\""),
            (
                String(repeating: "x\u{1}", count: 40),
                "\"" + String(repeating: #"x\u0001"#, count: 40) + "\""
            ),
            ("\u{1A}\u{1B}\u{0B}", #""\u001a\u001b\u000b""#),
        ]
        for (s, expected) in strings {
            var fixed: [UInt8] = []
            FixedWriter.appending(to: &fixed, capacity: FixedWriter.jsonStringBound(s)) {
                $0.jsonString(s)
            }
            #expect(String(decoding: fixed, as: UTF8.self) == expected, "\(s.debugDescription)")
        }
    }

    /// `s` escaped as `jsonString` documents it, one scalar at a time: the oracle for the
    /// word-wise writer.
    static func escapedByHand(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test("random strings are escaped as by hand and read back by Foundation's JSON parser")
    func randomJSONStrings() throws {
        // Lengths around the 8-byte words, with the bytes that need escaping, their
        // neighbours and UTF-8 at random positions. Seeded: the same strings every run.
        var random = SplitMix64(seed: 0x5EED_0057)
        let pieces: [String] = [
            "a", "Z", "0", " ", "!", "#", "[", "]", "~", "\"", "\\", "\n", "\r", "\t", "\u{0}",
            "\u{1F}", "\u{7F}", "é", "€", "中", "🙂",
        ]
        for _ in 0..<3_000 {
            let count = Int(random.next() % 24)
            var s = ""
            for _ in 0..<count {
                // Mostly plain letters, so that many strings are clean and take the fast path.
                s +=
                    random.next() % 4 == 0 ? pieces[Int(random.next() % UInt64(pieces.count))] : "x"
            }
            var fixed: [UInt8] = []
            FixedWriter.appending(to: &fixed, capacity: FixedWriter.jsonStringBound(s)) {
                $0.jsonString(s)
            }
            #expect(
                String(decoding: fixed, as: UTF8.self) == Self.escapedByHand(s),
                "\(s.debugDescription)")
            let parsed = try JSONSerialization.jsonObject(
                with: Data(("[" + String(decoding: fixed, as: UTF8.self) + "]").utf8))
            #expect((parsed as? [String])?.first == s, "\(s.debugDescription)")
        }
    }

    @Test("digits are written as the standard library formats them, zero-padded")
    func digits() {
        for (value, width) in [
            (0, 1), (7, 1), (42, 4), (2024, 4), (-5, 2), (123_456_789, 1), (Int.max, 1),
            (Int.min, 1), (9, 3), (10, 0),
        ] {
            var fixed: [UInt8] = []
            FixedWriter.appending(to: &fixed, capacity: 32) { $0.digits(value, width: width) }
            #expect(
                String(decoding: fixed, as: UTF8.self) == Self.padded(value, width: width),
                "\(value) width \(width)")
        }
    }

    @Test("two and four digits are the number's last two or four, zero-padded")
    func twoAndFour() {
        for value in [0, 5, 9, 10, 42, 99, 100, 123, 2024, 9999, 12_345] {
            var fixed: [UInt8] = []
            FixedWriter.appending(to: &fixed, capacity: 8) {
                $0.two(value)
                $0.four(value)
            }
            #expect(
                String(decoding: fixed, as: UTF8.self)
                    == Self.padded(value % 100, width: 2) + Self.padded(value % 10_000, width: 4),
                "\(value)")
        }
    }

    @Test("a text followed by a number is one string as concatenation makes it")
    func textAndNumber() {
        for number in [0, 1, 9, 10, 99, 12_345, -1, -40, Int.max, Int.min] {
            for head in ["", "a.csv:", "订单.csv:", String(repeating: "x", count: 14)] {
                let written = head.withByteView { FixedWriter.string($0, followedBy: number) }
                #expect(written == head + String(number))
            }
        }
    }

    @Test("a text followed by a number as one JSON string is the concatenation escaped")
    func jsonTextAndNumber() {
        for number in [0, 7, 10, 99_999, -1, -40, Int.max, Int.min] {
            #expect(FixedWriter.decimalLength(of: number) == String(number).utf8.count)
            for head in ["", "a.csv:", "订单.csv:", "say \"hi\".csv:", "tab\t.csv:", "x\u{7F}:"] {
                var fixed: [UInt8] = []
                FixedWriter.appending(
                    to: &fixed, capacity: FixedWriter.jsonStringBound(head) + 20
                ) { $0.jsonString(head, followedBy: number) }
                #expect(
                    String(decoding: fixed, as: UTF8.self)
                        == Self.escapedByHand(head + String(number)),
                    "\(head.debugDescription) \(number)")
            }
        }
    }

    @Test(
        "in place and through temporary room (beyond 64 KiB) write the same bytes after what is there"
    )
    func inPlace() {
        for size in [0, 10, 1 << 16, (1 << 16) + 1, 200_000] {
            let text = String(repeating: "é", count: size / 2)
            var out: [UInt8] = Array("head ".utf8)
            FixedWriter.appendingInPlace(text, to: &out, capacity: text.utf8.count + 16) { s, w in
                s.withByteView { _ = w.quotedIfClean($0) }
            }
            #expect(out == Array("head \"\(text)\"".utf8), "size \(size)")
        }
    }
}
