import Foundation

/// Converts `text` with the system's iconv command (an encoder independent of the tool's).
func iconv(_ text: String, to encoding: String) -> Data? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
    process.arguments = ["-f", "UTF-8", "-t", encoding]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    guard (try? process.run()) != nil else { return nil }
    input.fileHandleForWriting.write(Data(text.utf8))
    try? input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? data : nil
}

/// A small deterministic random generator (SplitMix64), so that a failure can be replayed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The expected files a corpus's derive scripts wrote in `dir`, decoded from snake case.
func expectedFiles<T: Decodable>(in dir: URL) -> [T] {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let files =
        (try? FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasSuffix(".json")
        }.sorted()) ?? []
    return files.compactMap {
        try? decoder.decode(T.self, from: Data(contentsOf: dir.appendingPathComponent($0)))
    }
}
