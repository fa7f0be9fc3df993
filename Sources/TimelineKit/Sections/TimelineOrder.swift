/// How a converted timeline is ordered (`--sort`, docs/canonical-format.md).
public enum SortOrder: String, Sendable, CaseIterable {
    /// By start, then recorded, then input order. Needs every event before writing.
    case asc
    /// Latest first; ties keep input order.
    case desc
    /// As read: streams, in bounded memory.
    case input
}

/// The sort key (docs/canonical-format.md, "Ordering"): dates sort as their day in the display zone, before the timed
/// events of that day; then `recorded`; then input order.
struct TimelineSortKey: Comparable {
    var day: Int64
    var timed: Bool
    var instant: Instant
    var recordedDay: Int64
    var recorded: Instant
    var index: Int

    init(event: borrowing Event, index: Int, zone: ZoneRules) {
        (day, timed, instant) = TimelineSortKey.position(event.start, zone)
        if let r = event.recorded {
            let (d, _, i) = TimelineSortKey.position(r, zone)
            (recordedDay, recorded) = (d, i)
        } else {
            (recordedDay, recorded) = (Int64.min, Instant(seconds: Int64.min))
        }
        self.index = index
    }

    init(
        day: Int64, timed: Bool, instant: Instant, recordedDay: Int64, recorded: Instant, index: Int
    ) {
        (self.day, self.timed, self.instant, self.recordedDay, self.recorded, self.index) = (
            day, timed, instant, recordedDay, recorded, index
        )
    }

    private static func position(_ value: TimeValue, _ zone: ZoneRules) -> (Int64, Bool, Instant) {
        switch value.moment {
        case .date(let d):
            return (d.daysSinceEpoch, false, Instant(seconds: Int64.min))
        case .instant(let i, _, _):
            return (zone.day(of: i).daysSinceEpoch, true, i)
        }
    }

    /// The key's time in 64 bits, in an order that never contradicts `compareTime`: an
    /// earlier key's prefix is never larger, so a sort may compare prefixes and fall back to
    /// the whole keys only where they are equal. From the top: the day (22 bits), timed (1),
    /// for a timed key its second counted from the UTC midnight of its day (18; a day in a
    /// zone lies within 14 hours before and 38 after it) and the top 23 bits of its
    /// nanoseconds. What does not fit is pinned to the ends of its field with nothing below
    /// it, so it only ties (years far outside 0001–9999 cannot be read).
    var orderPrefix: UInt64 {
        let dayField = day &+ (1 << 20)
        guard dayField >= 1 else { return 0 }
        guard dayField <= (1 << 22) - 2 else { return .max }
        var prefix = UInt64(dayField) << 42
        guard timed else { return prefix }
        prefix |= 1 << 41
        let (second, overflow) = instant.seconds.subtractingReportingOverflow(
            day &* 86_400 &- 60_000)
        if overflow || second >= (1 << 18) - 1 { return prefix | ((1 << 18) - 1) << 23 }
        guard second >= 1 else { return prefix }
        return prefix | UInt64(second) << 23 | UInt64(instant.nanoseconds) >> 7
    }

    /// The positions `0..<count` in `order` (`.asc` or `.desc`) of the keys `key` gives: the
    /// positions are sorted as 16-byte pairs with their keys' prefixes (`orderPrefix`), the
    /// whole keys compared only where prefixes tie — an integer comparison, not the keys'
    /// fields one by one, and little memory moved.
    static func sortedPositions(count: Int, in order: SortOrder, key: (Int) -> TimelineSortKey)
        -> [Int]
    {
        var pairs = (0..<count).map { (prefix: key($0).orderPrefix, position: Int32($0)) }
        let ascending = order == .asc
        pairs.sort { a, b in
            a.prefix != b.prefix
                ? (a.prefix < b.prefix) == ascending
                : key(Int(a.position)).precedes(key(Int(b.position)), in: order)
        }
        return pairs.map { Int($0.position) }
    }

    /// Compares everything but the input index.
    func compareTime(_ other: TimelineSortKey) -> Int {
        if (day, timed ? 1 : 0) != (other.day, other.timed ? 1 : 0) {
            return (day, timed ? 1 : 0) < (other.day, other.timed ? 1 : 0) ? -1 : 1
        }
        if instant != other.instant { return instant < other.instant ? -1 : 1 }
        if (recordedDay, recorded) != (other.recordedDay, other.recorded) {
            return (recordedDay, recorded.seconds, recorded.nanoseconds) < (
                other.recordedDay, other.recorded.seconds, other.recorded.nanoseconds
            )
                ? -1 : 1
        }
        return 0
    }

    /// Whether this key's event comes before `other`'s in `order` (`.asc` or `.desc`): by
    /// time, ties in input order either way.
    func precedes(_ other: TimelineSortKey, in order: SortOrder) -> Bool {
        let c = compareTime(other)
        if c == 0 { return index < other.index }
        return order == .asc ? c < 0 : c > 0
    }

    static func < (a: TimelineSortKey, b: TimelineSortKey) -> Bool {
        let c = a.compareTime(b)
        return c != 0 ? c < 0 : a.index < b.index
    }
}

extension Array where Element == Event {
    /// The positions of the events in `order` with `zone` as the display zone; stable on
    /// ties. Sorts small keys rather than the events themselves, which are large.
    package func timelineOrder(_ order: SortOrder, zone: ZoneRules) -> [Int] {
        guard order != .input else { return [Int](0..<count) }
        let keys = enumerated().map {
            TimelineSortKey(event: $0.element, index: $0.offset, zone: zone)
        }
        return TimelineSortKey.sortedPositions(count: keys.count, in: order) { keys[$0] }
    }

    /// The events in `order` (see `timelineOrder`).
    package func sortedForTimeline(_ order: SortOrder, zone: ZoneRules) -> [Event] {
        timelineOrder(order, zone: zone).map { self[$0] }
    }
}
