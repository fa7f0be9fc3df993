import Foundation
import Testing

/// Our ICS output, read by Python's `icalendar` (scripts/read-ics-with-icalendar.py), and the
/// ICS → canonical → ICS → canonical round trip.
@Suite("ICS export", .serialized)
struct ICSExportTests {
    /// The ICS corpus vendored beside the library tests (see its INDEX.md).
    static let corpus = BinaryRunner.packageRoot.appendingPathComponent(
        "Tests/TimelineKitTests/Resources/corpus/ics")

    /// Corpus files that import with no rejects and no warnings (`--assume-zone UTC`).
    static let clean = [
        "icalendar/issue_218_bad_tzid.ics", "icalendar/issue_313_globally_unique_tzid.ics",
        "icalendar/issue_836_do_not_quote_tzid.ics",
        "icalendar/issue_237_fail_to_parse_timezone_with_non_ascii_tzid.ics",
        "icalendar/issue_127_categories_with_commas.ics",
        "icalendar/issue_355_url_escaping.ics",
        "icalendar/issue_351_whitespace_in_property_and_params.ics",
        "icalendar/event_with_recurrence_exdates_on_different_lines.ics",
        "icalendar/issue_112_missing_tzinfo_on_exdate.ics",
        "icalendar/issue_1231_recurrence.ics",
        "icalendar/issue_156_RDATE_with_PERIOD_TZID_khal.ics", "icalendar/timezoned.ics",
        "icalendar/multiple_calendar_components.ics",
        "icalendar/issue_722_timezone_transition_ambiguity.ics", "ical4j/evolution.ics",
        "ical4j/bitfire1.ics", "ical4j/dst-only-vtimezone.ics", "ical4j/EXDATE-IN-UTC.ics",
        "ical4j/friday13.ics", "ical4j/calconnect10.ics",
        "ical4j/maritz.ics", "ical4j/sogo-geo-escaped-semicolon.ics", "ical4j/groupwise.ics",
        "ical4j/korganizer-lowercase.ics",
        "ical4j/test-relaxed-parsing.ics", "ical4j/apple-iphone-os-26-structured-location.ics",
        "ical4j/outlook1.txt",
        "samples/calendar.ics",
    ]

    static func path(_ file: String) -> String {
        file.hasPrefix("samples/")
            ? BinaryRunner.packageRoot.appendingPathComponent(file).path
            : corpus.appendingPathComponent(file).path
    }

    /// Our reading of an NDJSON export, in the checker's notation.
    static func ours(_ ndjson: String) throws -> [[String: String]] {
        try ndjson.split(separator: "\n").map { line in
            let e = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            func when(_ v: Any?) -> String {
                guard let t = v as? [String: Any] else { return "null" }
                return (t["instant"] as? String) ?? (t["date"] as? String) ?? "?"
            }
            return [
                "uid": e["id"] as! String, "start": when(e["start"]), "end": when(e["end"]),
                "summary": (e["title"] as? String) ?? "",
                "description": (e["detail"] as? String) ?? "null",
                "location": (e["location"] as? String) ?? "null",
                "categories": ((e["tags"] as? [String]) ?? []).joined(separator: "|"),
            ]
        }
    }

