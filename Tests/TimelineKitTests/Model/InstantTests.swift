import Testing

@testable import TimelineKit

@Suite("Instant, offsets and calendar arithmetic")
struct InstantTests {
    @Test("days since the epoch round-trip for every day from 0001 to 9999 sampled")
    func civilDaysRoundTrip() {
        var days: Int64 = CivilDate(year: 1, month: 1, day: 1)!.daysSinceEpoch
        let last = CivilDate(year: 9999, month: 12, day: 31)!.daysSinceEpoch
        var previous: CivilDate?
        while days <= last {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            if let p = previous { #expect(p < date) }
            previous = date
            days += 37
        }
    }

    @Test("known epoch days (checked with Python: date.toordinal() - 719163)")
    func knownDays() {
        #expect(CivilDate(year: 1970, month: 1, day: 1)!.daysSinceEpoch == 0)
        #expect(CivilDate(year: 1969, month: 12, day: 31)!.daysSinceEpoch == -1)
        #expect(CivilDate(year: 2000, month: 3, day: 1)!.daysSinceEpoch == 11_017)
        #expect(CivilDate(year: 2024, month: 2, day: 29)!.daysSinceEpoch == 19_782)
        #expect(CivilDate(year: 1, month: 1, day: 1)!.daysSinceEpoch == -719_162)
        #expect(CivilDate(year: 2024, month: 6, day: 12)!.isoWeekday == 3)  // a Wednesday
    }

    @Test(
        "calendar validity",
        arguments: [
            (2024, 2, 29, true), (2023, 2, 29, false), (1900, 2, 29, false), (2000, 2, 29, true),
            (2024, 4, 31, false), (2024, 13, 1, false), (2024, 0, 1, false), (0, 1, 1, false),
        ])
    func validity(year: Int, month: Int, day: Int, valid: Bool) {
        #expect((CivilDate(year: year, month: month, day: day) != nil) == valid)
    }

    @Test("negative epochs keep nanoseconds non-negative")
    func negativeEpochs() {
        let local = LocalDateTime(
            date: CivilDate(year: 1969, month: 12, day: 31)!, hour: 23, minute: 59, second: 59,
            nanosecond: 500_000_000)!
        let instant = Instant(local: local, offset: .utc)
        #expect(instant.seconds == -1)
        #expect(instant.nanoseconds == 500_000_000)
        #expect(instant.isoString(fractionDigits: 1) == "1969-12-31T23:59:59.5Z")
        #expect(
            instant.local(in: UTCOffset(seconds: 8 * 3600)).isoString(fractionDigits: 3)
                == "1970-01-01T07:59:59.500")
    }

    // Seconds from Python's datetime (9999-12-31T23:59:59 and 0001-01-01 minus the epoch);
    // the texts by hand: four-digit years at both ends, fractions cut to the digits asked
    // for and never more than nine.
    @Test("wall times are written with four-digit years and the fraction digits asked for")
    func writtenWallTimes() {
        let last = LocalDateTime(secondsAsIfUTC: 253_402_300_799, nanosecond: 123_456_789)
        #expect(last.isoString(fractionDigits: 9) == "9999-12-31T23:59:59.123456789")
        #expect(last.isoString(fractionDigits: 12) == "9999-12-31T23:59:59.123456789")
        #expect(last.isoString(fractionDigits: 2) == "9999-12-31T23:59:59.12")
        #expect(last.isoString(fractionDigits: 0) == "9999-12-31T23:59:59")
        let first = LocalDateTime(secondsAsIfUTC: -62_135_596_800, nanosecond: 5_000)
        #expect(first.isoString(fractionDigits: 6) == "0001-01-01T00:00:00.000005")
        #expect(first.isoString(fractionDigits: -1) == "0001-01-01T00:00:00")
    }

    @Test("both wall times at once equal the two computed apart, across day and year ends")
    func wallTimesAtOnce() {
        var rng = SplitMix64(seed: 0xDA7E)
        // Offsets up to ±18 h (with seconds), instants from 1600 to 2400, negative included.
        for _ in 0..<20_000 {
            let instant = Instant(
                seconds: Int64.random(in: -11_676_096_000...13_569_465_600, using: &rng),
                nanoseconds: Int32.random(in: 0..<1_000_000_000, using: &rng))
            let offset = UTCOffset(seconds: Int.random(in: -64_800...64_800, using: &rng))
            let wall = instant.wallTimes(in: offset)
            #expect(wall.utc == instant.local(in: .utc))
            #expect(wall.local == instant.local(in: offset), "\(instant) in \(offset)")
        }
    }

    @Test("instant = local - offset, including offsets with seconds")
    func offsetArithmetic() {
        let local = LocalDateTime(
            date: CivilDate(year: 1900, month: 1, day: 1)!, hour: 0, minute: 0)!
        let amsterdamMeanTime = UTCOffset(seconds: 19 * 60 + 32)
        let instant = Instant(local: local, offset: amsterdamMeanTime)
        // 1900-01-01T00:00:00+00:19:32 is 1899-12-31T23:40:28Z (by hand).
        #expect(instant.isoString(fractionDigits: 0) == "1899-12-31T23:40:28Z")
        #expect(instant.local(in: amsterdamMeanTime) == local)
        #expect(amsterdamMeanTime.isoString == "+00:19:32")
        #expect(UTCOffset(seconds: -(5 * 3600 + 30 * 60)).isoString == "-05:30")
        #expect(UTCOffset(hours: 19, minutes: 0, negative: false) == nil)
    }

    @Test("fraction digits are written exactly as read")
    func fractionDigits() {
        let base = Instant(seconds: 1_718_179_200, nanoseconds: 500_000_000)
        #expect(
            TimeValue(instant: base, offset: .utc, basis: .offset, fractionDigits: 1).rfc3339
                == "2024-06-12T08:00:00.5Z")
        #expect(
            TimeValue(instant: base, offset: .utc, basis: .offset, fractionDigits: 6).rfc3339
                == "2024-06-12T08:00:00.500000Z")
        let nanos = Instant(seconds: 0, nanoseconds: 123_456_789)
        #expect(
            TimeValue(
                instant: nanos, offset: UTCOffset(seconds: 3600), basis: .offset, fractionDigits: 9
            ).rfc3339
                == "1970-01-01T01:00:00.123456789+01:00")
    }
}
