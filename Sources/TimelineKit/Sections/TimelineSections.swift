extension TimelineSection {
    /// `events` in sections by calendar day (or month) in a zone — what a timeline screen
    /// shows: a title per section (the date once per day), each event's time of day and
    /// relative time ("3 hours ago", "3小时前"), its amount, and income and expense per
    /// currency. The text, HTML and Markdown outputs are drawn the same way, and an app's
    /// `List` can be too:
    ///
    /// ```swift
    /// let sections = TimelineSection.sections(of: events, by: .day, zone: zone, locale: .simplifiedChinese, now: now)
    /// for section in sections {
    ///     print(section.title, section.relativeDay ?? "")   // 2024年6月12日 星期三 昨天
    ///     for entry in section.entries { print(entry.time, entry.event.title, entry.amount ?? "") }
    /// }
    /// ```
    ///
    /// The events are ordered by start, then recorded, then input order (`.desc` latest
    /// first; `.input` keeps them as given) and cut by `unit` in `zone` (`.none` cuts by
    /// day); an all-day date belongs to its own date in any zone. `now` is the moment
    /// relative times count from; without it there are none.
    public static func sections(
        of events: some Sequence<Event>, by unit: GroupingUnit = .day, zone: ResolvedZone,
        locale: TimelineLocale = .english, now: Instant? = nil, order: SortOrder = .asc
    ) -> [TimelineSection] {
        let all = Array(events)
        let ordered = order == .input ? all : all.sortedForTimeline(order, zone: zone.rules)
        let unit = unit == .none ? GroupingUnit.day : unit
        let today = now.map { zone.rules.day(of: $0) }
        return TimelineGrouping.group(ordered, unit: unit, zone: zone.rules).map { group in
            TimelineSection(
                group: group, unit: unit, zone: zone.rules, locale: locale, now: now, today: today)
        }
    }
}

/// One day (or month) of a timeline.
public struct TimelineSection: Sendable, Identifiable {
    /// `YYYY-MM-DD` for a day, `YYYY-MM` for a month, in the sections' zone.
    public var key: String
    /// The day, or the month's first day.
    public var date: CivilDate
    /// `Wed 12 Jun 2024` / `2024年6月12日 星期三`; for a month `June 2024` / `2024年6月`.
    public var title: String
    /// `today`, `yesterday`, `tomorrow` (`今天`, `昨天`, `明天`) for a day next to `now`.
    public var relativeDay: String?
    /// The events of the section, in order, as a screen shows them.
    public var entries: [TimelineEntry]
    /// Income and expense per currency (currencies sorted, amounts without one first).
    public var totals: [CurrencyTotal]
    /// The totals as words: `income +¥199.00`, `expense −¥12.50`, per currency in order;
    /// zero sides left out.
    public var totalsText: [[String]]

    public var id: String { key }

    init(
        group: TimelineGroup, unit: GroupingUnit, zone: ZoneRules, locale: TimelineLocale,
        now: Instant?, today: CivilDate?
    ) {
        self.init(headingOf: group, unit: unit, locale: locale, today: today)
        entries = group.events.map {
            TimelineEntry(event: $0, zone: zone, locale: locale, now: now)
        }
    }

    /// The section's heading and totals, with no entries: for an output that draws its
    /// events straight from the group.
    init(
        headingOf group: TimelineGroup, unit: GroupingUnit, locale: TimelineLocale,
        today: CivilDate?
    ) {
        key = group.key
        let parts = group.key.split(separator: "-").compactMap { Int($0) }
        date = CivilDate(year: parts[0], month: parts[1], day: parts.count > 2 ? parts[2] : 1)!
        if unit == .month {
            title = locale.month(year: date.year, month: date.month)
        } else {
            title = locale.day(date)
            if let today {
                switch date.daysSinceEpoch - today.daysSinceEpoch {
                case 0: relativeDay = locale.words.today
                case -1: relativeDay = locale.words.yesterday
                case 1: relativeDay = locale.words.tomorrow
                default: break
                }
            }
        }
        entries = []
        totals = group.totals
        totalsText = group.totals.map { $0.words(locale) }.filter { !$0.isEmpty }
    }
}

