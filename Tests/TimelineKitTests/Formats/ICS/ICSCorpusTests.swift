import Foundation
import Testing

@testable import TimelineKit

/// Every file of the vendored ICS corpus (`Resources/corpus/ics/`, see its INDEX.md) imports without a crash (floating times with
/// `--assume-zone UTC`). Expected event counts and first starts are the INDEX's "observed"
/// column (Python icalendar 7.3.2), except where noted as a deliberate difference.
struct ICSCorpusCase: CustomTestStringConvertible, Sendable {
    var path: String
    var events: Int
    var firstStart: String?
    var rejected: Int = 0
    var warnings: Int = 0
    var note = ""
    var testDescription: String { path }
}

@Suite("ICS corpus")
struct ICSCorpusTests {
    static let cases: [ICSCorpusCase] = [
        .init(path: "icalendar/bom_calendar.ics", events: 0, firstStart: nil),
        .init(
            path: "icalendar/issue_218_bad_tzid.ics", events: 1, firstStart: "2017-02-28T12:00:00Z"),
        .init(
            path: "icalendar/issue_722_missing_timezones.ics", events: 2,
            firstStart: "2014-08-29T12:00:00Z", rejected: 2,
            note:
                "peer counts 3 VEVENTs; two have no DTSTART (rejected), and the VTODO counts by its DUE"
        ),
        .init(
            path: "icalendar/issue_722_missing_VTIMEZONE_custom.ics", events: 0, firstStart: nil,
            rejected: 1,
            note:
                "deliberate: TZID=CUSTOM_tzid with no VTIMEZONE is rejected (TZ110); the peer floats it silently"
        ),
        .init(
            path: "icalendar/issue_313_globally_unique_tzid.ics", events: 3,
            firstStart: "2020-04-26T12:00:00Z"),
        .init(
            path: "icalendar/issue_836_do_not_quote_tzid.ics", events: 1,
            firstStart: "2024-10-28T21:00:00Z"),
        .init(
            path: "icalendar/issue_237_fail_to_parse_timezone_with_non_ascii_tzid.ics", events: 1,
            firstStart: "2017-05-11T16:30:00Z"),
        .init(
            path: "icalendar/issue_127_categories_with_commas.ics", events: 1,
            firstStart: "2014-02-04T14:00:00Z"),
        .init(
            path: "icalendar/issue_355_url_escaping.ics", events: 1,
            firstStart: "2022-08-22T10:00:00Z"),
        .init(
            path: "icalendar/issue_351_whitespace_in_property_and_params.ics", events: 1,
            firstStart: "2026-03-19T09:00:00Z"),
        .init(
            path: "icalendar/issue_104_broken_calendar.ics", events: 1,
            firstStart: "2014-04-01T00:00:00Z", warnings: 1,
            note:
                "deliberate: the peer's strict Calendar raises on the stray line; here it is a warning and the event survives"
        ),
        .init(
            path: "icalendar/issue_104_mark_events_broken.ics", events: 1,
            firstStart: "2014-04-01T00:00:00Z", warnings: 1),
        .init(
            path: "icalendar/issue_168_input.ics", events: 1, firstStart: "2015-09-05T09:00:00Z",
            warnings: 1),
        .init(
            path: "icalendar/broken_dtstart.ics", events: 0, firstStart: nil, rejected: 1,
            note: "DTSTART:INVALID-DATE is rejected with its reason"),
        .init(
            path: "icalendar/fuzz_testcase_vtimezone_lone_cr.ics", events: 0, firstStart: nil,
            warnings: 2),
        .init(
            path: "icalendar/event_with_recurrence_exdates_on_different_lines.ics", events: 1,
            firstStart: "2012-03-27T08:00:00Z"),
        .init(
            path: "icalendar/issue_112_missing_tzinfo_on_exdate.ics", events: 1,
            firstStart: "2013-09-07T16:00:00Z"),
        .init(
            path: "icalendar/issue_1231_recurrence.ics", events: 1,
            firstStart: "2025-04-28T16:05:00Z"),
        .init(
            path: "icalendar/issue_156_RDATE_with_PERIOD_TZID_khal.ics", events: 1,
            firstStart: "2018-03-27T13:00:00Z"),
        .init(path: "icalendar/timezoned.ics", events: 1, firstStart: "2012-02-13T09:00:00Z"),
        .init(
            path: "icalendar/multiple_calendar_components.ics", events: 3, firstStart: "2003-12-25"),
        .init(
            path: "icalendar/event_with_escaped_characters.ics", events: 0, firstStart: nil,
            rejected: 1, note: "no DTSTART"),
        .init(
            path: "icalendar/issue_722_timezone_transition_ambiguity.ics", events: 4,
            firstStart: "2024-03-02T20:00:00Z", warnings: 1,
            note:
                "the TZ105 warning is the point of the file: 07:00:01 on 5 May occurs twice in MyTimezone; the earlier offset (+12, 'winter') is used"
        ),
        .init(path: "ical4j/evolution.ics", events: 1, firstStart: "2008-06-24T18:00:00Z"),
        .init(
            path: "ical4j/blankTzid.ics", events: 1, firstStart: "2015-08-26T09:00:00Z",
            note:
                "the peer fails (mandatory TZID); an empty TZID is read as floating, here in the assumed UTC"
        ),
        .init(path: "ical4j/bitfire1.ics", events: 1, firstStart: "2025-09-17T10:20:00Z"),
        .init(path: "ical4j/dst-only-vtimezone.ics", events: 1, firstStart: "2018-04-03T07:00:00Z"),
        .init(path: "ical4j/EXDATE-IN-UTC.ics", events: 1, firstStart: "2007-05-08T10:15:00Z"),
        .init(path: "ical4j/friday13.ics", events: 1, firstStart: "1997-09-02T13:00:00Z"),
        .init(path: "ical4j/calconnect10.ics", events: 1, firstStart: "2006-08-31"),
        .init(
            path: "ical4j/mansour.ics", events: 0, firstStart: nil, rejected: 1, note: "no DTSTART"),
        .init(
            path: "ical4j/categories.ics", events: 0, firstStart: nil, rejected: 1,
            note: "no DTSTART"),
        .init(path: "ical4j/maritz.ics", events: 1, firstStart: "2025-07-01"),
        .init(
            path: "ical4j/bhav23-2.ics", events: 1, firstStart: "2012-07-09T16:00:00Z", warnings: 1),
        .init(
            path: "ical4j/sogo-geo-escaped-semicolon.ics", events: 1,
            firstStart: "2022-10-12T17:00:00Z"),
        .init(path: "ical4j/groupwise.ics", events: 1, firstStart: "2008-12-17T07:30:00Z"),
        .init(path: "ical4j/korganizer-lowercase.ics", events: 1, firstStart: "2005-01-16"),
        .init(
            path: "ical4j/test-relaxed-parsing.ics", events: 1, firstStart: "2016-05-18T15:30:00Z"),
        .init(
            path: "ical4j/apple-iphone-os-26-structured-location.ics", events: 1,
            firstStart: "2026-05-22T08:30:00Z"),
        .init(path: "ical4j/outlook1.txt", events: 1, firstStart: "2014-02-21T21:30:00Z"),
    ]

