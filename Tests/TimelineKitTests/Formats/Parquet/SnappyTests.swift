import Foundation
import Testing

@testable import TimelineKit

/// The Snappy compressor against an independent decompressor: pyarrow's
/// (`pyarrow.decompress(…, codec="snappy")`, the C++ Snappy library), which must give back
/// every input byte for byte.
@Suite("Snappy")
struct SnappyTests {
    /// Inputs that reach each element kind: nothing, a byte, literals of every length
    /// class (below 60, to 256, to 65,536, beyond), long runs (copies split in 64-byte
    /// pieces), repeats across the 64 KiB windows, and random bytes that do not compress.
    static func inputs() -> [[UInt8]] {
        var random = SplitMix64(seed: 5)
        let noise = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let text = Array(
            (0..<20_000).map { "order SO-\($0 % 700),paid,2024-06-\($0 % 28 + 1)\n" }.joined().utf8)
        return [
            [], [7], Array(noise.prefix(59)), Array(noise.prefix(200)), Array(noise.prefix(60_000)),
            noise, [UInt8](repeating: 0x41, count: 100_000), text,
            Array(noise.prefix(70_000)) + Array(noise.prefix(70_000)),
        ]
    }

    @Test("pyarrow's Snappy gives back every input")
    func roundTrip() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "snappy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputs = Self.inputs()
        for (i, input) in inputs.enumerated() {
            var compressed: [UInt8] = []
            Snappy.compress(input, into: &compressed)
            try Data(compressed).write(to: dir.appendingPathComponent("\(i).snappy"))
            try Data(input).write(to: dir.appendingPathComponent("\(i).raw"))
        }
        let script = """
            import pyarrow, sys, os
            d = sys.argv[1]
            for i in range(int(sys.argv[2])):
                raw = open(os.path.join(d, f"{i}.raw"), "rb").read()
                packed = open(os.path.join(d, f"{i}.snappy"), "rb").read()
                # The length varint first, then the elements.
                n, shift, k = 0, 0, 0
                while True:
                    b = packed[k]; n |= (b & 0x7F) << shift; shift += 7; k += 1
                    if b < 0x80: break
                assert n == len(raw), (i, n, len(raw))
                out = pyarrow.decompress(packed, decompressed_size=n, codec="snappy").to_pybytes() if n else b""
                assert out == raw, i
            print("ok")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, dir.path, "\(inputs.count)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: out, as: UTF8.self) == "ok\n")
    }

    @Test("repetitive input shrinks")
    func compresses() {
        var out: [UInt8] = []
        Snappy.compress([UInt8](repeating: 0x41, count: 100_000), into: &out)
        #expect(out.count < 6_000)
    }
}
