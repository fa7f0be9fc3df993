import Testing

@testable import TimelineKit

/// `ByteView` holds the library's raw memory reads; every bulk operation that reads eight
/// bytes at a time is checked against a byte-by-byte scan of the same bytes at every
/// position, length and start, so that the word tricks (overlapping tail words, borrows
/// between bytes) cannot miss a byte or see one that is not there.
@Suite("ByteView (bounds-checked byte access)")
struct ByteViewTests {
    @Test(
        "finds the first of three bytes (or a high byte) exactly as a byte-by-byte scan, from every start"
    )
    func firstOfThree() {
        // Every placement of the sought bytes (and near misses, UTF-8, 0x80 bytes) in a
        // 40-byte buffer, searched from every offset.
        var rng = SplitMix64(seed: 0xB17E)
        let alphabet: [UInt8] = [
            0x2C, 0x0A, 0x0D, 0x22, 0x2B, 0x2D, 0x09, 0x0B, 0x0C, 0x61, 0x80, 0xE2, 0xFF, 0x00,
            0x01,
        ]
        for _ in 0..<2_000 {
            let bytes = (0..<40).map { _ in
                Bool.random(using: &rng)
                    ? UInt8.random(in: 0x61...0x7A, using: &rng)
                    : alphabet.randomElement(using: &rng)!
            }
            bytes.withByteView { p in
                for from in 0...p.count {
                    let naive =
                        bytes[from...].firstIndex { $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }
                        ?? bytes.count
                    #expect(
                        p.firstIndex(of: 0x2C, 0x0A, 0x0D, from: from) == naive,
                        "\(bytes) from \(from)")
                    #expect(
                        p.firstIndex(of: 0x22, from: from) == bytes[from...].firstIndex(of: 0x22),
                        "\(bytes) from \(from)")
                    let naiveOrHigh =
                        bytes[from...].firstIndex {
                            $0 >= 0x80 || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D
                        } ?? bytes.count
                    #expect(
                        p.firstIndex(of: 0x2C, 0x0A, 0x0D, orNonASCII: true, from: from)
                            == naiveOrHigh,
                        "\(bytes) from \(from)")
                }
            }
        }
    }

    @Test(
        "finds the first control byte, quote or backslash (or high byte) exactly as a byte-by-byte scan, from every start"
    )
    func firstControlOrTwo() {
        // Control bytes, the two sought, the bytes just above 0x20 and high bytes, where a
        // borrow between bytes could flag one wrongly.
        var rng = SplitMix64(seed: 0xC7A1)
        let alphabet: [UInt8] = [
            0x00, 0x01, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x5C, 0x3F, 0x40, 0x7F, 0x80, 0x9F,
            0xA0, 0xC3, 0xFF,
        ]
        for _ in 0..<2_000 {
            let bytes = (0..<40).map { _ in
                Bool.random(using: &rng)
                    ? UInt8.random(in: 0x61...0x7A, using: &rng)
                    : alphabet.randomElement(using: &rng)!
            }
            bytes.withByteView { p in
                for from in 0...p.count {
                    let naive =
                        bytes[from...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
                        ?? bytes.count
                    #expect(
                        p.firstIndex(ofControlOr: 0x22, 0x5C, from: from) == naive,
                        "\(bytes) from \(from)")
                    let naiveOrHigh =
                        bytes[from...].firstIndex {
                            $0 < 0x20 || $0 >= 0x80 || $0 == 0x22 || $0 == 0x5C
                        } ?? bytes.count
                    #expect(
                        p.firstIndex(ofControlOr: 0x22, 0x5C, orNonASCII: true, from: from)
                            == naiveOrHigh,
                        "\(bytes) from \(from)")
                }
            }
        }
    }

    @Test("control-or-three copy agrees with a byte-by-byte test at every position")
    func copyUnlessControl() {
        // Each byte value that counts (and bytes around the word-wise thresholds that do
        // not), placed at every offset of ASCII/UTF-8 texts of every length up to 19 bytes
        // (shorter than a word, whole words, and words plus a tail read as an overlapping word).
        // A clean text is copied whole and nothing past it is touched.
        func copied(_ bytes: [UInt8]) -> (clean: Bool, target: [UInt8]) {
            var target = [UInt8](repeating: 0xEE, count: bytes.count + 8)
            let clean = target.withUnsafeMutableBytes { room in
                bytes.withByteView {
                    $0.copy(into: room.baseAddress!, unlessControlOr: 0x22, 0x5C, 0x7F)
                }
            }
            return (clean, target)
        }
        let text = Array("abcdefgh€ijklmnop".utf8)
        for length in 0...text.count {
            let base = Array(text[0..<length])
            let clean = copied(base)
            #expect(clean.clean, "clean, length \(length)")
            #expect(clean.target == base + [UInt8](repeating: 0xEE, count: 8), "length \(length)")
            for special: UInt8 in [
                0x00, 0x09, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xA0,
                0xA2, 0xFF,
            ] {
                for position in 0...base.count {
                    var bytes = base
                    bytes.insert(special, at: position)
                    let naive = bytes.contains {
                        $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F
                    }
                    let result = copied(bytes)
                    #expect(
                        result.clean == !naive, "byte \(special) at \(position) of \(bytes.count)")
                    if result.clean {
                        #expect(result.target.prefix(bytes.count).elementsEqual(bytes))
                        #expect(result.target.dropFirst(bytes.count).allSatisfy { $0 == 0xEE })
                    }
                }
            }
        }
    }

    /// The word-wise ASCII test must see a non-ASCII byte wherever it lies: a lone
    /// continuation byte (invalid UTF-8) at every position of texts of every length up to
    /// 20 bytes is refused, and a valid two-byte character is kept.
    @Test("validated text: invalid UTF-8 refused at every position and length")
    func validatedString() {
        for length in 1...20 {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = 0x80
                #expect(
                    bytes.withByteView { $0.validatedString } == nil,
                    "0x80 at \(position) of \(length)")
                #expect(
                    bytes.withByteView { $0.isASCII } == false, "0x80 at \(position) of \(length)")
                var valid = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                #expect(valid.withByteView { $0.isASCII })
                valid.insert(contentsOf: [0xC3, 0xA9], at: position)  // é
                #expect(
                    valid.withByteView { $0.validatedString }
                        == String(decoding: valid, as: UTF8.self))
            }
        }
        #expect([UInt8]().withByteView { $0.validatedString } == "")
        #expect([UInt8]().withByteView { $0.isASCII })
        // Overlong and surrogate encodings are not UTF-8.
        #expect([0xC0, 0xAF].withByteView { $0.validatedString } == nil)
        #expect([0xED, 0xA0, 0x80].withByteView { $0.validatedString } == nil)
    }

    @Test("prefixes, literals, words and slices agree with the arrays they view")
    func comparisons() {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...24, using: &rng)).map { _ in
                UInt8.random(in: 0x61...0x63, using: &rng)
            }
            let prefix = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            var other = prefix
            if !other.isEmpty { other[other.count - 1] ^= 0x01 }
            bytes.withByteView { v in
                #expect(v.hasPrefix(prefix))
                #expect(v.hasPrefix(other) == bytes.starts(with: other))
                #expect(v.hasPrefix(bytes + [0x61]) == false)
                #expect(v.first == bytes.first && v.last == bytes.last)
                #expect(v.array == bytes && v.string == String(decoding: bytes, as: UTF8.self))
                for offset in stride(from: 0, through: bytes.count - 8, by: 1) {
                    let expected = (0..<8).reduce(UInt64(0)) {
                        $0 | UInt64(bytes[offset + $1]) << (8 * $1)
                    }
                    #expect(v.word(at: offset) == expected)
                }
                let cut = Int.random(in: 0...bytes.count, using: &rng)
                #expect(v[cut...].array == Array(bytes[cut...]))
                #expect(v[0..<cut].array == Array(bytes[0..<cut]))
            }
        }
        #expect("abc".withByteView { $0.equals("abc") })
        #expect("abc".withByteView { $0.equals("abd") } == false)
        #expect("abc".withByteView { $0.equals("ab") } == false)
        #expect("".withByteView { $0.equals("") })
    }

    @Test("strings lend their UTF-8 whether stored inline, on the heap or sliced")
    func stringsLend() {
        let short = "2024-01-02"  // inline (at most 15 bytes)
        let long = String(repeating: "订单 2024-01-02T03:04:05+08:00 ", count: 20)
        let sliced = String(long.dropFirst(3).prefix(40))
        for text in [short, long, sliced, ""] {
            #expect(text.withByteView { $0.array } == Array(text.utf8))
        }
    }

    @Test("a byte set holds exactly its bytes, in each of its four words; a scan finds any of them")
    func byteSet() {
        let members: [UInt8] = [0, 9, 63, 64, 0x7F, 0x80, 0xC2, 0xFF]
        let set = ByteSet(members)
        for b in 0...255 {
            #expect(set.contains(UInt8(b)) == members.contains(UInt8(b)), "\(b)")
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            #expect(
                bytes.withByteView { $0.contains(anyOf: set) }
                    == bytes.contains(where: members.contains))
        }
    }

    @Test("a literal appends its UTF-8 bytes, ASCII or not, empty or not")
    func literal() {
        var bytes: [UInt8] = [1]
        bytes.append(literal: "<a href=\"")
        bytes.append(literal: "")
        bytes.append(literal: "│ 签收")
        #expect(bytes == [1] + Array("<a href=\"".utf8) + Array("│ 签收".utf8))
    }
}
