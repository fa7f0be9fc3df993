import Testing

@testable import TimelineKit

@Suite("exact lines")
struct ExactLinesTests {
    @Test(
        "blocks of whole lines in order, with the lines before each; a line over the limit stops the run"
    )
    func blocksAndLimit() throws {
        // 3,000 lines of 100 bytes in chunks of 64 bytes, blocks of about 4 KB.
        let line = Array(repeating: UInt8(ascii: "x"), count: 99) + [0x0A]
        let input = InputReader(
            name: "lines", bytes: Array([[UInt8]](repeating: line, count: 3_000).joined()),
            chunkSize: 64)
        var lines = 0
        var bytes = 0
        try ExactLines.map(
            input, blockSize: 4096, maxLine: 100,
            transform: { block in (block.count, block.count / 100) }
        ) {
            (count: Int, before: Int) throws(TimelineError) in
            #expect(before == lines)
            lines += count / 100
            bytes += count
        }
        #expect(lines == 3_000 && bytes == 300_000)

        let long = InputReader(
            name: "long", bytes: Array(repeating: UInt8(ascii: "y"), count: 10_000), chunkSize: 64)
        #expect {
            try ExactLines.map(long, maxLine: 1_000, transform: { ($0.count, 1) }) {
                (_: Int, _: Int) throws(TimelineError) in
            }
        } throws: {
            ($0 as? TimelineError)?.diagnostic.message.contains("line 1 is longer than 1000 bytes")
                == true
        }
    }
}
