import Foundation
import Testing

/// Files no one named (issue 50): the start found from the values, placeholders read as
/// none, zone columns holding offsets. Expected instants by hand (offsets applied to the
/// local times written).
@Suite("layout read from the values")
struct LayoutFromValuesTests {
    static func events(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
    }

    static func instant(_ event: [String: Any], _ field: String = "start") -> String? {
        (event[field] as? [String: Any])?["instant"] as? String
    }

    @Test("a start no name gives is chosen from the values, with a note that says which and why")
    func sniffedStart() throws {
        let csv =
            "Order ID,Ship Date,Order Date,Total Owed\n112-1,Not Available,2024-03-02T01:15:09Z,12.50\n112-2,2024-03-12T08:00:00Z,2024-03-10T09:59:59Z,3.00\n"
        let r = try BinaryRunner.run(
            ["convert", "-", "--from", "csv", "--to", "ndjson", "--sort", "input"], stdin: csv)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "the start time is read from 'Order Date' (2 of 2 sampled values are times; its name says when the record began); other time columns, kept as attributes: 'Ship Date'"
            ), "\(r.stderr)")
        #expect(
            Self.events(r.stdout).map { Self.instant($0) } == [
                "2024-03-02T01:15:09Z", "2024-03-10T09:59:59Z",
            ])
    }

    @Test(
        "a placeholder moment of --events is no event; a placeholder start rejects the row and says so"
    )
    func placeholders() throws {
        let csv =
            "Order ID,Order Date,Ship Date,Total\nA1,2024-06-12T08:00:00Z,Not Available,N/A\nA2,2024-06-13T08:00:00Z,2024-06-14T10:00:00Z,3.00\nA3,N/A,-,1.00\n"
        let r = try BinaryRunner.run(
            [
                "convert", "-", "--from", "csv", "--to", "ndjson", "--sort", "input", "--events",
                "Order Date=Order placed,Ship Date=Shipped",
            ],
            stdin: csv)
        #expect(r.status == 0, "\(r.stderr)")
        let events = Self.events(r.stdout)
        #expect(
            events.map { $0["title"] as? String } == ["Order placed", "Order placed", "Shipped"])
        #expect(events[0]["amount"] == nil)
        #expect(
            r.stderr.contains(
                "-:4: error: [E002] rejected: no start time: every event column is empty or a placeholder for none ('Order Date' holds 'N/A', 'Ship Date' holds '-')"
            ), "\(r.stderr)")
        // Counted by hand: 'Not Available' (A1's ship date), 'N/A' (A1's total, A3's order
        // date), '-' (A3's ship date).
        #expect(
            r.stderr.contains(
                "4 value(s) in time, amount or zone columns stand for none ('N/A' ×2, '-' ×1, 'Not Available' ×1)"
            ), "\(r.stderr)")
    }

    @Test(
        "a zone column of offsets gives each time its own offset (basis offset), named in the raw text"
    )
    func offsetColumn() throws {
        let csv =
            "date,time,gmtOffset,desc\n20240612,151522,-06:00,Arrived\n20240612,191522,+0800,Departed\n"
        let r = try BinaryRunner.run(
            [
                "convert", "-", "--from", "csv", "--to", "ndjson", "--sort", "input", "--map",
                "start=date+time", "--map", "zone=gmtOffset",
            ], stdin: csv)
        #expect(r.status == 0, "\(r.stderr)")
        let starts = Self.events(r.stdout).map { $0["start"] as? [String: Any] ?? [:] }
        // 15:15:22 at -06:00 is 21:15:22Z; 19:15:22 at +08:00 is 11:15:22Z.
        #expect(
            starts.map { $0["instant"] as? String } == [
                "2024-06-12T21:15:22Z", "2024-06-12T11:15:22Z",
            ])
        #expect(starts.map { $0["basis"] as? String } == ["offset", "offset"])
        #expect(starts.first?["raw"] as? String == "20240612 151522 (gmtOffset -06:00)")
    }
}
