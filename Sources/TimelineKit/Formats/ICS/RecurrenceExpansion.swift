/// `--expand FROM..UNTIL`: turn recurring series into one event per occurrence in a window.
package struct RecurrenceExpansion: Hashable, Sendable {
    /// A window end: a calendar date (the whole day, in each series' own zone) or an instant.
    public enum Bound: Hashable, Sendable {
        /// A whole day, in each series' own zone.
        case date(CivilDate)
        /// An exact moment.
        case instant(Instant)
    }

    /// The window's first moment (inclusive).
    public var from: Bound
    /// The window's last moment (a date: through the end of that day).
    public var until: Bound
    /// Occurrences generated per series (counted from its start) before expansion stops.
    public var maxOccurrences: Int

    /// A window from `from` to `until`, cutting each series after `maxOccurrences`.
    public init(from: Bound, until: Bound, maxOccurrences: Int = 10_000) {
        self.from = from
        self.until = until
        self.maxOccurrences = maxOccurrences
    }

    /// Reads `FROM..UNTIL`, each a date (`2024-01-01`) or an instant with its offset
    /// (`2024-01-01T00:00:00Z`, `2024-01-01T08:00+08:00`).
    public static func parse(_ text: String, maxOccurrences: Int = 10_000) -> Result<
        RecurrenceExpansion, RecurrenceRuleError
    > {
        let ends = text.components(separatedBy: "..")
        guard ends.count == 2 else {
            return .failure(
                RecurrenceRuleError(
                    "'\(text)' is not a window FROM..UNTIL such as 2024-01-01..2024-12-31"))
        }
        var bounds: [Bound] = []
        for end in ends {
            guard let f = ISO8601Syntax.fields(end.trimmingSpaces) else {
                return .failure(
                    RecurrenceRuleError(
                        "window end '\(end)' is not a date (2024-01-01) or an instant (2024-01-01T00:00:00Z)"
                    ))
            }
            if !f.hasTime {
                bounds.append(.date(f.local.date))
            } else if let offset = f.offset {
                bounds.append(.instant(Instant(local: f.local, offset: offset)))
            } else {
                return .failure(
                    RecurrenceRuleError(
                        "window end '\(end)' has a time but no offset; add Z or ±HH:MM, or give a plain date"
                    ))
            }
        }
        let window = RecurrenceExpansion(
            from: bounds[0], until: bounds[1], maxOccurrences: maxOccurrences)
        return .success(window)
    }

    /// Whether an occurrence starting at `local` (with `instant`, nil for an all-day one)
    /// lies in the window.
    func contains(local: LocalDateTime, instant: Instant?) -> Bool {
        func after(_ b: Bound) -> Bool {  // at or after the bound's start
            switch b {
            case .date(let d): return local.date >= d
            case .instant(let i):
                return instant.map { $0 >= i } ?? (local.date >= i.local(in: .utc).date)
            }
        }
        func before(_ b: Bound) -> Bool {  // at or before the bound's end
            switch b {
            case .date(let d): return local.date <= d
            case .instant(let i):
                return instant.map { $0 <= i } ?? (local.date <= i.local(in: .utc).date)
            }
        }
        return after(from) && before(until)
    }

    /// The latest wall time any zone could show at the window's end (expansion stops there).
    var localLimit: LocalDateTime {
        switch until {
        case .date(let d):
            return LocalDateTime(
                unchecked: d, hour: 23, minute: 59, second: 59, nanosecond: 999_999_999)
        case .instant(let i):
            return LocalDateTime(secondsAsIfUTC: i.seconds + 18 * 3600, nanosecond: 999_999_999)
        }
    }
}
