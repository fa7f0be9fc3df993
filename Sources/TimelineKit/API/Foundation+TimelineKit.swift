import Foundation

// Interop with Foundation's `Date`, `TimeZone`, `Calendar`, `Locale` and `DateComponents`.
//
// Precision: an `Instant` is whole seconds plus nanoseconds; a `Date` is a `Double` of
// seconds since 2001-01-01. For present-day dates a `Date` keeps about a tenth of a
// microsecond, so `Instant → Date → Instant` can move the nanoseconds (never the second
// for |nanoseconds| ≥ 1 µs precision); the canonical format never goes through `Date`.

extension Date {
    /// The moment of `instant` (nanoseconds rounded to what a `Double` holds; see above).
    public init(_ instant: Instant) {
        self.init(
            timeIntervalSince1970: Double(instant.seconds) + Double(instant.nanoseconds)
                / 1_000_000_000)
    }

    /// The moment of `value`, or nil for an all-day date (which is no moment: see
    /// `CivilDate.start(in:)` for the midnight that begins it in a zone).
    public init?(_ value: TimeValue) {
        guard let instant = value.instant else { return nil }
        self.init(instant)
    }
}

extension Instant {
    /// The moment of `date`, to the nearest nanosecond its `Double` holds.
    public init(_ date: Date) {
        let t = date.timeIntervalSince1970
        var seconds = t.rounded(.down)
        var nanoseconds = ((t - seconds) * 1_000_000_000).rounded()
        if nanoseconds >= 1_000_000_000 {
            seconds += 1
            nanoseconds -= 1_000_000_000
        }
        self.init(seconds: Int64(seconds), nanoseconds: Int32(nanoseconds))
    }
}

extension TimeZone {
    /// The fixed-offset zone of `offset` (`GMT+0800`).
    public init?(_ offset: UTCOffset) {
        self.init(secondsFromGMT: offset.seconds)
    }

    /// Foundation's zone for `zone`: its IANA id, or its fixed offset for an abbreviation
    /// that means one (`PDT`).
    public init?(_ zone: ResolvedZone) {
        if let fixed = zone.fixedOffset {
            self.init(secondsFromGMT: fixed.seconds)
        } else {
            self.init(identifier: zone.identifier)
        }
    }
}

extension ResolvedZone {
    /// The zone of a Foundation `TimeZone` (by its identifier, `Asia/Shanghai`, or a fixed
    /// offset such as `GMT+0800`).
    /// - Throws: a usage `TimelineError` (reason `.unknownZone`) when the identifier is
    ///   unknown to the tz database.
    public init(_ timeZone: TimeZone) throws(TimelineError) {
        // `TimeZone(secondsFromGMT:)` names itself `GMT+0800`: a fixed offset, not a zone.
        let isFixed = timeZone.identifier.hasPrefix("GMT") && timeZone.identifier.count > 3
        if !isFixed, let rules = ZoneResolver.ianaRules(timeZone.identifier) {
            self.init(
                rules: rules,
                kind: timeZone.identifier == "UTC" || timeZone.identifier == "GMT" ? .utc : .iana)
            return
        }
        let seconds = timeZone.secondsFromGMT()
        guard timeZone.nextDaylightSavingTimeTransition == nil,
            let offset = UTCOffset(
                hours: abs(seconds) / 3600, minutes: abs(seconds) % 3600 / 60,
                seconds: abs(seconds) % 60, negative: seconds < 0)
        else {
            throw ZoneResolutionError.unknownZone(timeZone.identifier).timelineError
        }
        self.init(
            rules: ZoneRules(fixed: offset, identifier: "UTC" + offset.isoString),
            kind: .fixedOffset, fixedOffset: offset)
    }
}

extension CivilDate {
    /// The date `components` name (year, month and day must all be set).
    public init?(_ components: DateComponents) {
        guard let year = components.year, let month = components.month, let day = components.day
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The calendar date (Gregorian) of `date` in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        self =
            CivilDate(year: c.year!, month: c.month!, day: c.day!) ?? CivilDate(daysSinceEpoch: 0)
    }

    /// Year, month and day as `DateComponents` (Gregorian).
    public var dateComponents: DateComponents {
        DateComponents(
            calendar: Calendar(identifier: .gregorian), year: year, month: month, day: day)
    }

    /// The moment the day begins in `zone` (its first existing local time when midnight
    /// falls in a DST gap).
    public func start(in zone: ResolvedZone) -> Instant {
        zone.rules.instantReadingGapsForward(LocalDateTime(date: self, hour: 0, minute: 0)!)
    }
}

extension LocalDateTime {
    /// Year, month, day, hour, minute, second and nanosecond as `DateComponents` (Gregorian).
    public var dateComponents: DateComponents {
        DateComponents(
            calendar: Calendar(identifier: .gregorian), year: date.year, month: date.month,
            day: date.day, hour: hour, minute: minute,
            second: second, nanosecond: nanosecond)
    }
}

extension TimelineLocale {
    /// The Foundation locale of the language (`en`, `zh-Hans`).
    public var locale: Locale { Locale(identifier: rawValue) }
}

extension TimelineSection {
    /// Sections as an app's screen shows them: days in `calendar`'s time zone (dates are
    /// Gregorian whatever the calendar's identifier), titles in `locale`'s language
    /// (Chinese for any `zh` locale, else English), relative times against `now`.
    /// - Throws: a usage `TimelineError` (reason `.unknownZone`) when the calendar's time
    ///   zone is not one the tz database knows.
    public static func sections(
        of events: some Sequence<Event>, by unit: GroupingUnit = .day, calendar: Calendar,
        locale: Locale, now: Date? = nil, order: SortOrder = .asc
    ) throws(TimelineError) -> [TimelineSection] {
        sections(
            of: events, by: unit, zone: try ResolvedZone(calendar.timeZone),
            locale: TimelineLocale(locale), now: now.map(Instant.init), order: order)
    }
}
