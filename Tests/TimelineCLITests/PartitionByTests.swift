import Foundation
import Testing

/// `--partition-by day|month`: a directory in the Hive layout. Each row's partition is
/// checked against its start's date in the zone by Python's `zoneinfo`
/// (scripts/parquet-oracle.py partitions), and DuckDB's and pyarrow's Hive discovery must
/// find every row; sorted partitions concatenated are the unpartitioned output.
@Suite("convert --partition-by")
struct PartitionByTests {
    static func partitions(_ dir: String, zone: String) throws -> [String: Int] {
        let run = try BinaryRunner.python("scripts/parquet-oracle.py", ["partitions", dir, zone])
        #expect(run.succeeded)
        return try #require(JSONSerialization.jsonObject(with: run.output) as? [String: Int])
    }

    @Test(
        "each row in its day or month in the display zone, for every format",
        arguments: [
            ("parquet", "day", "Asia/Shanghai"), ("ndjson", "day", "UTC"),
            ("csv", "month", "Asia/Shanghai"), ("tsv", "day", "America/New_York"),
        ])
    func rowsInTheirPartition(format: String, unit: String, zone: String) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("lake/orders").path
        let run = try BinaryRunner.run([
            "convert", "samples/orders.csv", "--assume-zone", "Asia/Shanghai", "--zone", zone,
            "--to", format, "--partition-by", unit, "-o", out, "-q",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let counts = try Self.partitions(out, zone: zone == "UTC" ? "Etc/UTC" : zone)
        #expect(counts.values.reduce(0, +) == 12)
        // Nothing beside the destination: the staging directory was renamed into place.
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: dir.appendingPathComponent("lake").path)
                == ["orders"])
    }

    @Test("Shanghai days of samples/orders.csv, by hand")
    func shanghaiDays() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("orders").path
        let run = try BinaryRunner.run([
            "convert", "samples/orders.csv", "--assume-zone", "Asia/Shanghai", "--zone",
            "Asia/Shanghai", "--to", "parquet", "--partition-by", "day", "-o", out, "-q",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // The starts in Shanghai time, from the file: 11th 23:42 and 23:44; 12th 10:10 and
        // 21:05; 13th 09:30, 18:02, 00:20, 00:21 and 09:00; 14th 11:15 and 11:16; 15th 06:40.
        #expect(
            try Self.partitions(out, zone: "Asia/Shanghai") == [
                "day=2024-06-11": 2, "day=2024-06-12": 2, "day=2024-06-13": 5,
                "day=2024-06-14": 2, "day=2024-06-15": 1,
            ])
    }

    @Test("sorted, the partitions in order are the unpartitioned output")
    func sortedPartsConcatenate() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("p").path
        let common = ["convert", "samples/orders.csv", "--assume-zone", "Asia/Shanghai", "-q"]
        let run = try BinaryRunner.run(
            common + ["--to", "ndjson", "--partition-by", "day", "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        let whole = try BinaryRunner.run(common + ["--to", "ndjson"])
        var joined = ""
        for key in try FileManager.default.contentsOfDirectory(atPath: out).sorted() {
            let parts = try FileManager.default.contentsOfDirectory(atPath: "\(out)/\(key)")
            #expect(parts == ["part-00000.ndjson"])
            joined += try String(contentsOfFile: "\(out)/\(key)/part-00000.ndjson", encoding: .utf8)
        }
        #expect(joined == whole.stdout)
    }

    @Test(
        "refused: no directory, a format without standalone parts, a directory with files, --group",
        arguments: [
            (["--to", "ndjson", "--partition-by", "day"], "--partition-by writes a directory"),
            (["--to", "json", "--partition-by", "day", "-o", "DIR/new"], "not 'json'"),
            (["--to", "ndjson", "--partition-by", "day", "-o", "DIR"], "already holds files"),
            (
                ["--to", "ndjson", "--partition-by", "day", "--group", "day", "-o", "DIR/new"],
                "cannot be grouped"
            ),
        ])
    func refused(flags: [String], message: String) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("x".utf8).write(to: dir.appendingPathComponent("existing"))
        let run = try BinaryRunner.run(
            ["convert", "samples/orders.csv", "--assume-zone", "Asia/Shanghai"]
                + flags.map { $0.replacingOccurrences(of: "DIR", with: dir.path) })
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("new").path))
    }
}
