import Testing

@testable import TimelineKit

/// Expected lists are the RFC 5545 §3.8.5.3 examples (bounded by COUNT where the RFC says
/// "forever"), each checked against python-dateutil 2.9's `rrulestr`. Where DTSTART does not
/// match its rule, dateutil leaves it out and the RFC keeps it as the first occurrence; we
/// follow the RFC, and those cases say so.
@Suite("Recurrence rules: parsing and expansion")
struct RecurrenceExpanderTests {
    static func local(_ text: String) -> LocalDateTime {
        let d = CivilDate(
            year: Int(text.prefix(4))!, month: Int(text.dropFirst(4).prefix(2))!,
            day: Int(text.dropFirst(6).prefix(2))!)!
        let t = text.dropFirst(9)
        return LocalDateTime(
            date: d, hour: Int(t.prefix(2))!, minute: Int(t.dropFirst(2).prefix(2))!,
            second: Int(t.dropFirst(4).prefix(2))!)!
    }

    static let newYork = ZoneResolver.ianaRules("America/New_York")!

    static func expand(
        _ start: String, _ rule: String, through limit: String = "29991231T000000",
        max: Int = 10_000
    ) throws -> [String] {
        let parsed = try RecurrenceRule.parse(rule).get()
        let expander = RecurrenceExpander(rule: parsed, start: local(start)) {
            newYork.instantReadingGapsForward($0)
        }
        return expander.occurrences(through: local(limit), maxOccurrences: max).occurrences.map {
            t in
            t.isoString(fractionDigits: 0).replacingOccurrences(of: "-", with: "")
                .replacingOccurrences(of: ":", with: "")
        }
    }

    static func days(_ list: String, at time: String = "T090000") -> [String] {
        list.split(separator: " ").map { $0 + time }
    }

    @Test(
        "RFC 5545 examples whose DTSTART matches the rule",
        arguments: [
            (
                "19970902T090000", "FREQ=DAILY;COUNT=10",
                "19970902 19970903 19970904 19970905 19970906 19970907 19970908 19970909 19970910 19970911"
            ),
            (
                "19970902T090000", "FREQ=DAILY;INTERVAL=10;COUNT=5",
                "19970902 19970912 19970922 19971002 19971012"
            ),
            (
                "19970905T090000", "FREQ=MONTHLY;COUNT=10;BYDAY=1FR",
                "19970905 19971003 19971107 19971205 19980102 19980206 19980306 19980403 19980501 19980605"
            ),
            (
                "19970907T090000", "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU",
                "19970907 19970928 19971102 19971130 19980104 19980125 19980301 19980329 19980503 19980531"
            ),
            (
                "19970922T090000", "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO",
                "19970922 19971020 19971117 19971222 19980119 19980216"
            ),
            (
                "19970928T090000", "FREQ=MONTHLY;BYMONTHDAY=-3;COUNT=6",
                "19970928 19971029 19971128 19971229 19980129 19980226"
            ),
            ("19970519T090000", "FREQ=YEARLY;BYDAY=20MO;COUNT=3", "19970519 19980518 19990517"),
            (
                "19970512T090000", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO;COUNT=3",
                "19970512 19980511 19990517"
            ),
            (
                "19970313T090000", "FREQ=YEARLY;BYMONTH=3;BYDAY=TH;COUNT=11",
                "19970313 19970320 19970327 19980305 19980312 19980319 19980326 19990304 19990311 19990318 19990325"
            ),
            (
                "19970913T090000", "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13;COUNT=10",
                "19970913 19971011 19971108 19971213 19980110 19980207 19980307 19980411 19980509 19980613"
            ),
            (
                "19961105T090000",
                "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8;COUNT=3",
                "19961105 20001107 20041102"
            ),
            (
                "19970904T090000", "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3",
                "19970904 19971007 19971106"
            ),
            (
                "19970929T090000", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2;COUNT=7",
                "19970929 19971030 19971127 19971230 19980129 19980226 19980330"
            ),
            (
                "19970805T090000", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO",
                "19970805 19970810 19970819 19970824"
            ),
            (
                "19970805T090000", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU",
                "19970805 19970817 19970819 19970831"
            ),
            (
                "20070115T090000", "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5",
                "20070115 20070130 20070215 20070315 20070330"
            ),
            (
                "19970101T090000", "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200",
                "19970101 19970410 19970719 20000101 20000409 20000718 20030101 20030410 20030719 20060101"
            ),
            (
                "19970610T090000", "FREQ=YEARLY;COUNT=10;BYMONTH=6,7",
                "19970610 19970710 19980610 19980710 19990610 19990710 20000610 20000710 20010610 20010710"
            ),
            ("20000229T090000", "FREQ=YEARLY;COUNT=3", "20000229 20040229 20080229"),
        ])
    func rfcExamples(start: String, rule: String, expected: String) throws {
        #expect(try Self.expand(start, rule) == Self.days(expected))
    }

