import Foundation
import Testing

@testable import TimelineKit

@Suite("InputReader (chunked input)")
struct InputReaderTests {
    /// The lines of `text` as `nextLine` returns them, with chunks of `chunk` bytes.
    static func lines(_ bytes: [UInt8], chunk: Int) throws -> [String] {
        let reader = InputReader(name: "t", bytes: bytes, chunkSize: chunk)
        var lines: [String] = []
        while let line = try reader.nextLine() {
            lines.append(String(decoding: line, as: UTF8.self))
        }
        return lines
    }

    /// Expected by hand: LF, CRLF and a lone CR each end a line; a final line needs no end;
    /// an empty line between two ends is a line; a BOM at the start is not text.
    @Test(
        "LF, CRLF and lone CR end lines wherever a chunk boundary falls",
        arguments: [1, 2, 3, 7, 1 << 16])
    func lineEnds(chunk: Int) throws {
        let text = Array("\u{FEFF}a\nbb\r\ncc\rd\r\r\ne\n\nlast".utf8)
        #expect(try Self.lines(text, chunk: chunk) == ["a", "bb", "cc", "d", "", "e", "", "last"])
        #expect(try Self.lines(Array("x\r".utf8), chunk: chunk) == ["x"])
        #expect(try Self.lines([], chunk: chunk) == [])
    }

    /// The lines of `bytes` by the rule itself, a byte at a time: CRLF, CR or LF ends a
    /// line; what follows the last end is a line when it is not empty.
    static func expectedLines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var line: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                lines.append(String(decoding: line, as: UTF8.self))
                line = []
                if b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
            } else {
                line.append(b)
            }
            i += 1
        }
        if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    @Test("any mix of LF, CR and CRLF, in chunks of any size, splits as the rule says")
    func randomLineEnds() throws {
        var rng = SplitMix64(seed: 3)
        let alphabet: [UInt8] = Array("ab\n\r".utf8) + [0x0A, 0x0D, 0x0D, 0x0A]
        for _ in 0..<500 {
            let count = Int(rng.next() % 300)
            // Long stretches with no LF (only CRs) too: the LF found once serves many lines.
            let noLF = rng.next() % 4 == 0
            let bytes = (0..<count).map { _ -> UInt8 in
                let b = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                return noLF && b == 0x0A ? 0x0D : b
            }
            let chunk = Int(rng.next() % 64) + 1
            #expect(
                try Self.lines(bytes, chunk: chunk) == Self.expectedLines(bytes),
                "chunk \(chunk): \(bytes)")
        }
    }

    @Test("a BOM is skipped once, only at the start; readAll returns the rest")
    func byteOrderMark() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let reader = InputReader(name: "t", bytes: bom + Array("a".utf8) + bom, chunkSize: 1)
        #expect(try reader.readAll() == Array("a".utf8) + bom)
        #expect(
            try InputReader(name: "t", bytes: [0xEF, 0xBB], chunkSize: 1).readAll() == [0xEF, 0xBB])
    }

    @Test(
        "a file is read in chunks from its descriptor; a directory or a missing path is refused with advice"
    )
    func files() throws {
        let path = NSTemporaryDirectory() + "timeline-input-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<150_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        var read: [UInt8] = []
        let reader = try InputReader(path: path)
        while let chunk = try reader.nextChunk() { read += chunk }
        #expect(read == bytes)
        #expect(throws: TimelineError.self) { try InputReader(path: NSTemporaryDirectory()) }
        do {
            _ = try InputReader(path: "/nonexistent/x.csv")
            Issue.record("a missing file was opened")
        } catch {
            #expect(error.kind == .inputUnavailable)
            #expect(
                error.diagnostic.message
                    == "cannot read '/nonexistent/x.csv': No such file or directory")
        }
    }
}
