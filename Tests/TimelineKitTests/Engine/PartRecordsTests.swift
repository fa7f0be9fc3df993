import Foundation
import Testing

@testable import TimelineKit

/// Sorted Parquet is built from sorted records (`PartRecords`): spilled in many runs and
/// merged, it must be the same file as sorted in memory. (That the rows are in timeline order
/// is checked value by value against the sorted NDJSON by `ParquetOutputTests` and
/// `scripts/check-parquet`.)
@Suite("Sorted parts from records")
struct PartRecordsTests {
    static func convert(_ csv: URL, spillTo directory: URL?, sort: TimelineKit.SortOrder)
        throws -> Data
    {
        var options = ConvertOptions()
        options.read.format = .named("csv")
        options.read.dates.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
        options.outputFormat = .named("parquet")!
        options.sort = sort
        options.sortDirectory = directory?.path
        options.sortMemory = 64 << 10  // a few dozen events a run
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parts-\(UUID().uuidString).parquet")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try Timeline.convert([.file(csv)], to: .file(out), options: options)
        return try Data(contentsOf: out)
    }

    @Test(
        "many runs give the same Parquet file as the in-memory sort",
        arguments: [
            TimelineKit.SortOrder.asc, .desc,
        ])
    func spilledEqualsInMemory(order: TimelineKit.SortOrder) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "part-runs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let csv = dir.appendingPathComponent("orders.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        try ExternalSorterTests.csv(rows: 3_000, seed: 5).write(
            to: csv, atomically: false, encoding: .utf8)
        let spilled = try Self.convert(csv, spillTo: dir, sort: order)
        let inMemory = try Self.convert(csv, spillTo: nil, sort: order)
        #expect(spilled == inMemory)
        #expect(spilled.count > 10_000)
        #expect(spilled.prefix(4) == Data("PAR1".utf8))
    }
}
