/// The years every output can write: 0001–9999, RFC 3339's four-digit years. A value is read
/// only if its UTC time, its own local time (or its date) fall in them, and an output that
/// shows times in a display zone also needs them there; a value outside is rejected with
/// E008 out-of-range, never written with a wrapped or garbled year.
///
/// The model's arithmetic itself (`CivilDate(daysSinceEpoch:)`, `Instant(local:offset:)`) is
/// not limited to these years: the checks below are made where values enter and leave.
package enum SupportedRange {
    /// 1…9999.
    public static let years = 1...9999

    /// How messages say a value is not in `years`.
    static let outside =
        "outside the years 0001–9999 that RFC 3339 and the canonical format can write"

    /// Seconds since the epoch of 0001-01-01T00:00:00 and of 10000-01-01T00:00:00, as if UTC.
    static let firstSecond: Int64 = -62_135_596_800
    static let endSecond: Int64 = 253_402_300_800

    /// Whether a wall time `secondsAsIfUTC` seconds after 1970-01-01T00:00:00 falls in
    /// `years`.
    @inline(__always)
    static func contains(secondsAsIfUTC s: Int64) -> Bool { s >= firstSecond && s < endSecond }

    /// Whether `seconds` shifted by `offset` seconds falls in `years` (false on overflow).
    @inline(__always)
    static func contains(seconds: Int64, shiftedBy offset: Int) -> Bool {
        let (s, overflow) = seconds.addingReportingOverflow(Int64(offset))
        return !overflow && contains(secondsAsIfUTC: s)
    }

    /// Whether a day number (days since 1970-01-01) falls in `years`.
    @inline(__always)
    static func contains(day: Int64) -> Bool {
        day >= firstSecond / 86_400 && day < endSecond / 86_400
    }
}

extension Instant {
    /// The instant `seconds` later (earlier when negative); nil when the sum overflows.
    public func adding(seconds delta: Int64) -> Instant? {
        let (sum, overflow) = seconds.addingReportingOverflow(delta)
        return overflow ? nil : Instant(unchecked: sum, nanoseconds: nanoseconds)
    }
}

extension TimeValue {
    /// Whether the value's UTC and local wall times (or its date) fall in
    /// `SupportedRange.years`, so that every output can write it.
    public var isInSupportedRange: Bool {
        if basis == .date { return SupportedRange.contains(day: seconds) }
        return SupportedRange.contains(secondsAsIfUTC: seconds)
            && SupportedRange.contains(seconds: seconds, shiftedBy: Int(offsetSeconds))
    }

    /// As `isInSupportedRange`, and the wall time in `zone` too (an all-day date never moves).
    package func isInSupportedRange(shownIn zone: ZoneRules) -> Bool {
        guard isInSupportedRange else { return false }
        guard let instant else { return true }
        return SupportedRange.contains(
            seconds: instant.seconds, shiftedBy: zone.offset(at: instant).seconds)
    }

    /// What the value is outside the supported years, for a message: its UTC time (or its
    /// date, or its wall time in `zone`) as written with all its digits.
    func outOfRangeDescription(shownIn zone: ZoneRules? = nil) -> String {
        guard let instant else { return date.map { "the date \($0.isoString)" } ?? "" }
        let utc = instant.local(in: .utc)
        if !SupportedRange.contains(secondsAsIfUTC: seconds) {
            return "\(utc.isoString(fractionDigits: 0))Z in UTC"
        }
        if let local, !SupportedRange.contains(seconds: seconds, shiftedBy: Int(offsetSeconds)) {
            return "local time \(local.isoString(fractionDigits: 0))"
        }
        if let zone {
            return
                "\(instant.local(in: zone.offset(at: instant)).isoString(fractionDigits: 0)) in \(zone.identifier)"
        }
        return "\(utc.isoString(fractionDigits: 0))Z in UTC"
    }
}

extension Event {
    /// The first of the event's times (start, end, recorded) outside the supported years
    /// (or outside them in `zone`, where an output shows times there), named for a message;
    /// nil when all are inside.
    func unsupportedTime(shownIn zone: ZoneRules? = nil) -> String? {
        // Checked one by one rather than over an array of the three: every event of a
        // conversion passes here.
        Self.unsupported("start", start, shownIn: zone)
            ?? end.flatMap { Self.unsupported("end", $0, shownIn: zone) }
            ?? recorded.flatMap { Self.unsupported("recorded", $0, shownIn: zone) }
    }

    private static func unsupported(_ name: String, _ value: TimeValue, shownIn zone: ZoneRules?)
        -> String?
    {
        let inside = zone.map { value.isInSupportedRange(shownIn: $0) } ?? value.isInSupportedRange
        guard !inside else { return nil }
        let written = value.raw ?? value.rfc3339
        let place =
            value.date == nil ? " is \(value.outOfRangeDescription(shownIn: zone)):" : " is"
        return "\(name) '\(written)'\(place) \(SupportedRange.outside)"
    }
}
