import Testing

@testable import TimelineKit

/// Expected UTF-8 from Python's codecs (`'中文 2024年'.encode('gb18030')`, `'a€'.encode('utf-16')`,
/// `bytes([0xD6, 0xD0, 0xFF, 0x41]).decode('gb18030', 'replace')`).
@Suite("Transcoder (iconv to UTF-8)")
struct TranscoderTests {
    static func convert(_ bytes: [UInt8], from encoding: TextEncoding, chunk: Int) throws -> (
        [UInt8], Transcoder
    ) {
        let t = try Transcoder(from: encoding)
        var out: [UInt8] = []
        var i = 0
        repeat {
            let end = min(bytes.count, i + chunk)
            out += t.convert(Array(bytes[i..<end]), final: end == bytes.count)
            i = end
        } while i < bytes.count
        return (out, t)
    }

    @Test(
        "a multi-byte sequence split at any chunk boundary converts as a whole",
        arguments: [1, 2, 3, 5, 64])
    func chunks(chunk: Int) throws {
        let gb: [UInt8] = [0xD6, 0xD0, 0xCE, 0xC4, 0x20, 0x32, 0x30, 0x32, 0x34, 0xC4, 0xEA]
        let (text, t) = try Self.convert(gb, from: .gb18030, chunk: chunk)
        #expect(String(decoding: text, as: UTF8.self) == "中文 2024年")
        #expect(t.replacedSequences == 0)
        let utf16: [UInt8] = [0xFF, 0xFE, 0x61, 0x00, 0xAC, 0x20]
        #expect(
            String(decoding: try Self.convert(utf16, from: .utf16, chunk: chunk).0, as: UTF8.self)
                == "a€")
        #expect(
            String(
                decoding: try Self.convert([0xE9, 0x3F], from: .latin1, chunk: chunk).0,
                as: UTF8.self) == "é?")
    }

    @Test(
        "an invalid byte becomes U+FFFD, counted with its offset; a sequence cut off at the end too"
    )
    func replacements() throws {
        let (text, t) = try Self.convert([0xD6, 0xD0, 0xFF, 0x41], from: .gb18030, chunk: 64)
        #expect(String(decoding: text, as: UTF8.self) == "中\u{FFFD}A")
        #expect(t.replacedSequences == 1 && t.firstReplacementOffset == 2)
        let (cut, c) = try Self.convert([0x41, 0xD6], from: .gb18030, chunk: 1)
        #expect(String(decoding: cut, as: UTF8.self) == "A\u{FFFD}")
        #expect(c.replacedSequences == 1 && c.firstReplacementOffset == 1)
    }
}
