/// An exact moment: integer seconds plus integer nanoseconds since 1970-01-01T00:00:00Z.
///
/// Never a `Double`: `nanoseconds` is always in `0..<1_000_000_000`, so an instant before
/// the epoch such as `1969-12-31T23:59:59.5Z` is `seconds: -1, nanoseconds: 500_000_000`.
public struct Instant: Hashable, Comparable, Sendable {
    /// Whole seconds since 1970-01-01T00:00:00Z (negative before).
    public var seconds: Int64
    /// Nanoseconds after `seconds`, 0…999,999,999.
    public var nanoseconds: Int32

    /// An instant; `nanoseconds` must be in 0..<1,000,000,000.
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        precondition((0..<1_000_000_000).contains(nanoseconds), "nanoseconds out of range")
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    @inline(__always)
    init(unchecked seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (a: Instant, b: Instant) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    /// The wall time at this instant in a fixed offset.
    public func local(in offset: UTCOffset) -> LocalDateTime {
        LocalDateTime(
            secondsAsIfUTC: seconds + Int64(offset.seconds), nanosecond: Int(nanoseconds))
    }

    /// The wall times at this instant in UTC and in `offset`, as `local(in: .utc)` and
    /// `local(in: offset)`: the calendar date is worked out once when both fall on the same
    /// day, as most do (the canonical form writes both for every timed value).
    package func wallTimes(in offset: UTCOffset) -> (utc: LocalDateTime, local: LocalDateTime) {
        let nanosecond = Int(nanoseconds)
        let (utcDay, utcSecond) = LocalDateTime.dayAndSecond(ofSecondsAsIfUTC: seconds)
        let (localDay, localSecond) = LocalDateTime.dayAndSecond(
            ofSecondsAsIfUTC: seconds + Int64(offset.seconds))
        let utcDate = CivilDate(daysSinceEpoch: utcDay)
        let localDate = localDay == utcDay ? utcDate : CivilDate(daysSinceEpoch: localDay)
        return (
            LocalDateTime(date: utcDate, secondOfDay: utcSecond, nanosecond: nanosecond),
            LocalDateTime(date: localDate, secondOfDay: localSecond, nanosecond: nanosecond)
        )
    }

    /// The instant at which the wall clock in `offset` shows `local`.
    public init(local: LocalDateTime, offset: UTCOffset) {
        self.init(
            seconds: local.secondsAsIfUTC - Int64(offset.seconds),
            nanoseconds: Int32(local.nanosecond))
    }

    /// `YYYY-MM-DDTHH:MM:SS[.f]Z`.
    public func isoString(fractionDigits: Int) -> String {
        local(in: .utc).isoString(fractionDigits: fractionDigits) + "Z"
    }
}

/// A UTC offset in whole seconds (`+08:00` is 28 800). Offsets with seconds (`+00:19:32`,
/// Amsterdam before 1937) are kept exactly.
public struct UTCOffset: Hashable, Comparable, Sendable {
    /// Seconds east of UTC (`+08:00` is 28,800).
    public var seconds: Int

    /// `+00:00`.
    public static let utc = UTCOffset(seconds: 0)
    /// The largest offset accepted: ±18:00, as in RFC 3339 implementations and java.time.
    public static let maximumSeconds = 18 * 3600

    /// The offset of `seconds` east of UTC.
    public init(seconds: Int) {
        self.seconds = seconds
    }

    /// `±HH:MM[:SS]`; nil beyond ±18 hours or with minutes or seconds above 59.
    public init?(hours: Int, minutes: Int, seconds: Int = 0, negative: Bool) {
        guard (0...59).contains(minutes), (0...59).contains(seconds) else { return nil }
        let total = hours * 3600 + minutes * 60 + seconds
        guard total <= UTCOffset.maximumSeconds else { return nil }
        self.seconds = negative ? -total : total
    }

    public static func < (a: UTCOffset, b: UTCOffset) -> Bool { a.seconds < b.seconds }

    /// `+08:00`, `-05:00`, `+00:00`, `+05:30`, and `+00:19:32` when seconds are non-zero.
    public var isoString: String {
        var out = [UInt8]()
        appendISO(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `±HH:MM[:SS]` into a stack buffer (at most 9 bytes).
    @inline(__always)
    func write(to w: inout FixedWriter) {
        let magnitude = abs(seconds)
        w.byte(UInt8(ascii: seconds < 0 ? "-" : "+"))
        w.two(magnitude / 3600)
        w.byte(UInt8(ascii: ":"))
        w.two(magnitude % 3600 / 60)
        if magnitude % 60 != 0 {
            w.byte(UInt8(ascii: ":"))
            w.two(magnitude % 60)
        }
    }

    func appendISO(to out: inout [UInt8]) {
        let magnitude = abs(seconds)
        out.append(UInt8(ascii: seconds < 0 ? "-" : "+"))
        appendDigits(magnitude / 3600, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(magnitude % 3600 / 60, width: 2, to: &out)
        if magnitude % 60 != 0 {
            out.append(UInt8(ascii: ":"))
            appendDigits(magnitude % 60, width: 2, to: &out)
        }
    }

    /// The RFC 3339 suffix: `Z` for zero, otherwise as `isoString`.
    func appendRFC3339(to out: inout [UInt8]) {
        if seconds == 0 { out.append(UInt8(ascii: "Z")) } else { appendISO(to: &out) }
    }
}
