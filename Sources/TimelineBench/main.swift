// In-process micro-benchmark of the date engine, run by scripts/bench-dates.
//
//   timeline-bench iso FILE          parse every line with the engine (fast paths first)
//   timeline-bench foundation FILE   parse every line with Foundation's Date.ISO8601FormatStyle
//   timeline-bench repeat N FILE     parse the first line N times (for counting allocations)
//
// Prints one line: `NAME values=N ok=M seconds=S rate=R` (best of three passes).
import Foundation
import TimelineKit

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func lines(_ path: String) -> [[UInt8]] {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
        exit(66)
    }
    return data.split(separator: 0x0A).map(Array.init)
}

func report(_ name: String, _ count: Int, _ ok: Int, _ seconds: Double) {
    print(
        "\(name) values=\(count) ok=\(ok) seconds=\(String(format: "%.4f", seconds)) rate=\(Int(Double(count) / seconds))"
    )
}

let args = CommandLine.arguments
guard args.count >= 3 else {
    print("usage: timeline-bench iso|foundation FILE | repeat N FILE")
    exit(64)
}
/// Everything runs inside a function: top-level variables are globals, and their
/// exclusivity checks would dominate the measurement.
func main(_ args: [String]) {
    var options = DateParsingOptions()
    options.assumedZone = try? ZoneResolver().resolve("Asia/Shanghai")
    options.fieldOrder = .dayFirst

    switch args[1] {
    case "iso":
        let values = lines(args[2])
        let parser = DateParser(options: options)
        var best = Double.infinity
        var ok = 0
        for _ in 0..<3 {
            ok = 0
            let start = now()
            for v in values {
                let r = v.withByteView { parser.parse(bytes: $0) }
                if case .success = r { ok += 1 }
            }
            best = min(best, now() - start)
        }
        report("engine", values.count, ok, best)
    case "fastpath":
        // The RFC 3339 fast path alone: bytes → exact instant and offset (what Foundation's
        // ISO8601FormatStyle produces: a moment in time).
        let values = lines(args[2])
        var best = Double.infinity
        var ok = 0
        var checksum: Int64 = 0
        for _ in 0..<3 {
            ok = 0
            let start = now()
            for v in values {
                if let m = v.withByteView({ RFC3339FastPath.parse($0) }) {
                    ok += 1
                    checksum &+= m.instant.seconds
                }
            }
            best = min(best, now() - start)
        }
        report("fastpath checksum=\(checksum)", values.count, ok, best)
    case "foundation":
        let values = lines(args[2]).map { String(decoding: $0, as: UTF8.self) }
        let style = Date.ISO8601FormatStyle()
        var best = Double.infinity
        var ok = 0
        for _ in 0..<3 {
            ok = 0
            let start = now()
            for v in values where (try? style.parse(v)) != nil { ok += 1 }
            best = min(best, now() - start)
        }
        report("foundation-iso8601formatstyle", values.count, ok, best)
    case "repeat":
        guard args.count >= 4, let n = Int(args[2]) else { exit(64) }
        let value = lines(args[3])[0]
        let parser = DateParser(options: options)
        var ok = 0
        value.withByteView { buffer in
            for _ in 0..<n {
                if case .success = parser.parse(bytes: buffer) { ok += 1 }
            }
        }
        print("repeat values=\(n) ok=\(ok)")
    default:
        print("unknown mode \(args[1])")
        exit(64)
    }
}

main(args)