    @Test("a DTSTART the rule would not produce is still the first occurrence (RFC), and counts")
    func unsyncedStart() throws {
        // RFC: every other week on MO, WE, FR until 24 Dec 1997 from Tuesday 2 Sep — the
        // RFC's list begins with 2 Sep; dateutil's does not.
        let weekly = try Self.expand(
            "19970902T090000",
            "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR")
        #expect(
            weekly
                == Self.days(
                    "19970902 19970903 19970905 19970915 19970917 19970919 19970929 19971001 19971003 19971013 19971015 19971017 19971027 19971029 19971031 19971110 19971112 19971114 19971124 19971126 19971128 19971208 19971210 19971212 19971222"
                ))
        // Friday the 13th (the RFC removes the unsynced start with EXDATE; COUNT includes it).
        let friday13 = try Self.expand(
            "19970902T090000", "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13;COUNT=5")
        #expect(friday13 == Self.days("19970902 19980213 19980313 19981113 19990813"))
        // Week 1 may begin in December; week −1 of a year may end in January.
        #expect(
            try Self.expand("19981228T090000", "FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO,SU;COUNT=7")
                == Self.days("19981228 19990104 19990110 20000103 20000109 20010101 20010107"))
        #expect(
            try Self.expand("20091228T090000", "FREQ=YEARLY;BYWEEKNO=-1;BYDAY=TH;COUNT=5")
                == Self.days("20091228 20091231 20101230 20111229 20121227"))
    }

    @Test("not forcing the start: a second RRULE counts only what it produces itself")
    func secondRuleStart() throws {
        // Monday 1 July 2024; Wednesdays, three of them: 3, 10, 17 July (by hand).
        let rule = try RecurrenceRule.parse("FREQ=WEEKLY;BYDAY=WE;COUNT=3").get()
        let expander = RecurrenceExpander(rule: rule, start: Self.local("20240701T090000")) {
            Self.newYork.instantReadingGapsForward($0)
        }
        let limit = Self.local("20241231T000000")
        let own = expander.occurrences(through: limit, maxOccurrences: 100, forcingStart: false)
        #expect(
            own.occurrences
                == ["20240703T090000", "20240710T090000", "20240717T090000"].map(Self.local))
        let forced = expander.occurrences(through: limit, maxOccurrences: 100)
        #expect(
            forced.occurrences
                == ["20240701T090000", "20240703T090000", "20240710T090000"].map(Self.local))
        // A start the rule produces is counted either way.
        let mondays = try RecurrenceRule.parse("FREQ=WEEKLY;BYDAY=MO;COUNT=2").get()
        let fromMonday = RecurrenceExpander(rule: mondays, start: Self.local("20240701T090000")) {
            Self.newYork.instantReadingGapsForward($0)
        }
        #expect(
            fromMonday.occurrences(through: limit, maxOccurrences: 100, forcingStart: false)
                .occurrences
                == ["20240701T090000", "20240708T090000"].map(Self.local))
    }

    @Test("COUNT=-1 beside an UNTIL is ignored, with a reading to warn about; alone it is refused")
    func countMinusOne() throws {
        let rule = try RecurrenceRule.parse("FREQ=DAILY;COUNT=-1;UNTIL=20240707T070000Z").get()
        #expect(rule.count == nil && rule.until != nil)
        #expect(rule.readings == ["COUNT=-1 beside UNTIL is ignored: the series runs until UNTIL"])
        #expect((try? RecurrenceRule.parse("FREQ=DAILY;COUNT=0").get()) == nil)
        #expect(
            (try? RecurrenceRule.parse("FREQ=DAILY;COUNT=3;UNTIL=20240707T070000Z").get()) == nil)
    }

    @Test("sub-daily frequencies step in wall-clock time and filter by BYHOUR")
    func subDaily() throws {
        #expect(
            try Self.expand("19970902T090000", "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000") == [
                "19970902T090000", "19970902T120000", "19970902T150000",
            ])
        #expect(
            try Self.expand("19970902T090000", "FREQ=MINUTELY;INTERVAL=15;COUNT=6")
                == [
                    "19970902T090000", "19970902T091500", "19970902T093000", "19970902T094500",
                    "19970902T100000", "19970902T101500",
                ])
        // RFC: the same set two ways — every 20 minutes from 9:00 to 16:40 each day.
        let minutely = try Self.expand(
            "19970902T090000", "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16",
            through: "19970903T235959")
        let daily = try Self.expand(
            "19970902T090000", "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40",
            through: "19970903T235959")
        #expect(minutely.count == 48)
        #expect(minutely == daily)
        #expect(minutely[23] == "19970902T164000" && minutely[24] == "19970903T090000")
    }

    @Test("a UTC UNTIL is compared as an instant; a DATE UNTIL includes its whole day")
    func untilForms() throws {
        // Every day in January for three years (RFC): 31 × 3 = 93, last on 31 Jan 2000.
        let january = try Self.expand(
            "19980101T090000",
            "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA")
        #expect(january.count == 93)
        #expect(january.last == "20000131T090000")
        // 14:00Z is 09:00 EST: an UNTIL one second earlier drops the last day.
        #expect(
            try Self.expand(
                "19980101T090000",
                "FREQ=YEARLY;UNTIL=20000131T135959Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA"
            ).count == 92)
        #expect(
            try Self.expand("19970902T090000", "FREQ=DAILY;UNTIL=19970905").last
                == "19970905T090000")
    }

    @Test("the expansion window and the occurrence cap stop a rule without an end")
    func limits() throws {
        let rule = try RecurrenceRule.parse("FREQ=DAILY").get()
        let expander = RecurrenceExpander(rule: rule, start: Self.local("20240101T090000")) {
            Instant(local: $0, offset: .utc)
        }
        let capped = expander.occurrences(
            through: Self.local("20341231T000000"), maxOccurrences: 100)
        #expect(capped.occurrences.count == 100)
        #expect(capped.truncation == .occurrenceCap(100))
        let windowed = expander.occurrences(
            through: Self.local("20240110T085959"), maxOccurrences: 100)
        #expect(windowed.occurrences.count == 9)
        #expect(windowed.truncation == nil)
    }

    @Test("extreme but valid rules end at year 9999 instead of looping or overflowing")
    func extremes() throws {
        #expect(
            try Self.expand(
                "20240101T000000", "FREQ=YEARLY;INTERVAL=1000000", through: "99991231T235959") == [
                    "20240101T000000"
                ])
        #expect(
            try Self.expand(
                "20240101T000000", "FREQ=MONTHLY;INTERVAL=1000000", through: "99991231T235959") == [
                    "20240101T000000"
                ])
        // 30 February never exists: only DTSTART, and the scan stops at the limit.
        #expect(
            try Self.expand(
                "20240101T000000", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", through: "99991231T235959"
            ) == ["20240101T000000"])
    }

    /// Expected by python-dateutil 2.9 `rrulestr` (which leaves out the unmatched DTSTART
    /// that we keep first): sub-daily rules step over excluded days, hours and minutes in
    /// one move each, landing on the rule's own INTERVAL grid, also before 1970.
    @Test(
        "sub-daily rules skip excluded days, hours and minutes on the INTERVAL grid",
        arguments: [
            (
                "20240101T080000", "FREQ=MINUTELY;INTERVAL=7;BYHOUR=9", 12,
                "20240101T090300 20240101T091000 20240101T091700 20240101T092400 20240101T093100 20240101T093800 20240101T094500 20240101T095200 20240101T095900 20240102T090500 20240102T091200"
            ),
            (
                "20231231T235950", "FREQ=SECONDLY;INTERVAL=13;BYMONTH=3;BYMINUTE=0;BYHOUR=0", 6,
                "20240301T000000 20240301T000013 20240301T000026 20240301T000039 20240301T000052"
            ),
            (
                "19691230T220000", "FREQ=HOURLY;INTERVAL=5;BYMONTHDAY=1", 8,
                "19700101T040000 19700101T090000 19700101T140000 19700101T190000 19700201T000000 19700201T050000 19700201T100000"
            ),
        ])
    func subDailySkipping(start: String, rule: String, max: Int, expected: String) throws {
        let list = try Self.expand(start, rule, max: max)
        #expect(list.first == start)
        #expect(Array(list.dropFirst()) == expected.split(separator: " ").map(String.init))
    }

    @Test(
        "a rule that never matches stops after the empty-period limit, in days for a sub-daily rule"
    )
    func neverMatches() throws {
        let rule = try RecurrenceRule.parse("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30").get()
        let expander = RecurrenceExpander(rule: rule, start: Self.local("20240101T000000")) {
            Instant(local: $0, offset: .utc)
        }
        let budget = RecurrenceBudget(1_000_000)
        let e = expander.occurrences(
            through: Self.local("99991231T235959"), maxOccurrences: 10, budget: budget)
        #expect(e.occurrences.map { $0.isoString(fractionDigits: 0) } == ["2024-01-01T00:00:00"])
        #expect(e.truncation == .periodCap(RecurrenceExpander.emptyPeriodLimit))
        // One unit per day stepped over, not one per second: 50,000 days.
        #expect(budget.remaining == 1_000_000 - RecurrenceExpander.emptyPeriodLimit)
    }

    @Test("the budget stops an expansion and is shared: a file's spending is charged to its run")
    func budget() throws {
        let run = RecurrenceBudget(1_000, occurrences: 5)
        let file = RecurrenceBudget(10_000, within: run)
        let rule = try RecurrenceRule.parse("FREQ=SECONDLY").get()
        let expander = RecurrenceExpander(rule: rule, start: Self.local("20240101T000000")) {
            Instant(local: $0, offset: .utc)
        }
        let e = expander.occurrences(
            through: Self.local("20241231T235959"), maxOccurrences: 10_000, budget: file)
        #expect(e.truncation == .budget)
        // Each second costs a day examined and a candidate: 500 of them, then no more.
        #expect(e.occurrences.count == 500)
        #expect(run.remaining == 0 && file.remaining == 9_000 && file.isExhausted)
        #expect(
            file.takeOccurrences(3) == 3 && file.takeOccurrences(3) == 2 && run.occurrencesLeft == 0
        )
    }

    @Test(
        "malformed rules are refused with the reason",
        arguments: [
            ("INTERVAL=2", "FREQ is missing"), ("FREQ=FORTNIGHTLY", "FREQ=FORTNIGHTLY"),
            ("FREQ=DAILY;COUNT=0", "COUNT=0"),
            ("FREQ=DAILY;COUNT=3;UNTIL=20240101", "both"), ("FREQ=MONTHLY;BYMONTHDAY=32", "'32'"),
            ("FREQ=MONTHLY;BYMONTHDAY=0", "'0'"),
            ("FREQ=WEEKLY;BYDAY=XX", "'XX'"), ("FREQ=YEARLY;BYDAY=54MO", "'54MO'"),
            ("FREQ=DAILY;FOO=1", "FOO"),
            ("FREQ=HOURLY;INTERVAL=9223372036854775807", "larger than 1000000"),
            ("FREQ=DAILY;UNTIL=2024", "UNTIL=2024"),
        ])
    func malformed(rule: String, mentions: String) {
        guard case .failure(let e) = RecurrenceRule.parse(rule) else {
            Issue.record("'\(rule)' was accepted")
            return
        }
        #expect(e.message.contains(mentions), "\(e.message)")
    }
}
