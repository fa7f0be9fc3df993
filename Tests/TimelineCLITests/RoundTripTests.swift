import Foundation
import Testing

/// Every sample written as CSV, TSV, NDJSON and JSON and read back gives the same events
/// (issue 52), and the same timeline: its days, in the zone the first run showed them in,
/// and its day totals. CSV and TSV keep each time's instant, wall time, offset and the
/// start's zone, not how the source wrote it (`raw`, `basis`); NDJSON and JSON keep all.
/// The expected side is the first conversion itself, read as canonical NDJSON.
@Suite("round trip: every sample through every readable data format")
struct RoundTripTests {
    static let samples: [(file: String, flags: [String])] = [
        ("samples/orders.csv", ["--zone", "Asia/Shanghai"]),
        ("samples/events.ndjson", ["--zone", "Asia/Shanghai"]),
        ("samples/courier-trace.json", ["--assume-zone", "Asia/Shanghai"]),
        (
            "samples/wallet-statement.csv",
            ["--assume-zone", "Asia/Shanghai", "--map", "direction=收/支"]
        ),
        ("samples/calendar.ics", ["--zone", "Asia/Shanghai"]),
        ("samples/presets/wechat-pay.csv", ["--assume-zone", "Asia/Shanghai"]),
        ("samples/presets/wechat-pay.xlsx", ["--assume-zone", "Asia/Shanghai"]),
        ("samples/presets/alipay.csv", ["--assume-zone", "Asia/Shanghai"]),
        ("samples/presets/paypal.csv", ["--zone", "America/Los_Angeles"]),
        ("samples/presets/stripe.csv", ["--zone", "UTC"]),
        ("samples/presets/bank-statement.csv", ["--assume-zone", "Europe/London"]),
        ("samples/presets/shopify-orders.csv", ["--zone", "America/New_York"]),
        ("samples/presets/aftership.json", ["--zone", "America/New_York"]),
        ("samples/presets/17track.json", ["--zone", "Asia/Shanghai"]),
        ("samples/presets/kuaidi100.json", ["--assume-zone", "Asia/Shanghai"]),
    ]

    /// The events of a canonical NDJSON text, without `source` (the file differs) and, for
    /// CSV and TSV, without the times' `raw` and `basis`.
    static func events(_ ndjson: String, keepingHow: Bool) throws -> [NSDictionary] {
        try ndjson.split(separator: "\n").map { line in
            var e = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            e["source"] = nil
            if !keepingHow {
                for key in ["start", "end", "recorded"] {
                    guard var time = e[key] as? [String: Any] else { continue }
                    time["raw"] = nil
                    time["basis"] = nil
                    e[key] = time
                }
            }
            return e as NSDictionary
        }
    }

    @Test("events and timeline survive CSV, TSV, NDJSON and JSON", arguments: samples.indices)
    func roundTrip(_ i: Int) throws {
        let s = Self.samples[i]
        let original = try BinaryRunner.run(
            ["convert", s.file, "--to", "ndjson", "--sort", "input", "-q"] + s.flags)
        #expect(original.status == 0, "\(s.file): \(original.stderr)")
        let text = try BinaryRunner.run(["convert", s.file, "--to", "text", "-q"] + s.flags)
        // Reading back, the display zone is named only where the first run named it.
        let display = s.flags.first == "--zone" ? Array(s.flags.prefix(2)) : []
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in ["csv", "tsv", "ndjson", "json"] {
            let file = dir.appendingPathComponent("back.\(format)").path
            let written = try BinaryRunner.run(
                ["convert", s.file, "--to", format, "--sort", "input", "-q", "-o", file] + s.flags)
            #expect(written.status == 0, "\(s.file) → \(format): \(written.stderr)")
            let back = try BinaryRunner.run(
                ["convert", file, "--to", "ndjson", "--sort", "input", "-q"] + display)
            #expect(
                back.status == 0 && !back.stderr.contains("warning"),
                "\(s.file) → \(format): \(back.stderr)")
            let keeps = format == "ndjson" || format == "json"
            #expect(
                try Self.events(back.stdout, keepingHow: keeps)
                    == Self.events(original.stdout, keepingHow: keeps), "\(s.file) → \(format)")
            // The same days in the same zone, the same totals: the text timeline but its
            // first line (which says why the zone is the display zone).
            let backText = try BinaryRunner.run(["convert", file, "--to", "text", "-q"] + display)
            #expect(
                backText.stdout.split(separator: "\n").dropFirst()
                    == text.stdout.split(separator: "\n").dropFirst(), "\(s.file) → \(format)")
        }
    }
}