/// One event as a timeline screen shows it.
public struct TimelineEntry: Sendable {
    /// The event.
    public var event: Event
    /// The event's day in the sections' zone (an all-day date's own date).
    public var day: CivilDate
    /// `08:05` in the sections' zone, or `all day` / `全天`.
    public var time: String
    /// The day for month sections: `12 Jun` / `12日`, a day below 10 padded with a space.
    public var shortDay: String
    /// `just now`, `3 hours ago`, `in 15 hours` (`刚刚`, `3小时前`, `15小时后`) within a day
    /// of `now`; nil further away, for dates, and without `now`.
    public var relativeTime: String?
    /// The amount with its sign and currency symbol: `+¥199.00`, `−¥12.50`, `+3.00 SGD`.
    public var amount: String?

    init(event: Event, zone: ZoneRules, locale: TimelineLocale, now: Instant?) {
        self.event = event
        day = Self.day(of: event, zone: zone)
        shortDay = locale.shortDay(day)
        time = Self.time(of: event, zone: zone, locale: locale)
        relativeTime = Self.relativeTime(of: event, locale: locale, now: now)
        amount = event.amount.map { $0.formatted }
    }

    // The parts of an entry, for the outputs that draw events straight from a section's
    // group rather than copy each into an entry.

    /// `day`: the start's day in `zone`, or an all-day date's own date.
    static func day(of event: borrowing Event, zone: ZoneRules) -> CivilDate {
        event.start.date ?? zone.day(of: event.start.instant!)
    }

    /// `time`: `08:05` in `zone`, or `all day` / `全天`.
    static func time(of event: borrowing Event, zone: ZoneRules, locale: TimelineLocale) -> String {
        guard let instant = event.start.instant else { return locale.words.allDay }
        let local = instant.local(in: zone.offset(at: instant))
        return (local.hour < 10 ? "0" : "") + "\(local.hour):" + (local.minute < 10 ? "0" : "")
            + "\(local.minute)"
    }

    /// `relativeTime`: how long before or after `now` the start is, within a day of it.
    static func relativeTime(of event: borrowing Event, locale: TimelineLocale, now: Instant?)
        -> String?
    {
        guard let now, let instant = event.start.instant else { return nil }
        let seconds = now.seconds - instant.seconds
        let minutes = abs(seconds) / 60
        return minutes < 24 * 60 ? locale.relative(minutes: Int(minutes), past: seconds >= 0) : nil
    }
}

extension Amount {
    /// The amount as the readable outputs show it: a sign (`+`, or `−` U+2212), the
    /// currency's symbol for CNY, USD, EUR, GBP and JPY, else the code after the digits, and
    /// the whole part in groups of three (`−¥1,024.00`: both locales group so). A neutral
    /// amount has no sign.
    public var formatted: String {
        Self.format(value, currency: currency, signed: !neutral)
    }

    static func format(_ value: DecimalNumber, currency: String?, signed: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        if signed {
            out.append(utf8: value.isNegative ? "−" : "+")
        } else if value.isNegative {
            out.append(UInt8(ascii: "-"))
        }
        let symbol = currency.flatMap { symbols[$0] }
        if let symbol { out.append(utf8: symbol) }
        value.description.withByteView { text in
            appendGrouped(value.isNegative ? text[1...] : text, to: &out)
        }
        if symbol == nil, let currency {
            out.append(UInt8(ascii: " "))
            out.append(utf8: currency)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The currencies written as a symbol before the digits.
    private static let symbols = ["CNY": "¥", "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"]

    /// `1024.50` as `1,024.50`: commas between groups of three digits of the whole part.
    package static func grouped(_ digits: String) -> String {
        var out: [UInt8] = []
        digits.withByteView { appendGrouped($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `digits` with commas between groups of three digits of the whole part.
    private static func appendGrouped(_ digits: ByteView, to out: inout [UInt8]) {
        let whole = digits.firstIndex(of: UInt8(ascii: "."), from: 0) ?? digits.count
        for i in 0..<whole {
            if i > 0 && (whole - i) % 3 == 0 { out.append(UInt8(ascii: ",")) }
            out.append(digits[i])
        }
        digits[whole...].append(to: &out)
    }
}

extension Event {
    /// Money in (an amount neither negative nor neutral): the left of the split layouts.
    var isMoneyIn: Bool {
        guard let amount else { return false }
        return !amount.neutral && !amount.value.isNegative
    }
}

extension CurrencyTotal {
    /// `income +¥199.00` and `expense −¥12.50` in `locale`, leaving out a side that is zero.
    func words(_ locale: TimelineLocale) -> [String] {
        var parts: [String] = []
        if !income.isZero {
            parts.append("\(locale.words.income) " + Amount.format(income, currency: currency))
        }
        if !expense.isZero {
            parts.append("\(locale.words.expense) " + Amount.format(expense, currency: currency))
        }
        return parts
    }
}