    static func peer(_ icsPath: String) throws -> [[String: String]] {
        let (data, succeeded) = try BinaryRunner.python(
            "scripts/read-ics-with-icalendar.py", [icsPath])
        #expect(succeeded, "icalendar could not read \(icsPath)")
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let e = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return [
                "uid": e["uid"] as! String, "start": (e["start"] as? String) ?? "null",
                "end": (e["end"] as? String) ?? "null",
                "summary": e["summary"] as! String,
                "description": (e["description"] as? String) ?? "null",
                "location": (e["location"] as? String) ?? "null",
                "categories": ((e["categories"] as? [String]) ?? []).joined(separator: "|"),
            ]
        }
    }

    @Test("Python icalendar reads our ICS as we read the source", arguments: clean)
    func icalendarAgrees(file: String) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Self.path(file)
        let ics = dir.appendingPathComponent("out.ics").path
        for extra in [[String](), ["--ics-utc"]] {
            let export = try BinaryRunner.run(
                [
                    "convert", source, "--from", "ics", "--assume-zone", "UTC", "--to", "ics",
                    "--sort", "input", "-o", ics, "-q",
                ] + extra)
            #expect(export.status == 0, "\(export.stderr)")
            let ours = try Self.ours(
                try BinaryRunner.run([
                    "convert", source, "--from", "ics", "--assume-zone", "UTC", "--to", "ndjson",
                    "--sort", "input", "-q",
                ]).stdout)
            #expect(try Self.peer(ics) == ours, "\(file) \(extra)")
        }
    }

    @Test("ICS → canonical → ICS → canonical keeps every field", arguments: clean)
    func roundTrip(file: String) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = Self.path(file)
        let first = try BinaryRunner.run([
            "convert", source, "--from", "ics", "--assume-zone", "UTC", "--to", "ndjson", "--sort",
            "input", "-q",
        ])
        let ics = dir.appendingPathComponent("again.ics").path
        _ = try BinaryRunner.run([
            "convert", source, "--from", "ics", "--assume-zone", "UTC", "--to", "ics", "--sort",
            "input", "-o", ics, "-q",
        ])
        let second = try BinaryRunner.run([
            "convert", ics, "--assume-zone", "UTC", "--to", "ndjson", "--sort", "input", "-q",
        ])
        func comparable(_ text: String) throws -> [NSDictionary] {
            try text.split(separator: "\n").map { line in
                var e = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
                e["source"] = nil  // a different file, by construction
                for key in ["start", "end", "recorded"] {
                    // Basis and raw text may change (floating UTC is written as Z); the time may not.
                    guard var t = e[key] as? [String: Any] else { continue }
                    t["raw"] = nil
                    t["basis"] = nil
                    if t["zone"] as? String == "UTC" { t["zone"] = nil }
                    e[key] = t
                }
                return e as NSDictionary
            }
        }
        // RFC 5545 requires DTSTAMP, so the export adds one where the source had none.
        let before = try comparable(first.stdout)
        let after = try comparable(second.stdout).enumerated().map { i, e -> NSDictionary in
            guard i < before.count, (before[i]["attributes"] as? [String: Any])?["DTSTAMP"] == nil,
                var attributes = e["attributes"] as? [String: Any]
            else { return e }
            attributes["DTSTAMP"] = nil
            let copy = e.mutableCopy() as! NSMutableDictionary
            copy["attributes"] = attributes.isEmpty ? nil : attributes
            return copy
        }
        #expect(after == before, "\(file)")
    }

    @Test("folding: 75 octets at most, never inside a UTF-8 character; CRLF throughout")
    func folding() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("long.ndjson")
        let title = String(repeating: "长标题é😀", count: 40)
        try (#"{"id":"x","start":{"date":"2024-06-12","basis":"date"},"title":"\#(title)"}"# + "\n")
            .write(
                to: input, atomically: true, encoding: .utf8)
        let r = try BinaryRunner.run(["convert", input.path, "--to", "ics", "-q"])
        let data = Data(r.stdout.utf8)
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        for line in lines {
            #expect(line.last == 0x0D)
            #expect(line.count - 1 <= 75)
            #expect(String(data: Data(line), encoding: .utf8) != nil, "a line split a character")
        }
        let peer = try Self.peer(
            {
                let p = dir.appendingPathComponent("long.ics").path
                try? data.write(to: URL(fileURLWithPath: p))
                return p
            }())
        #expect(peer.first?["summary"] == title)
    }

    @Test("one UID per VEVENT: repeated ids are refused, named, and nothing is written")
    func repeatedIDs() throws {
        let csv =
            "order,time,status\nA1,2024-06-12T08:00:00Z,placed\nA1,2024-06-13T08:00:00Z,shipped\nA2,2024-06-13T09:00:00Z,placed\n"
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("orders.ics").path
        let r = try BinaryRunner.run(
            ["convert", "-", "--from", "csv", "--map", "id=order", "--to", "ics", "-o", out],
            stdin: csv)
        #expect(r.status == 65)
        #expect(
            r.stderr.contains("'A1' (2 events)") && r.stderr.contains("--map id=COLUMN"),
            "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // With ids of their own (the order numbers as series), the same rows are written.
        let ok = try BinaryRunner.run(["convert", "-", "--from", "csv", "--to", "ics"], stdin: csv)
        #expect(
            ok.status == 0 && ok.stdout.components(separatedBy: "BEGIN:VEVENT").count == 4,
            "\(ok.stderr)")
    }
}