    static let corpus = TestResources.url("corpus/ics")

    static func importFile(_ path: String) throws -> (
        events: [Event], rejects: [RejectedRecord], warnings: [Diagnostic]
    ) {
        let data = try Data(contentsOf: corpus.appendingPathComponent(path))
        var options = ReadOptions()
        options.dates.assumedZone = .utc
        var events: [Event] = []
        var rejects: [RejectedRecord] = []
        var warnings: [Diagnostic] = []
        let context = ImportContext(
            options: options, format: "ics", dateParser: DateParser(options: options.dates),
            onEvent: { events.append($0) }, onReject: { rejects.append($0) },
            onDiagnostic: { if $0.severity != .info { warnings.append($0) } })
        try ICSImporter().read(
            from: InputReader(name: path, bytes: [UInt8](data), chunkSize: 333), context: context)
        return (events, rejects, warnings)
    }

    static func utc(_ v: TimeValue) -> String {
        if let d = v.date { return d.isoString }
        return v.instant!.isoString(fractionDigits: 0)
    }

    @Test("all 40 corpus files are covered")
    func coverage() throws {
        let files = try ["icalendar", "ical4j"].flatMap { dir in
            try FileManager.default.contentsOfDirectory(
                atPath: Self.corpus.appendingPathComponent(dir).path
            ).map { "\(dir)/\($0)" }
        }
        #expect(Set(files) == Set(Self.cases.map(\.path)))
        #expect(files.count == 40)
    }

    @Test("event counts, first starts, rejects and warnings", arguments: cases)
    func corpusFile(_ c: ICSCorpusCase) throws {
        let run = try Self.importFile(c.path)
        #expect(run.events.count == c.events, "\(c.note)")
        #expect(run.events.first.map { Self.utc($0.start) } == c.firstStart)
        #expect(run.rejects.count == c.rejected, "\(run.rejects.map(\.reason))")
        #expect(run.warnings.count == c.warnings, "\(run.warnings.map(\.message))")
    }

