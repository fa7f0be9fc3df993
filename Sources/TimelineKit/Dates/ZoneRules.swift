import Foundation

/// The offset rules of one time zone, as an immutable table of transitions read once from
/// Foundation's `TimeZone` (the system tz database) and searched by bisection.
///
/// Never built from `TimeZone.current`: every zone is named.
package final class ZoneRules: Sendable {
    /// The IANA id (or `UTC`, or a fixed-offset name such as `UTC+08:00`).
    public let identifier: String
    /// Transition instants (seconds since the epoch), ascending.
    private let transitionTimes: [Int64]
    /// `offsets[i]` applies before `transitionTimes[i]`; the last one after the last transition.
    private let offsets: [Int32]
    private let timeZone: TimeZone?

    /// The table covers transitions up to this instant (2200-01-01); later instants ask
    /// Foundation directly.
    static let tableEnd: Int64 = 7_258_118_400
    static let tableStart: Int64 = -5_364_662_400  // 1800-01-01

    /// A zone with one offset for all time.
    package init(fixed offset: UTCOffset, identifier: String) {
        self.identifier = identifier
        self.transitionTimes = []
        self.offsets = [Int32(offset.seconds)]
        self.timeZone = nil
    }

    /// UTC: offset zero at every instant.
    public static let utc = ZoneRules(fixed: .utc, identifier: "UTC")

    /// A zone given by its transitions (an iCalendar VTIMEZONE): `initial` before the first,
    /// then each transition's offset from its instant on. Transitions need not be sorted.
    package init(
        identifier: String, initial: UTCOffset, transitions: [(at: Int64, offset: UTCOffset)]
    ) {
        self.identifier = identifier
        timeZone = nil
        var times: [Int64] = []
        var offs: [Int32] = [Int32(initial.seconds)]
        for t in transitions.sorted(by: { $0.at < $1.at })
        where Int32(t.offset.seconds) != offs[offs.count - 1] {
            times.append(t.at)
            offs.append(Int32(t.offset.seconds))
        }
        transitionTimes = times
        offsets = offs
    }

    init(timeZone: TimeZone) {
        identifier = timeZone.identifier
        self.timeZone = timeZone
        var times = [Int64]()
        var offs = [
            Int32(
                timeZone.secondsFromGMT(
                    for: Date(timeIntervalSince1970: Double(ZoneRules.tableStart))))
        ]
        var cursor = Date(timeIntervalSince1970: Double(ZoneRules.tableStart))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor),
            next.timeIntervalSince1970 < Double(ZoneRules.tableEnd)
        {
            let t = Int64(next.timeIntervalSince1970.rounded(.down))
            let after = Int32(timeZone.secondsFromGMT(for: next))
            if after != offs[offs.count - 1] {
                times.append(t)
                offs.append(after)
            }
            cursor = next
        }
        transitionTimes = times
        offsets = offs
    }

    /// True when the zone has a single offset (UTC, `Etc/GMT+8`, a fixed offset).
    package var isFixed: Bool { transitionTimes.isEmpty && timeZone == nil }

    /// Every transition (instant, offset after it) from the table, in order.
    package var transitions: [(at: Int64, offset: UTCOffset)] {
        zip(transitionTimes, offsets.dropFirst()).map { ($0, UTCOffset(seconds: Int($1))) }
    }

    /// The UTC offset in force at `seconds` since the epoch.
    package func offset(atEpochSeconds seconds: Int64) -> UTCOffset {
        if seconds >= ZoneRules.tableEnd, let tz = timeZone {
            return UTCOffset(
                seconds: tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        }
        return UTCOffset(seconds: Int(offsets[indexOfOffset(at: seconds)]))
    }

    /// The zone's UTC offset at `instant`.
    public func offset(at instant: Instant) -> UTCOffset {
        offset(atEpochSeconds: instant.seconds)
    }

    /// Index into `offsets` of the offset in force at `seconds`.
    @inline(__always)
    private func indexOfOffset(at seconds: Int64) -> Int {
        var low = 0
        var high = transitionTimes.count
        while low < high {
            let mid = (low + high) / 2
            if transitionTimes[mid] <= seconds { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// How a wall-clock time maps to instants in this zone.
    public enum LocalTimeResolution: Hashable, Sendable {
        /// The time exists once.
        case unique(UTCOffset)
        /// The time does not exist (clocks jumped from `before` to `after`).
        case gap(before: UTCOffset, after: UTCOffset)
        /// The time exists twice: first with `earlier`, then with `later` offset.
        case overlap(earlier: UTCOffset, later: UTCOffset)
    }

    /// `local` as an instant the way RFC 5545 §3.3.5 reads calendar times: the first of two
    /// in an overlap, and a time in a gap read with the offset before it (so it lands after
    /// the transition). No policy, no notice: for comparisons such as a recurrence's UNTIL.
    package func instantReadingGapsForward(_ local: LocalDateTime) -> Instant {
        switch resolve(local) {
        case .unique(let o), .gap(let o, _), .overlap(let o, _):
            return Instant(local: local, offset: o)
        }
    }

    /// Finds the offsets at which `local` is a valid wall time in this zone.
    public func resolve(_ local: LocalDateTime) -> LocalTimeResolution {
        let wall = local.secondsAsIfUTC
        if transitionTimes.isEmpty && timeZone == nil {
            return .unique(UTCOffset(seconds: Int(offsets[0])))
        }
        // Candidate offsets: those in force within a day either side (no zone's offset
        // exceeds ±18 h, and transitions are further apart than that).
        let window: Int64 = 86_400 + 18 * 3600
        var candidates: [Int] = [offset(atEpochSeconds: wall - window).seconds]
        var i = indexOfOffset(at: wall - window)
        while i < transitionTimes.count, transitionTimes[i] <= wall + window {
            candidates.append(Int(offsets[i + 1]))
            i += 1
        }
        if wall + window >= ZoneRules.tableEnd {
            candidates.append(offset(atEpochSeconds: wall + window).seconds)
        }
        var valid: [Int] = []
        for candidate in candidates where !valid.contains(candidate) {
            if offset(atEpochSeconds: wall - Int64(candidate)).seconds == candidate {
                valid.append(candidate)
            }
        }
        switch valid.count {
        case 1:
            return .unique(UTCOffset(seconds: valid[0]))
        case 0:
            let largest = candidates.max() ?? 0
            let smallest = candidates.min() ?? 0
            let before = offset(atEpochSeconds: wall - Int64(largest))
            let after = offset(atEpochSeconds: wall - Int64(smallest))
            return .gap(before: before, after: after)
        default:
            // The larger offset gives the earlier instant.
            return .overlap(
                earlier: UTCOffset(seconds: valid.max()!), later: UTCOffset(seconds: valid.min()!))
        }
    }

    /// The next transition strictly after `seconds`, if any (for `timeline zones`).
    package func nextTransition(afterEpochSeconds seconds: Int64) -> (at: Int64, offset: UTCOffset)?
    {
        let i = indexOfOffset(at: seconds)
        guard i < transitionTimes.count else { return nil }
        return (transitionTimes[i], UTCOffset(seconds: Int(offsets[i + 1])))
    }

    /// The calendar day of `instant` in this zone.
    public func day(of instant: Instant) -> CivilDate {
        CivilDate(daysSinceEpoch: dayNumber(of: instant))
    }

    /// The day of `instant` in this zone as days since 1970-01-01 (no calendar conversion).
    package func dayNumber(of instant: Instant) -> Int64 {
        LocalDateTime.dayAndSecond(
            ofSecondsAsIfUTC: instant.seconds + Int64(offset(at: instant).seconds)
        ).day
    }

    /// The offset last looked up and the seconds it is in force for, so that a run of nearby
    /// instants (a file's events, hours apart) skips the search of the transitions.
    package struct OffsetCache {
        fileprivate var from = Int64.max
        fileprivate var until = Int64.min
        fileprivate var offset: Int32 = 0

        package init() {}
    }

    /// `dayNumber(of:)`, the offset taken from `cache` when it covers the instant.
    package func dayNumber(of instant: Instant, cache: inout OffsetCache) -> Int64 {
        let seconds = instant.seconds
        if !(cache.from <= seconds && seconds < cache.until) {
            // past the table: asked of Foundation
            if seconds >= ZoneRules.tableEnd, timeZone != nil { return dayNumber(of: instant) }
            let i = indexOfOffset(at: seconds)
            cache.from = i == 0 ? Int64.min : transitionTimes[i - 1]
            cache.until =
                i < transitionTimes.count
                ? transitionTimes[i] : (timeZone != nil ? ZoneRules.tableEnd : Int64.max)
            cache.offset = offsets[i]
        }
        return LocalDateTime.dayAndSecond(ofSecondsAsIfUTC: seconds + Int64(cache.offset)).day
    }
}
