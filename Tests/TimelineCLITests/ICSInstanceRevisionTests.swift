import Foundation
import Testing

/// `--expand` with deleted and superseded instances (Fixtures/ics-instances/README.md):
/// occurrences worked out by hand, and compared with Python's `recurring_ical_events` where
/// the two agree.
@Suite("ICS: deleted and superseded instances")
struct ICSInstanceRevisionTests {
    static let dir = "Tests/TimelineCLITests/Fixtures/ics-instances/"

    /// Mondays (and Wednesdays) of July 2024 at a time of day UTC.
    static func july(_ days: [Int], at time: String) -> [String] {
        days.map { "2024-07-\($0 < 10 ? "0" : "")\($0)T\(time)Z" }
    }

    /// By hand: the file, the instants of its occurrences, whether the peer agrees, the
    /// diagnostic that must be there.
    static let cases: [(String, [String], Bool, String)] = [
        (
            "a-exdate-one-master.ics", july([1, 8, 22], at: "07:00:00"), true,
            "note: [ics-revision] modified instance 20240715T090000 of series 'weekly-1' (line 13) dropped: the series' EXDATE deletes that instance"
        ),
        (
            "b-revision-exdate-newer-first.ics", july([1, 8, 22, 29], at: "07:00:00"), true,
            "dropped: the series' EXDATE deletes that instance"
        ),
        (
            "b-revision-exdate-newer-last.ics", july([1, 8, 22, 29], at: "07:00:00"), true,
            "dropped: the series' EXDATE deletes that instance"
        ),
        (
            "c-override-higher-sequence.ics",
            (july([1, 8], at: "07:00:00") + july([15], at: "09:00:00")
                + july([22, 29], at: "07:00:00")),
            false, "kept"
        ),
        (
            "d-until-shortened.ics", july([1, 8, 15], at: "07:00:00"), false,
            "note: [ics-revision] modified instance 20240729T090000 of series 'weekly-2' (line 22) dropped: the current series (a higher SEQUENCE) no longer has that instance"
        ),
        (
            "d-until-shortened-reversed.ics", july([1, 8, 15], at: "07:00:00"), false,
            "(line 4) dropped: the current series (a higher SEQUENCE) no longer has that instance"
        ),
        (
            "f-override-newer-than-shortened.ics",
            july([1, 8, 15], at: "07:00:00") + july([29], at: "09:00:00"), true, "kept"
        ),
        (
            "g-two-rrules.ics", july([1, 3, 8, 10, 15, 17], at: "07:00:00"), true,
            "g-two-rrules.ics:10: warning: [ics-recurrence] series 'two-rules' has 2 RRULEs (RFC 5545 allows one): expanded as the union of their occurrences, DTSTART counted once, by the first"
        ),
        (
            "h-count-minus-one.ics", july(Array(1...7), at: "07:00:00"), false,
            "h-count-minus-one.ics:9: warning: [ics-recurrence] series 'confluence-1': RRULE 'FREQ=DAILY;COUNT=-1;UNTIL=20240707T070000Z': COUNT=-1 beside UNTIL is ignored: the series runs until UNTIL"
        ),
        (
            "i-until-date-on-utc.ics", july([1, 2, 3, 4], at: "22:00:00"), false,
            "i-until-date-on-utc.ics:9: warning: [ics-recurrence] series 'until-date': RRULE 'FREQ=DAILY;UNTIL=20240704': UNTIL=2024-07-04 is a DATE but DTSTART is a DATE-TIME"
        ),
    ]

    @Test(
        "occurrences by hand; the note or warning that names the series and the line",
        arguments: cases)
    func occurrences(file: String, expected: [String], peerAgrees: Bool, diagnostic: String) throws
    {
        let r = try BinaryRunner.run([
            "convert", Self.dir + file, "--expand", "2024-06-01..2024-12-31", "--to", "ndjson",
            "-q",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let starts = r.stdout.split(separator: "\n").map { line -> String in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return ((object?["start"] as? [String: Any])?["instant"] as? String) ?? "?"
        }
        #expect(starts == expected, "\(file)")
        if diagnostic == "kept" {
            #expect(!r.stderr.contains("modified instance"), "\(r.stderr)")
        } else {
            #expect(r.stderr.contains(diagnostic), "\(r.stderr)")
        }
        let (data, readable) = try BinaryRunner.python(
            "scripts/expand-ics-with-recurring-ical-events.py",
            [Self.dir + file, "2024-06-01", "2024-12-31"])
        let peer = String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            String($0.prefix { $0 != "\t" })
        }
        if peerAgrees {
            #expect(readable && peer == expected, "recurring_ical_events: \(peer)")
        } else {
            #expect(
                !readable || peer != expected, "the peer now agrees on \(file): update the README")
        }
    }

    @Test("the vendored corpora expand as before: no instance dropped there")
    func corporaUnchanged() throws {
        let corpus = "Tests/TimelineKitTests/Resources/corpus"
        let files = try FileManager.default.subpathsOfDirectory(
            atPath: BinaryRunner.packageRoot.appendingPathComponent(corpus).path
        ).filter { $0.hasSuffix(".ics") }
        #expect(files.count > 30)
        for file in files {
            let r = try BinaryRunner.run([
                "convert", "\(corpus)/\(file)", "--expand", "1990-01-01..2030-12-31", "--to",
                "ndjson",
                "-q", "--max-total-occurrences", "20000",
            ])
            #expect(!r.stderr.contains("modified instance"), "\(file): \(r.stderr)")
        }
    }
}
