import Foundation
import Testing

/// The display zone when none is named: the one zone a calendar declares, else UTC — said
/// in the headers and the report — and day shifts (TZ103) as warnings only in a zone the
/// user chose.
@Suite("display zone from the data")
struct DisplayZoneTests {
    /// A calendar written in one zone by TZID (no X-WR-TIMEZONE), with events just after
    /// and just before midnight there: 00:30 and 23:45 in Berlin are 22:30Z and 21:45Z, on
    /// the day before and the same day in UTC (worked out by hand: CEST is +02:00 in June).
    static func calendar(_ zones: [String]) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
        for (i, zone) in zones.enumerated() {
            lines += [
                "BEGIN:VEVENT", "UID:e\(i)@test", "DTSTAMP:20240601T000000Z", "SUMMARY:event \(i)",
                "DTSTART;TZID=\(zone):2024061\(2 + i)T\(i % 2 == 0 ? "003000" : "234500")",
                "END:VEVENT",
            ]
        }
        return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    static func write(_ text: String, _ name: String) throws -> (URL, String) {
        let dir = try BinaryRunner.temporaryDirectory()
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    static func severities(_ json: String) throws -> [String: String] {
        let report = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        var out: [String: String] = [:]
        for f in report["findings"] as! [[String: Any]] {
            out[f["code"] as! String] = (f["severity"] as! String)
        }
        return out
    }

    @Test(
        "a calendar in one zone, near midnight: no warning, days counted and times shown in its zone, saying why"
    )
    func oneZone() throws {
        let (dir, path) = try Self.write(
            Self.calendar(["Europe/Berlin", "Europe/Berlin", "Europe/Berlin"]), "berlin.ics")
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try BinaryRunner.run(["validate", path])
        #expect(text.status == 0)
        #expect(
            text.stdout
                == "3 records, 0 rejected; 0 errors, 0 warnings, 0 notes; days counted in Europe/Berlin, the one zone the calendar's times name\n",
            "\(text.stdout)")
        let json = try BinaryRunner.run(["validate", path, "--report", "json"])
        #expect(
            json.stdout.contains(
                #""zone":"Europe/Berlin","zoneReason":"the one zone the calendar's times name""#))
        let timeline = try BinaryRunner.run(["convert", path, "--to", "text", "-q"])
        #expect(
            timeline.stdout.hasPrefix(
                "Timeline · 3 events · times in Europe/Berlin, the one zone the calendar's times name\n"
            ), "\(timeline.stdout)")
        #expect(timeline.stdout.contains("00:30") && timeline.stdout.contains("23:45"))
        // CSV has no header to say it: a note does, and its times are Berlin's.
        let csv = try BinaryRunner.run(["convert", path, "--to", "csv"])
        #expect(
            csv.stderr.contains(
                "timeline: note: times in Europe/Berlin, the one zone the calendar's times name; name another with --zone"
            ),
            "\(csv.stderr)")
        #expect(csv.stdout.contains("2024-06-12T00:30:00+02:00"), "\(csv.stdout)")
        // Named, UTC is a choice: the 00:30 events are on the day before there (a warning).
        let utc = try BinaryRunner.run([
            "validate", path, "--zone", "UTC", "--report", "json", "--fail-on", "never",
        ])
        #expect(try Self.severities(utc.stdout)["TZ103"] == "warning")
    }

    @Test(
        "a calendar in several zones falls back to UTC, says so, and a day that differs there is a note"
    )
    func severalZones() throws {
        let (dir, path) = try Self.write(
            Self.calendar(["Europe/Berlin", "America/New_York"]), "two.ics")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try BinaryRunner.run(["validate", path, "--report", "json"])
        #expect(r.status == 0)
        #expect(
            r.stdout.contains(
                #""zone":"UTC","zoneReason":"the data names several zones: America/New_York, Europe/Berlin""#
            ), "\(r.stdout)")
        // 2024-06-12 00:30 in Berlin is 2024-06-11 in UTC: a note, not a warning.
        #expect(try Self.severities(r.stdout) == ["TZ103": "info"])
        let text = try BinaryRunner.run(["validate", path])
        #expect(
            text.stdout.contains(
                "days counted in UTC (the data names several zones: America/New_York, Europe/Berlin; name one with --zone)"
            ))
        #expect(text.stdout.contains("name the zone people see with --zone"))
    }

    @Test(
        "the seeds' case still warns: UTC server times shown in a named Asia/Shanghai; without a zone, a note"
    )
    func seeds() throws {
        let csv =
            "order_id,status,time\nA1,placed,2024-06-12T16:20:00Z\nA1,paid,2024-06-13T00:21:35+08:00\n"
        let (dir, path) = try Self.write(csv, "orders.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let named = try BinaryRunner.run([
            "validate", path, "--zone", "Asia/Shanghai", "--report", "json", "--fail-on", "never",
        ])
        #expect(try Self.severities(named.stdout)["TZ103"] == "warning")
        // In UTC, the default, 00:21 +08:00 on the 13th is the 12th: only a note.
        let fallback = try BinaryRunner.run([
            "validate", path, "--report", "json", "--fail-on", "never",
        ])
        #expect(try Self.severities(fallback.stdout)["TZ103"] == "info")
        #expect(fallback.stdout.contains(#""zone":"UTC","zoneReason":"no zone named""#))
    }
}
