/// An RFC 5545 recurrence rule (`RRULE` value), parsed but not yet expanded.
///
/// The date engine owns it, not the ICS importer: any format that carries a rule can use it.
/// Weekdays are ISO numbers (1 = Monday … 7 = Sunday).
package struct RecurrenceRule: Hashable, Sendable {
    package enum Frequency: Int, Comparable, Sendable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        package static func < (a: Frequency, b: Frequency) -> Bool { a.rawValue < b.rawValue }
    }

    /// `BYDAY` entry: a weekday, optionally the n-th of its month or year (`2MO`, `-1FR`).
    package struct WeekdayEntry: Hashable, Sendable {
        package var ordinal: Int?
        package var weekday: Int
    }

    /// `UNTIL`: a date (inclusive day), a floating local time, or a UTC instant.
    package enum Until: Hashable, Sendable {
        case date(CivilDate)
        case local(LocalDateTime)
        case utc(Instant)
    }

    package var frequency: Frequency
    package var interval = 1
    package var count: Int?
    package var until: Until?
    package var byMonth: [Int] = []
    package var byWeekNumber: [Int] = []
    package var byYearDay: [Int] = []
    package var byMonthDay: [Int] = []
    package var byDay: [WeekdayEntry] = []
    package var byHour: [Int] = []
    package var byMinute: [Int] = []
    package var bySecond: [Int] = []
    package var bySetPosition: [Int] = []
    package var weekStart = 1
    /// What the rule said that was read another way than written (a `COUNT=-1` beside an
    /// `UNTIL`, ignored), for a warning.
    package var readings: [String] = []

    package init(frequency: Frequency) {
        self.frequency = frequency
    }

    static let weekdayCodes = ["MO": 1, "TU": 2, "WE": 3, "TH": 4, "FR": 5, "SA": 6, "SU": 7]

    /// Parses `FREQ=…;INTERVAL=…;…`. Rule parts are case-insensitive; an unknown part is an
    /// error (silently dropping one would expand a different series than the sender meant).
    package static func parse(_ text: String) -> Result<RecurrenceRule, RecurrenceRuleError> {
        var parts: [String: String] = [:]
        for piece in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else {
                return .failure(RecurrenceRuleError("rule part '\(piece)' has no '='"))
            }
            let name = String(pair[0]).trimmingSpaces.uppercased()
            guard parts[name] == nil else {
                return .failure(RecurrenceRuleError("rule part \(name) appears twice"))
            }
            parts[name] = String(pair[1]).trimmingSpaces.uppercased()
        }
        guard let freqText = parts.removeValue(forKey: "FREQ") else {
            return .failure(RecurrenceRuleError("FREQ is missing"))
        }
        let frequencies: [String: Frequency] = [
            "SECONDLY": .secondly, "MINUTELY": .minutely, "HOURLY": .hourly, "DAILY": .daily,
            "WEEKLY": .weekly, "MONTHLY": .monthly, "YEARLY": .yearly,
        ]
        guard let frequency = frequencies[freqText] else {
            return .failure(RecurrenceRuleError("FREQ=\(freqText) is not SECONDLY…YEARLY"))
        }
        var rule = RecurrenceRule(frequency: frequency)
        do throws(RecurrenceRuleError) {
            func numbers(_ name: String, _ allowed: ClosedRange<Int>, signed: Bool)
                throws(RecurrenceRuleError) -> [Int]
            {
                guard let value = parts.removeValue(forKey: name) else { return [] }
                var out: [Int] = []
                for item in value.split(separator: ",") {
                    guard let n = Int(item), allowed.contains(abs(n)), signed || n >= 0,
                        n != 0 || allowed.lowerBound == 0
                    else {
                        throw RecurrenceRuleError(
                            "\(name)=\(value): '\(item)' is outside \(signed ? "±" : "")\(allowed)")
                    }
                    out.append(n)
                }
                return out
            }
            if let v = parts.removeValue(forKey: "INTERVAL") {
                guard let n = Int(v), n >= 1 else {
                    throw RecurrenceRuleError("INTERVAL=\(v) is not a positive integer")
                }
                // A million steps of any frequency is past year 9999 or at least days apart
                // enough; anything larger only risks arithmetic overflow.
                guard n <= 1_000_000 else {
                    throw RecurrenceRuleError("INTERVAL=\(v) is larger than 1000000")
                }
                rule.interval = n
            }
            if let v = parts.removeValue(forKey: "COUNT") {
                // Confluence and a DAVx5 release write `COUNT=-1` beside an UNTIL to mean "no
                // count": the UNTIL bounds the series.
                if let n = Int(v), n <= 0, parts["UNTIL"] != nil {
                    rule.readings.append(
                        "COUNT=\(v) beside UNTIL is ignored: the series runs until UNTIL")
                } else {
                    guard let n = Int(v), n >= 1 else {
                        throw RecurrenceRuleError("COUNT=\(v) is not a positive integer")
                    }
                    rule.count = n
                }
            }
            if let v = parts.removeValue(forKey: "UNTIL") {
                guard rule.count == nil else {
                    throw RecurrenceRuleError("UNTIL and COUNT may not both be given")
                }
                guard let until = untilValue(v) else {
                    throw RecurrenceRuleError("UNTIL=\(v) is not a DATE or DATE-TIME")
                }
                rule.until = until
            }
            rule.bySecond = try numbers("BYSECOND", 0...60, signed: false)
            rule.byMinute = try numbers("BYMINUTE", 0...59, signed: false)
            rule.byHour = try numbers("BYHOUR", 0...23, signed: false)
            rule.byMonthDay = try numbers("BYMONTHDAY", 1...31, signed: true)
            rule.byYearDay = try numbers("BYYEARDAY", 1...366, signed: true)
            rule.byWeekNumber = try numbers("BYWEEKNO", 1...53, signed: true)
            rule.byMonth = try numbers("BYMONTH", 1...12, signed: false)
            rule.bySetPosition = try numbers("BYSETPOS", 1...366, signed: true)
            if let v = parts.removeValue(forKey: "BYDAY") {
                for item in v.split(separator: ",") {
                    let code = String(item.suffix(2))
                    let prefix = item.dropLast(2)
                    guard let weekday = weekdayCodes[code] else {
                        throw RecurrenceRuleError(
                            "BYDAY=\(v): '\(item)' is not a weekday such as MO or -1FR")
                    }
                    var ordinal: Int?
                    if !prefix.isEmpty {
                        guard let n = Int(prefix.hasPrefix("+") ? prefix.dropFirst() : prefix),
                            (1...53).contains(abs(n))
                        else {
                            throw RecurrenceRuleError(
                                "BYDAY=\(v): '\(item)' has an ordinal outside ±1…53")
                        }
                        ordinal = n
                    }
                    rule.byDay.append(WeekdayEntry(ordinal: ordinal, weekday: weekday))
                }
            }
            if let v = parts.removeValue(forKey: "WKST") {
                guard let weekday = weekdayCodes[v] else {
                    throw RecurrenceRuleError("WKST=\(v) is not a weekday such as MO")
                }
                rule.weekStart = weekday
            }
            if let unknown = parts.keys.sorted().first {
                throw RecurrenceRuleError("unknown rule part \(unknown)")
            }
        } catch {
            return .failure(error)
        }
        return .success(rule)
    }

    private static func untilValue(_ text: String) -> Until? {
        guard let f = ISO8601Syntax.fields(text.hasSuffix("Z") ? String(text.dropLast()) : text),
            f.offset == nil
        else { return nil }
        let local = f.local
        if text.count == 8 { return .date(local.date) }
        return text.hasSuffix("Z") ? .utc(Instant(local: local, offset: .utc)) : .local(local)
    }
}

/// A recurrence rule or expansion window that cannot be read.
package struct RecurrenceRuleError: Error, Hashable, Sendable {
    /// What is wrong with it.
    public var message: String

    init(_ message: String) {
        self.message = message
    }
}
