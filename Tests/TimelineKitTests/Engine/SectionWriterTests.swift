import Foundation
import Testing

@testable import TimelineKit

/// A sorted conversion renders its sections on worker threads (`SectionWriter`); writing the
/// same events through `Timeline.data`, which draws every section on the calling thread,
/// must give the same bytes, section order included.
@Suite("Sections rendered in parallel")
struct SectionWriterTests {
    /// 3,000 events over 500 days, given in reverse so the sort has work to do, with
    /// amounts, details and places: sections of a few events each, many more than the
    /// renderer keeps in flight.
    static var csv: String {
        var lines = ["id,time,title,amount,detail,location"]
        for i in (0..<3_000).reversed() {
            let day = Calendar(identifier: .gregorian).date(
                byAdding: .day, value: i / 6, to: Date(timeIntervalSince1970: 1_704_067_200))!
            let stamp = ISO8601DateFormatter().string(
                from: day.addingTimeInterval(Double(i % 6) * 3_600))
            lines.append(
                "E\(i),\(stamp),Event \(i),\(i % 7 == 0 ? "" : "-\(i).50"),note \(i),Shanghai")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        "text, HTML, Markdown and grouped JSON: the same bytes as drawn one by one",
        arguments: [
            ("text", GroupingUnit.none), ("html", .none), ("markdown", .month), ("json", .day),
        ])
    func sameBytes(format: String, grouping: GroupingUnit) throws {
        let csv = Self.csv
        var read = ReadOptions()
        read.assumedZone = try ResolvedZone(named: "Asia/Shanghai")
        var write = WriteOptions()
        write.displayZone = try ResolvedZone(named: "Asia/Shanghai")
        write.now = try TimeValue.parse("2024-06-13T20:00:00+08:00").instant
        write.grouping = grouping

        var options = ConvertOptions()
        options.read = read
        options.write = write
        options.outputFormat = FileFormat.named(format)!
        options.grouping = format == "json" ? grouping : .none
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timeline-sections-\(UUID().uuidString).\(format)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try Timeline.convert(
            [.string(csv, name: "e.csv")], to: .file(path: path), options: options)
        let parallel = try Data(contentsOf: URL(fileURLWithPath: path))

        let events = try Timeline.read(.string(csv, name: "e.csv"), options: read).events
        let sorted = events.sortedForTimeline(.asc, zone: write.displayZone.rules)
        let serial: Data
        if format == "json" {
            // The grouped document: cut and written on this thread.
            let out = OutputWriter(inMemory: "serial")
            let exporter = try FileFormat.named("json")!.makeWriter(write) as! any SectionExporter
            try exporter.write(
                sections: TimelineGrouping.group(
                    sorted, unit: grouping, zone: write.displayZone.rules),
                header: write.documentHeader, zone: write.displayZone.rules, to: out)
            serial = Data(out.bytes)
        } else {
            serial = try Timeline.data(sorted, as: .named(format)!, options: write)
        }
        #expect(parallel.count > 100_000)
        #expect(parallel == serial)
    }
}
