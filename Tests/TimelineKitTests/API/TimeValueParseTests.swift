import Foundation
import Testing
import TimelineKit

/// One date through the public front (`TimeValue.parse`): values worked out by hand, the
/// Shanghai ones also with Python's zoneinfo (UTC+8 all year, no DST).
@Suite("TimeValue.parse and Foundation interop")
struct TimeValueParseTests {
    static func options(zone: String? = nil, order: FieldOrder? = nil) -> ReadOptions {
        var o = ReadOptions()
        o.assumedZone = zone.map { try! ResolvedZone(named: $0) }
        o.fieldOrder = order
        return o
    }

    @Test("the fallback chain: exact value and basis for each shape")
    func shapes() throws {
        let shanghai = Self.options(zone: "Asia/Shanghai", order: .dayFirst)
        let cases: [(String, String, TimeBasis)] = [
            ("12/06/2024 8:00", "2024-06-12T00:00:00Z", .assumed),
            ("2024-06-12T08:00:00+08:00", "2024-06-12T00:00:00Z", .offset),
            ("Wed, 12 Jun 2024 08:00:00 GMT", "2024-06-12T08:00:00Z", .offset),
            ("1718179200000", "2024-06-12T08:00:00.000Z", .epoch),
            ("2024年6月12日 08:30", "2024-06-12T00:30:00Z", .assumed),
            ("2024-06-12 08:00[America/New_York]", "2024-06-12T12:00:00Z", .zone),  // EDT, -04:00
        ]
        for (text, instant, basis) in cases {
            let v = try TimeValue.parse(text, options: shanghai)
            #expect(v.instant?.isoString(fractionDigits: v.fractionDigits) == instant, "\(text)")
            #expect(v.basis == basis, "\(text)")
            #expect(v.raw == text)
        }
        let date = try TimeValue.parse("2024/6/12")
        #expect(
            date.date == CivilDate(year: 2024, month: 6, day: 12) && date.basis == .date
                && date.instant == nil)
    }

    @Test("errors say why: unreadable (with the closest parser), naive, a DST gap under reject")
    func errors() throws {
        do {
            _ = try TimeValue.parse("yesterday")
            Issue.record("read 'yesterday'")
        } catch {
            #expect(error.reason == .invalidDate("yesterday", code: .unparseable))
            #expect(error.kind == .data)
            #expect(
                error.diagnostic.message.hasPrefix(
                    "cannot read 'yesterday' as a date/time; closest:"))
        }
        do {
            _ = try TimeValue.parse("2024-06-12 08:00")
            Issue.record("read a naive value with no zone")
        } catch {
            #expect(error.reason == .invalidDate("2024-06-12 08:00", code: .naiveTime))
        }
        var newYork = Self.options(zone: "America/New_York").dates
        newYork.onGap = .reject
        #expect(throws: TimelineError.self) {
            try TimeValue.parse("2024-03-10 02:30", options: newYork)
        }
        newYork.onGap = .shift
        let shifted = try TimeValue.parseReporting("2024-03-10 02:30", options: newYork)
        // 02:30 does not exist; read with the pre-gap offset (-05:00) it is 07:30Z = 03:30 EDT.
        #expect(shifted.value.instant?.isoString(fractionDigits: 0) == "2024-03-10T07:30:00Z")
        #expect(shifted.notice?.code == .dstGap)
    }

    @Test("Instant and Date: whole seconds exactly, nanoseconds within what a Double holds")
    func dates() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            // 1900…2100
            let seconds = Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator)
            let instant = Instant(
                seconds: seconds,
                nanoseconds: Int32.random(in: 0..<1_000_000_000, using: &generator))
            let back = Instant(Date(instant))
            let error =
                (back.seconds - instant.seconds) * 1_000_000_000
                + Int64(back.nanoseconds - instant.nanoseconds)
            #expect(abs(error) <= 1_000, "\(instant) → \(back)")  // within a microsecond
            #expect(Instant(Date(Instant(seconds: seconds))) == Instant(seconds: seconds))
        }
        #expect(Date(TimeValue(date: CivilDate(year: 2024, month: 6, day: 12)!)) == nil)
    }

    @Test("TimeZone, ResolvedZone, CivilDate and DateComponents")
    func zonesAndDays() throws {
        let berlin = try ResolvedZone(TimeZone(identifier: "Europe/Berlin")!)
        #expect(berlin.identifier == "Europe/Berlin")
        #expect(TimeZone(berlin)?.identifier == "Europe/Berlin")
        let eight = try ResolvedZone(TimeZone(secondsFromGMT: 8 * 3600)!)
        #expect(eight.fixedOffset == UTCOffset(seconds: 28_800))
        #expect(TimeZone(UTCOffset(seconds: -18_000))?.secondsFromGMT() == -18_000)
        // 2024-06-11T17:30:00Z is the 12th in Shanghai and the 11th in New York.
        let instant = Date(timeIntervalSince1970: 1_718_127_000)
        #expect(
            CivilDate(instant, in: TimeZone(identifier: "Asia/Shanghai")!)
                == CivilDate(year: 2024, month: 6, day: 12))
        #expect(
            CivilDate(instant, in: TimeZone(identifier: "America/New_York")!)
                == CivilDate(year: 2024, month: 6, day: 11))
        let day = CivilDate(year: 2024, month: 2, day: 29)!
        #expect(CivilDate(day.dateComponents) == day)
        // Midnight in Santiago on 2024-09-08 falls in the spring gap: the day starts at 01:00 (-03:00).
        let santiago = try ZoneResolver().resolve("America/Santiago")
        #expect(
            CivilDate(year: 2024, month: 9, day: 8)!.start(in: santiago).isoString(
                fractionDigits: 0) == "2024-09-08T04:00:00Z")
        #expect(TimelineLocale(Locale(identifier: "zh_CN")) == .simplifiedChinese)
        #expect(TimelineLocale(Locale(identifier: "en_GB")) == .english)
    }

    @Test("errors a caller can act on carry their reason, and their messages name no flag")
    func reasons() throws {
        func reason(_ body: () throws(TimelineError) -> Void) -> TimelineError? {
            do throws(TimelineError) {
                try body()
                return nil
            } catch { return error }
        }
        let typo = reason { () throws(TimelineError) in _ = try ResolvedZone(named: "Asia/Shangai")
        }
        #expect(typo?.reason == .unknownZone("Asia/Shangai", suggestion: "Asia/Shanghai"))
        #expect(typo?.kind == .usage)
        let cst = reason { () throws(TimelineError) in _ = try ResolvedZone(named: "CST") }
        guard case .ambiguousZoneAbbreviation("CST", let candidates)? = cst?.reason else {
            Issue.record("CST resolved: \(String(describing: cst))")
            return
        }
        #expect(candidates.contains("America/Chicago") && candidates.contains("Asia/Shanghai"))
        let format = reason { () throws(TimelineError) in
            var options = ReadOptions()
            try options.addDateFormat("dd/MM")
        }
        #expect(format?.reason == .invalidDateFormat("dd/MM"))
        for error in [typo, cst, format] {
            #expect(
                error?.diagnostic.message.contains("--") == false, "\(String(describing: error))")
        }
        let chosen = try ResolvedZone(named: "cst", abbreviations: ["CST": "Asia/Shanghai"])
        #expect(chosen.identifier == "Asia/Shanghai")
    }

    @Test("ReadOptions: zone abbreviations, date formats and the field mapping take effect")
    func readOptions() throws {
        var options = ReadOptions()
        options.zoneAbbreviations = ["CST": "Asia/Shanghai"]
        // 08:00 at +08:00 is 00:00 UTC.
        let cst = try TimeValue.parse("2024-06-12 08:00 CST", options: options)
        #expect(cst.instant?.isoString(fractionDigits: 0) == "2024-06-12T00:00:00Z")
        try options.addDateFormat("dd.MM.yyyy 'um' HH:mm")
        options.assumedZone = .utc
        #expect(options.dateFormats == ["dd.MM.yyyy 'um' HH:mm"])
        let german = try TimeValue.parse("12.06.2024 um 08:30", options: options)
        #expect(german.instant?.isoString(fractionDigits: 0) == "2024-06-12T08:30:00Z")
        options.fieldMapping.map(.start, to: "Wann")
        options.fieldMapping.map(.title, to: "Was")
        let csv = "Was,Wann\nKaffee,12.06.2024 um 09:15\n"
        let events = try Timeline.read(.string(csv, name: "g.csv"), options: options).events
        #expect(events.map(\.title) == ["Kaffee"])
        #expect(events.first?.start.instant?.isoString(fractionDigits: 0) == "2024-06-12T09:15:00Z")
    }
}
