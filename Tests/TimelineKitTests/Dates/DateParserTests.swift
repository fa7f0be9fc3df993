import Testing

@testable import TimelineKit

/// One value, the settings it is read with, and the expected RFC 3339 result in UTC (or
/// `YYYY-MM-DD` for a date). Expectations were worked out by hand from the input.
struct ShapeCase: CustomTestStringConvertible, Sendable {
    var input: String
    var expected: String
    var assume: String? = "Asia/Shanghai"
    var order: FieldOrder? = nil
    var basis: TimeBasis? = nil
    var testDescription: String { input }
}

@Suite("Date engine: shapes, zones and policies")
struct DateParserTests {
    static func parser(
        assume: String?, order: FieldOrder? = nil, patterns: [String] = [],
        abbrev: [String: String] = [:]
    ) -> DateParser {
        var o = DateParsingOptions()
        o.zoneResolver = ZoneResolver(abbreviationOverrides: abbrev)
        o.assumedZone = assume.map { try! o.zoneResolver.resolve($0) }
        o.fieldOrder = order
        o.patterns = patterns.map { try! DatePattern($0) }
        return DateParser(options: o)
    }

    static func utcText(_ v: TimeValue) -> String {
        if let d = v.date { return d.isoString }
        var out = [UInt8]()
        DateOutputFormat.rfc3339.append(v, in: .utc, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static let shapes: [ShapeCase] = [
        // ISO / RFC 3339
        ShapeCase(input: "2024-06-12T08:00:00Z", expected: "2024-06-12T08:00:00Z", basis: .offset),
        ShapeCase(
            input: "2024-06-12T08:00:00+08:00", expected: "2024-06-12T00:00:00Z", basis: .offset),
        ShapeCase(input: "2024-06-12T08:00:00+05:45:30", expected: "2024-06-12T02:14:30Z"),
        ShapeCase(input: "2024-06-12 08:00:00", expected: "2024-06-12T00:00:00Z", basis: .assumed),
        ShapeCase(
            input: "2024-06-12T08:00:00[Asia/Tokyo]", expected: "2024-06-11T23:00:00Z", basis: .zone
        ),
        ShapeCase(
            input: "2024-06-12T08:00:00+09:00[Asia/Tokyo]", expected: "2024-06-11T23:00:00Z",
            basis: .offset),
        ShapeCase(
            input: "2024-06-12T08:00:00+09:00[u-ca=iso8601]", expected: "2024-06-11T23:00:00Z"),
        ShapeCase(input: "2024-06-12T24:00:00Z", expected: "2024-06-13T00:00:00Z"),
        ShapeCase(input: "2024-06-12", expected: "2024-06-12", basis: .date),
        // RFC 2822 / HTTP
        ShapeCase(
            input: "Wed, 12 Jun 2024 08:00:00 +0800", expected: "2024-06-12T00:00:00Z",
            basis: .offset),
        ShapeCase(input: "Wed, 12 Jun 2024 08:00:00 GMT", expected: "2024-06-12T08:00:00Z"),
        ShapeCase(input: "12 Jun 2024 08:00 -0500", expected: "2024-06-12T13:00:00Z"),
        // Epochs: 1718179200 is 2024-06-12T08:00:00Z (python: datetime.fromtimestamp(1718179200, UTC)).
        ShapeCase(input: "1718179200", expected: "2024-06-12T08:00:00Z", basis: .epoch),
        ShapeCase(input: "1718179200000", expected: "2024-06-12T08:00:00.000Z", basis: .epoch),
        ShapeCase(input: "1718179200000000", expected: "2024-06-12T08:00:00.000000Z"),
        ShapeCase(input: "1718179200123456789", expected: "2024-06-12T08:00:00.123456789Z"),
        ShapeCase(input: "1718179200.5", expected: "2024-06-12T08:00:00.5Z"),
        ShapeCase(input: "-100000000", expected: "1966-10-31T14:13:20Z"),
        ShapeCase(input: "06/May/2008:08:11:17 -0700", expected: "2008-05-06T15:11:17Z"),
        ShapeCase(input: "25/Sep/2003", expected: "2003-09-25"),
        ShapeCase(input: "04:02:2014 4:8:9", expected: "2014-04-01T20:08:09Z", order: .monthFirst),
        ShapeCase(input: "2012:08:03 18:31:59", expected: "2012-08-03T10:31:59Z"),
        ShapeCase(
            input: "2015-02-08 03:02:00 +0300 MSK m=+0.000000001", expected: "2015-02-08T00:02:00Z"),
        ShapeCase(
            input: "Fri Jul 3 2015 06:04:07 PST-0700 (Pacific Daylight Time)",
            expected: "2015-07-03T13:04:07Z"),
        ShapeCase(input: "2012-08-03 18:31:59 +0000 UTC", expected: "2012-08-03T18:31:59Z"),
        // Catalogue
        ShapeCase(input: "2024/06/12 08:00", expected: "2024-06-12T00:00:00Z"),
        ShapeCase(input: "12/06/2024 08:00", expected: "2024-06-12T00:00:00Z", order: .dayFirst),
        ShapeCase(input: "06/12/2024 08:00", expected: "2024-06-12T00:00:00Z", order: .monthFirst),
        ShapeCase(input: "25/12/2024 08:00", expected: "2024-12-25T00:00:00Z"),
        ShapeCase(input: "12/25/2024", expected: "2024-12-25"),
        ShapeCase(input: "12.06.2024", expected: "2024-06-12", order: .dayFirst),
        ShapeCase(input: "Jun 12, 2024 8:00 PM", expected: "2024-06-12T12:00:00Z"),
        ShapeCase(input: "June 12th, 2024 at 8:00 am", expected: "2024-06-12T00:00:00Z"),
        ShapeCase(input: "12 Jun 2024", expected: "2024-06-12"),
        ShapeCase(input: "Wed Jun 12 08:00:00 2024", expected: "2024-06-12T00:00:00Z"),
        ShapeCase(input: "20240612T080000Z", expected: "2024-06-12T08:00:00Z"),
        ShapeCase(input: "2024-06-12 08:00:00,123", expected: "2024-06-12T00:00:00.123Z"),
        ShapeCase(input: "2024年6月12日 08:30", expected: "2024-06-12T00:30:00Z"),
        ShapeCase(input: "2024年6月12日8时30分", expected: "2024-06-12T00:30:00Z"),
        ShapeCase(input: "2024年6月12日 星期三 下午3:05", expected: "2024-06-12T07:05:00Z"),
        ShapeCase(input: "2024/06/12 下午 3:05", expected: "2024-06-12T07:05:00Z"),
        ShapeCase(input: "2024/06/12 上午 12:05", expected: "2024-06-11T16:05:00Z"),
        ShapeCase(input: "2024/06/12 凌晨 1:05", expected: "2024-06-11T17:05:00Z"),
        ShapeCase(input: "2024/06/12 中午 12:30", expected: "2024-06-12T04:30:00Z"),
        ShapeCase(input: "2024/06/12 晚上 9:00", expected: "2024-06-12T13:00:00Z"),
        ShapeCase(input: "2024-06-12 08:00 PDT", expected: "2024-06-12T15:00:00Z", basis: .zone),
        ShapeCase(input: "2024-06-12 08:00 JST", expected: "2024-06-11T23:00:00Z"),
        ShapeCase(
            input: "2024-06-12 08:00 America/New_York", expected: "2024-06-12T12:00:00Z",
            basis: .zone),
        ShapeCase(input: "2024-06-12 08:00 UTC+8", expected: "2024-06-12T00:00:00Z"),
        ShapeCase(input: "Mon Jan 02 15:04:05 -0700 2006", expected: "2006-01-02T22:04:05Z"),
        ShapeCase(input: "202406120800", expected: "2024-06-12T00:00:00Z"),
        ShapeCase(input: "12/06/24", expected: "2024-06-12", order: .dayFirst),
        ShapeCase(input: "12/06/69", expected: "1969-06-12", order: .dayFirst),
        ShapeCase(input: "12/06/68", expected: "2068-06-12", order: .dayFirst),
        // Dates before 1970 and after 2038, leap days.
        ShapeCase(input: "1900-03-01T00:00:00Z", expected: "1900-03-01T00:00:00Z"),
        ShapeCase(input: "2100-02-28T23:59:59+08:00", expected: "2100-02-28T15:59:59Z"),
        ShapeCase(input: "2024-02-29 12:00", expected: "2024-02-29T04:00:00Z"),
        ShapeCase(
            input: "1950-06-15 12:00", expected: "1950-06-15T16:00:00Z", assume: "America/New_York"),
    ]

    @Test("every catalogued shape", arguments: shapes)
    func shape(_ c: ShapeCase) {
        let result = Self.parser(assume: c.assume, order: c.order).parse(c.input)
        guard case .success(let parsed) = result else {
            Issue.record("\(c.input): \(result)")
            return
        }
        #expect(Self.utcText(parsed.value) == c.expected)
        #expect(parsed.value.raw == c.input)
        if let b = c.basis { #expect(parsed.value.basis == b) }
    }

    @Test(
        "refusals carry their code",
        arguments: [
            ("2024-02-30", "E001"), ("2024-06-12T25:00:00Z", "E001"), ("2023-02-29 10:00", "E001"),
            ("2024-06-12T08:00:60Z", "E001"), ("2024-06-12T24:00:01Z", "E001"),
            ("Jun 12 08:00", "E001"),
            ("03/04/2024", "TZ112"), ("2024-06-12 08:00 CST", "TZ109"),
            ("2024-06-12 08:00 IST", "TZ109"),
            ("2024-06-12 08:00 Mars/Olympus", "TZ110"), ("2024-06-12T08:00:00.1234567890Z", "E001"),
            ("12", "E001"), ("2024", "E001"), ("99999999999999999999", "E001"),
            ("-99999999999999999999", "E001"),
            ("08:00", "E001"), ("next tuesday", "E001"), ("-1314", "E001"),
            ("January 25, 1921 23:13 PM", "E001"),
            ("03 25 Sep", "E001"), ("2024-06-12 08:00 +0800 UTC", "E001"),
            ("2024-06-12 08:00 +0800 +0900", "E001"),
        ])
    func refusals(input: String, code: String) {
        #expect(Self.parser(assume: "UTC").parse(input).failureCode == code)
    }

    /// Expected by Python: `date.fromisocalendar`, `date(y, 1, 1) + timedelta(days=n - 1)`
    /// and `datetime.fromtimestamp(ms / 1000, tz)` (2026-12-01).
    @Test(
        "ISO week and ordinal dates, .NET JSON dates and U+2212 offsets",
        arguments: [
            ("2019-W01-1", "2018-12-31"), ("2020-W53-7", "2021-01-03"),
            ("2015-W53-5", "2016-01-01"), ("2021-W01-1", "2021-01-04"),
            ("2004-W53-6", "2005-01-01"), ("2009-W01-4", "2009-01-01"),
            ("2024-W24-3", "2024-06-12"), ("0001-W01-1", "0001-01-01"),
            ("9999-W52-5", "9999-12-31"), ("2019W011", "2018-12-31"), ("2024W243", "2024-06-12"),
            ("2019-W01", "2018-12-31"),
            ("2024-W24-3T10:00:00Z", "2024-06-12T10:00:00Z"),
            ("2024W243T100000+0200", "2024-06-12T08:00:00Z"),
            ("2020-060", "2020-02-29"), ("2021-365", "2021-12-31"), ("2024-366", "2024-12-31"),
            ("1900-059", "1900-02-28"),
            ("2000-366", "2000-12-31"), ("2023-001", "2023-01-01"), ("2020060", "2020-02-29"),
            ("2020-060T10:00:00+08:00", "2020-02-29T02:00:00Z"),
            ("/Date(1700000000000)/", "2023-11-14T22:13:20.000Z"),
            ("/Date(1700000000000-0500)/", "2023-11-14T22:13:20.000Z"),
            ("/Date(-1000)/", "1969-12-31T23:59:59.000Z"),
            (#"\/Date(0+0530)\/"#, "1970-01-01T00:00:00.000Z"),
            ("/Date(1718150400123+0800)/", "2024-06-12T00:00:00.123Z"),
            ("2024-06-12T08:00:00\u{2212}05:00", "2024-06-12T13:00:00Z"),
            ("2024-06-12T08:00\u{2212}0530", "2024-06-12T13:30:00Z"),
            ("Wed, 12 Jun 2024 08:00:00 \u{2212}0500", "2024-06-12T13:00:00Z"),
            ("12 June 2024 08:00 \u{2212}05:00", "2024-06-12T13:00:00Z"),
            ("June 12th, 2024 at 3pm", "2024-06-12T15:00:00Z"),
            ("12 June 2024, 3:05 PM", "2024-06-12T15:05:00Z"),
            ("June 12, 2024 at 3 pm", "2024-06-12T15:00:00Z"),
            ("Wednesday, June 12, 2024", "2024-06-12"), ("2024年6月12日 星期三", "2024-06-12"),
        ])
    func newForms(input: String, expected: String) {
        guard case .success(let parsed) = Self.parser(assume: "UTC").parse(input) else {
            Issue.record("\(input) not read")
            return
        }
        #expect(Self.utcText(parsed.value) == expected, "\(input)")
    }

    @Test(".NET dates keep the offset they were observed in; the milliseconds are UTC")
    func dotNetOffset() throws {
        let v = try Self.parser(assume: nil).parse("/Date(1718150400123+0800)/").get().value
        #expect(v.rfc3339 == "2024-06-12T08:00:00.123+08:00" && v.basis == .offset)
        #expect(
            try Self.parser(assume: nil).parse("/Date(1718150400123)/").get().value.basis == .epoch)
    }

    @Test(
        "a value of a known shape that cannot be a date or time says why",
        arguments: [
            ("2024-02-30", "February 2024 has 29 days, not 30"),
            ("2023-02-29 10:00", "February 2023 has 28 days, not 29"),
            ("2024-13-01", "there is no month 13"), ("2024-06-12 25:00", "hour 25 is out of range"),
            ("2024-06-12T10:60:00Z", "minute 60 is out of range"),
            ("2024-06-12T08:00:60Z", "leap seconds are not supported"),
            ("2024-06-12T24:00:01Z", "hour 24 is out of range"),
            ("2021-W53-1", "2021 has 52 ISO weeks, not 53"),
            ("2021-W00-1", "there is no week 0"), ("2021-W01-8", "weekday 8 is out of range"),
            ("2021-366", "2021 has 365 days, not 366"),
            ("31 Jun 2024 08:00 +0000", "June 2024 has 30 days, not 31"),
            ("Wed, 05 Mar 2024 10:00:00 +0000", "5 March 2024 was a Tuesday, not a Wednesday"),
            ("Tuesday, June 12, 2024", "12 June 2024 was a Wednesday, not a Tuesday"),
            ("2024年6月12日 星期二", "was a Wednesday, not a Tuesday"),
            ("June 31, 2024", "June 2024 has 30 days, not 31"),
            ("2021-03-04T", "nothing follows 'T'"),
            ("2021-03-04T10:11:12.", "no fraction digits follow the decimal mark"),
            ("2021-03-04T10:", "no minutes follow ':'"),
            ("2021-03-04T10:11:12+", "the offset is incomplete"),
        ])
    func problems(input: String, message: String) {
        let result = Self.parser(assume: "UTC").parse(input)
        guard case .failure(let error) = result else {
            Issue.record("\(input) read as \(result)")
            return
        }
        #expect(error.code == .unparseable)
        #expect(error.message(for: input).contains(message), "\(error.message(for: input))")
    }

    @Test(
        "a day/month order the user fixed is not flipped by a value that contradicts it; one inferred from a column is"
    )
    func explicitOrder() throws {
        let dayFirst = Self.parser(assume: "UTC", order: .dayFirst)
        guard case .failure(let e) = dayFirst.parse("11-25-2023") else {
            Issue.record("11-25-2023 read under --day-first")
            return
        }
        #expect(
            SettingText.rendered(e.message(for: "11-25-2023"), for: .commandLine).contains(
                "cannot be read day-first (25 is not a month); drop --day-first or pass --month-first"
            ))
        #expect(
            try Self.utcText(
                Self.parser(assume: "UTC", order: .monthFirst).parse("11-25-2023").get().value)
                == "2023-11-25")
        #expect(try Self.utcText(dayFirst.parse("25-11-2023").get().value) == "2023-11-25")
        let inferred = Self.parser(assume: "UTC")
        inferred.setFieldOrder(.dayFirst)
        #expect(try Self.utcText(inferred.parse("11-25-2023").get().value) == "2023-11-25")
    }

    @Test("naive values need a zone; the error says how to fix it")
    func naive() {
        let result = Self.parser(assume: nil).parse("2024-06-12 08:00")
        #expect(result == .failure(.naive))
        let message = DateParseError.naive.message(for: "2024-06-12 08:00")
        #expect(
            SettingText.rendered(message, for: .commandLine).hasSuffix(
                "pass --assume-zone ZONE (e.g. --assume-zone Asia/Shanghai)"))
        #expect(
            SettingText.rendered(message, for: .library).hasSuffix(
                "pass ReadOptions.assumedZone = ZONE (e.g. ReadOptions.assumedZone = Asia/Shanghai)"
            ))
    }

    @Test("--abbrev resolves an ambiguous abbreviation")
    func abbrev() {
        let p = Self.parser(assume: nil, abbrev: ["CST": "Asia/Shanghai"])
        guard case .success(let v) = p.parse("2024-06-12 08:00 CST") else {
            Issue.record("CST not resolved")
            return
        }
        #expect(v.value.instant?.isoString(fractionDigits: 0) == "2024-06-12T00:00:00Z")
        #expect(v.value.zone == "Asia/Shanghai")
    }

    @Test("an offset that contradicts its zone is used and reported (TZ106)")
    func contradiction() {
        guard
            case .success(let v) = Self.parser(assume: nil).parse(
                "2024-07-01T08:00:00-05:00[America/New_York]")
        else {
            Issue.record("not parsed")
            return
        }
        #expect(v.value.instant?.isoString(fractionDigits: 0) == "2024-07-01T13:00:00Z")
        #expect(
            v.notice
                == .offsetContradictsZone(
                    UTCOffset(seconds: -5 * 3600), zone: "America/New_York",
                    zoneOffset: UTCOffset(seconds: -4 * 3600)))
    }

    @Test(
        "user patterns, LDML and strptime, tried before the catalogue",
        arguments: [
            ("dd/MM/yyyy HH:mm", "03/04/2024 09:15", "2024-04-03T01:15:00Z"),
            ("%d/%m/%Y %H:%M", "03/04/2024 09:15", "2024-04-03T01:15:00Z"),
            ("yyyyMMddHHmmss", "20240403091500", "2024-04-03T01:15:00Z"),
            (
                "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2024-04-03T09:15:00.250+02:00",
                "2024-04-03T07:15:00.250Z"
            ),
            ("EEE, d MMM yyyy h:mm a", "Wed, 3 Apr 2024 9:15 PM", "2024-04-03T13:15:00Z"),
            ("%Y-%m-%d %H:%M:%S %z", "2024-04-03 09:15:00 +0530", "2024-04-03T03:45:00Z"),
            ("yyyy.MM.dd HH:mm VV", "2024.04.03 09:15 Europe/Paris", "2024-04-03T07:15:00Z"),
            ("d MMMM yy", "3 April 24", "2024-04-03"),
            ("%Y/%m/%d %p %I:%M", "2024/04/03 下午 09:15", "2024-04-03T13:15:00Z"),
        ])
    func patterns(pattern: String, input: String, expected: String) {
        let result = Self.parser(assume: "Asia/Shanghai", patterns: [pattern]).parse(input)
        guard case .success(let v) = result else {
            Issue.record("\(pattern) \(input): \(result)")
            return
        }
        #expect(Self.utcText(v.value) == expected)
    }

    @Test(
        "bad patterns are refused at compile time with the reason",
        arguments: ["HH:mm", "yyyy-QQ", "%Y-%q", "yyyy-MM-dd'T"])
    func badPatterns(pattern: String) {
        #expect(throws: DatePattern.CompileError.self) { try DatePattern(pattern) }
    }

    @Test("patterns format as well as parse")
    func patternFormatting() throws {
        let p = try DatePattern("EEE dd.MM.yyyy hh:mm:ss.SSS a XXX")
        let local = LocalDateTime(
            date: CivilDate(year: 2024, month: 6, day: 12)!, hour: 20, minute: 5, second: 9,
            nanosecond: 7_000_000)!
        #expect(
            p.format(local, offset: UTCOffset(seconds: 8 * 3600), zone: nil, fractionDigits: 3)
                == "Wed 12.06.2024 08:05:09.007 PM +08:00")
    }

    @Test("hostile input gets a per-value error, never a crash")
    func hostile() {
        let p = Self.parser(assume: "UTC")
        #expect(p.parse("").failureCode == "E001")
        #expect(p.parse("   \t ").failureCode == "E001")
        #expect(p.parse(String(repeating: "9", count: 10_000)).failureCode == "E001")
        #expect(p.parse("2024-06-12\u{0}08:00").failureCode == "E001")
        #expect(p.parse("9223372036854775808").failureCode == "E001")
        let invalidUTF8: [UInt8] = [0x32, 0x30, 0x32, 0x34, 0xFF, 0xFE, 0x2D]
        let r = invalidUTF8.withByteView { p.parse(bytes: $0) }
        #expect(r.failureCode == "E001")
        for length in 0..<40 {
            // Every prefix of a long mixed value: no crash, and either a value or an error.
            let text = String(
                "Wed, 12 Jun 2024 08:00:00.123456789 +08:00 [Asia/Shanghai] 下午".prefix(length))
            _ = p.parse(text)
        }
    }

    @Test("field order decided from a column's values")
    func fieldOrderDetection() {
        var d = FieldOrderDetector()
        for v in ["03/04/2024", "05/06/2024", "25/06/2024 10:00"] { d.observe(v) }
        #expect(d.decided == .dayFirst)
        var m = FieldOrderDetector()
        for v in ["03/04/2024", "06/25/2024"] { m.observe(v) }
        #expect(m.decided == .monthFirst)
        var both = FieldOrderDetector()
        for v in ["13/04/2024", "06/25/2024"] { both.observe(v) }
        #expect(both.decided == nil && both.isContradictory)
        let p = Self.parser(assume: "UTC")
        p.setFieldOrder(d.decided)
        guard case .success(let v) = p.parse("03/04/2024") else {
            Issue.record("not parsed")
            return
        }
        #expect(v.value.date?.isoString == "2024-04-03")
    }

    /// The value `readCommonForm` leaves alone when it reads nothing.
    static let untouched = TimeValue(date: CivilDate(year: 1999, month: 12, day: 31)!)

    static func readInPlace(_ text: String, zone: String?) -> TimeValue? {
        let recordZone = zone.map { try! ZoneResolver().resolve($0) }
        var value = untouched
        let read = text.withByteView {
            Self.parser(assume: nil).readCommonForm($0, recordZone: recordZone, into: &value)
        }
        if !read { #expect(value == untouched, "\(text): changed but not read") }
        return read ? value : nil
    }

    // Expected instants by hand: 08:00 at +08:00 is 00:00 UTC; New York is at -05:00 on
    // 1 January and -04:00 on 1 July 2024; 00:30 on 1 January of year 1 at +01:00 is in
    // year 0 in UTC, out of the supported range.
    @Test(
        "the common form is read in place; anything else is left to the fallback chain",
        arguments: [
            (nil, "2024-06-12T08:00:00+08:00", "2024-06-12T00:00:00Z", nil),
            ("Asia/Shanghai", "2024-06-12T08:00:00+08:00", "2024-06-12T00:00:00Z", "Asia/Shanghai"),
            (
                "America/New_York", "2024-01-01T08:00:00-05:00", "2024-01-01T13:00:00Z",
                "America/New_York"
            ),
            (nil, "2024-06-12t08:00:00.50z", "2024-06-12T08:00:00.50Z", nil),
            ("America/New_York", "2024-07-01T08:00:00-05:00", nil, nil),
            (nil, " 2024-06-12T08:00:00Z", nil, nil),
            (nil, "2024-06-12T08:00:00Z\n", nil, nil),
            (nil, "0001-01-01T00:30:00+01:00", nil, nil),
            (nil, "2024-06-12 08:00:00", nil, nil),
            (nil, "N/A", nil, nil),
            (nil, "", nil, nil),
        ] as [(String?, String, String?, String?)])
    func readInPlace(zone: String?, text: String, utc: String?, keptZone: String?) {
        let value = Self.readInPlace(text, zone: zone)
        #expect(value.map(Self.utcText) == utc)
        guard let value else { return }
        #expect(value.raw == text)
        #expect(value.zone == keptZone)
        #expect(value.basis == .offset)
    }

    @Test("a value read in place is the one the fallback chain reads, with nothing to report")
    func readInPlaceAgreesWithParse() {
        var rng = SplitMix64(seed: 7)
        let alphabet = Array("0123456789-:T .,Z+z")
        let zones: [String?] = [nil, "Asia/Shanghai", "America/New_York", "UTC"]
        var read = 0
        for _ in 0..<20_000 {
            let offset = UTCOffset(seconds: (Int(rng.next() % 57) - 28) * 1800)
            let base = TimeValue(
                instant: Instant(
                    seconds: Int64(rng.next() % 8_000_000_000) - 2_000_000_000,
                    nanoseconds: Int32(rng.next() % 1_000_000_000)),
                offset: rng.next() % 4 == 0 ? .utc : offset, basis: .offset,
                fractionDigits: Int(rng.next() % 10))
            var chars = Array(base.rfc3339)
            for _ in 0..<Int(rng.next() % 3) {
                chars[Int(rng.next() % UInt64(chars.count))] =
                    alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
            let text = String(chars)
            let zone = zones[Int(rng.next() % UInt64(zones.count))]
            guard let value = Self.readInPlace(text, zone: zone) else { continue }
            read += 1
            let resolved = zone.map { try! ZoneResolver().resolve($0) }
            guard case .success(let parsed) = Self.parser(assume: nil).parse(text, inZone: resolved)
            else {
                Issue.record("read in place but not by the fallback chain: '\(text)'")
                continue
            }
            #expect(parsed.notice == nil, "\(text) in \(zone ?? "no zone")")
            #expect(parsed.value == value, "\(text) in \(zone ?? "no zone")")
        }
        #expect(read > 2_000)
    }
}