    @Test("what the upstream suites assert about values")
    func upstreamAssertions() throws {
        // issue_127: exactly three categories, commas kept inside.
        #expect(
            try Self.importFile("icalendar/issue_127_categories_with_commas.ics").events[0].tags
                == ["Meeting, John", "Work, Sarah", "Project"])
        // issue_355: a URL in DESCRIPTION keeps its percent escapes.
        let description =
            try Self.importFile("icalendar/issue_355_url_escaping.ics").events[0].detail ?? ""
        #expect(description.contains("%7B%22") && !description.contains("\\"))
        // issue_313: offsets on 2020-04-26 are +2 h, -4 h and -3 h.
        #expect(
            try Self.importFile("icalendar/issue_313_globally_unique_tzid.ics").events.map {
                $0.start.offset!.seconds
            } == [7200, -14_400, -10_800])
        // issue_722 ambiguity: 07:00:01 on the transition day is winter (+12); events carry X-TZNAME.
        let ambiguity = try Self.importFile("icalendar/issue_722_timezone_transition_ambiguity.ics")
            .events
        for e in ambiguity {
            let expected = e.attributes["X-TZNAME"] == "winter" ? 12 * 3600 : 10 * 3600
            #expect(e.start.offset?.seconds == expected, "\(e.attributes)")
        }
        // mansour (via its LOCATION property): rejected for its missing DTSTART, so check the text decoding directly.
        #expect(
            ICSText.unescape(#"At "The Terrace" Complex > Melbourne "\\\,"#)
                == #"At "The Terrace" Complex > Melbourne "\,"#)
        // issue_156: a quoted Windows name maps to America/Chicago.
        #expect(
            try Self.importFile("icalendar/issue_156_RDATE_with_PERIOD_TZID_khal.ics").events[0]
                .start.zone == "America/Chicago")
        // timezoned: X-WR-TIMEZONE and the VTIMEZONE agree: 10:00 Vienna is 09:00Z in February.
        #expect(try Self.importFile("icalendar/timezoned.ics").events[0].start.local?.hour == 10)
    }

    @Test(
        "TEXT escaping: special characters escaped, every line break (LF, CRLF, CR) one \\n, round trip"
    )
    func textEscaping() {
        // Expected by hand from RFC 5545 §3.3.11.
        #expect(ICSText.escape("plain text, 中文") == #"plain text\, 中文"#)
        #expect(ICSText.escape("a;b\\c") == #"a\;b\\c"#)
        #expect(ICSText.escape("one\ntwo\r\nthree\rfour") == #"one\ntwo\nthree\nfour"#)
        #expect(ICSText.escape("no specials") == "no specials")
        for text in ["a,b;c\\d\ne", "🚚 已揽件, 深圳", "\\n is not a newline"] {
            #expect(ICSText.unescape(ICSText.escape(text)) == text)
        }
        // Unescaping by hand (RFC 5545 §3.3.11; an unknown escape and a final backslash are
        // kept as written), including escapes at the very start and end and next to UTF-8.
        let cases: [(String, String)] = [
            (#"\n"#, "\n"), (#"a\Nb"#, "a\nb"), (#"\\"#, "\\"), (#"\;\,\:"#, ";,:"),
            (#"\x"#, #"\x"#), (#"end\"#, #"end\"#),
            (#"中\,文\n"#, "中,文\n"), (#"\\\\"#, #"\\"#), ("no escapes", "no escapes"), ("", ""),
        ]
        for (escaped, expected) in cases {
            #expect(ICSText.unescape(escaped) == expected, "\(escaped)")
        }
        // CATEGORIES lists, split at unescaped commas (by hand; the second line goes through
        // the non-ASCII path, the first through the byte path).
        #expect(ICSText.splitList(#"Work,Team\, A,,B\\,C\"#) == ["Work", "Team, A", "B\\", "C\\"])
        #expect(ICSText.splitList(#"工作,团队\, A,,乙\\,丙"#) == ["工作", "团队, A", "乙\\", "丙"])
    }

    @Test("a blank TZID in a file never becomes a zone name")
    func blankTZID() throws {
        _ = try Self.importFile("ical4j/blankTzid.ics")
        #expect(throws: ZoneResolutionError.self) { try ZoneResolver().resolve("") }
        #expect(ZoneResolver.ianaRules("") == nil)
    }

    @Test("malformed input gives diagnostics with physical lines, never a crash")
    func badInput() throws {
        let text =
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240612T080000Z\r\nJUNK\r\nSUMMARY:one\r\n \r\n  two\r\nEND:VTODO\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTART;TZID=Nowhere/Land:20240612T080000\r\nEND:VEVENT\r\n"
        var warnings: [String] = []
        var events: [Event] = []
        var rejects: [RejectedRecord] = []
        let context = ImportContext(
            options: ReadOptions(), format: "ics", dateParser: DateParser(),
            onEvent: { events.append($0) }, onReject: { rejects.append($0) },
            onDiagnostic: { warnings.append("\($0.location!.line!): \($0.message)") })
        try ICSImporter().read(
            from: InputReader(name: "bad.ics", bytes: Array(text.utf8)), context: context)
        #expect(
            warnings == [
                "5: content line 'JUNK' has no ':' between name and value",
                "9: END:VTODO without a matching BEGIN:VTODO",
                "10: BEGIN:VEVENT inside VEVENT from line 2, which has no END; that one ends here",
                "13: BEGIN:VCALENDAR from line 1 has no END before the end of the file",
            ])
        #expect(events.map(\.title) == ["one two"])
        #expect(
            rejects.map(\.reason) == [
                "line 12: unknown TZID 'Nowhere/Land': not an IANA, legacy, Windows or vendor-prefixed zone, and the file has no VTIMEZONE for it"
            ])
    }
}
