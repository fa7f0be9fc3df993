import Testing

@testable import TimelineKit

/// The sort key of the timeline order (`TimelineSortKey`): its 64-bit prefix, which sorts
/// compare before the whole keys, must never order two keys against `compareTime`.
@Suite("Timeline order: the sort key's prefix")
struct TimelineOrderTests {
    /// Keys near the edges the prefix's fields cut at (days at the ends of the 22 bits, the
    /// seconds 14 hours before and 38 after a day's UTC midnight, nanoseconds that differ
    /// only below the 23 bits kept) and far outside them.
    static func keys(_ random: inout SplitMix64) -> [TimelineSortKey] {
        let days: [Int64] = [
            -(1 << 20) - 1, -(1 << 20), -(1 << 20) + 1, -719_162, -1, 0, 1, 19_890, 19_891,
            2_932_896, (1 << 22) - (1 << 20) - 2,
            (1 << 22) - (1 << 20) - 1, 1 << 40,
        ]
        var keys: [TimelineSortKey] = []
        for _ in 0..<3_000 {
            let day =
                random.next() % 3 == 0
                ? Int64(truncatingIfNeeded: random.next() >> 20)
                : days[Int(random.next() % UInt64(days.count))]
            let timed = random.next() % 4 != 0
            let around: [Int64] = [
                -60_000, -59_999, -50_400, 0, 86_399, 136_800, 202_142, 202_143, 202_144, 1 << 33,
            ]
            let second =
                day &* 86_400 &+ around[Int(random.next() % UInt64(around.count))]
                &+ Int64(random.next() % 3) - 1
            let nanos = Int32(
                random.next() % 3 == 0 ? random.next() % 128 : random.next() % 1_000_000_000)
            keys.append(
                TimelineSortKey(
                    day: day, timed: timed,
                    instant: timed
                        ? Instant(seconds: second, nanoseconds: nanos)
                        : Instant(seconds: Int64.min),
                    recordedDay: Int64(random.next() % 3),
                    recorded: Instant(seconds: Int64(random.next() % 5)), index: keys.count))
        }
        return keys
    }

    @Test("an earlier key never has a larger prefix, at the edges of every field and past them")
    func prefixKeepsOrder() {
        var random = SplitMix64(seed: 42)
        let keys = Self.keys(&random)
        var contradictions: [String] = []
        var ties = 0
        for _ in 0..<200_000 {
            let a = keys[Int(random.next() % UInt64(keys.count))]
            let b = keys[Int(random.next() % UInt64(keys.count))]
            let c = a.compareTime(b)
            if c < 0, a.orderPrefix > b.orderPrefix { contradictions.append("\(a) before \(b)") }
            if c != 0, a.orderPrefix == b.orderPrefix { ties += 1 }
        }
        #expect(contradictions.isEmpty, "\(contradictions.prefix(3))")
        // The prefix separates most keys that differ (else sorting by it would gain nothing).
        #expect(ties < 100_000, "\(ties)")
    }

    @Test(
        "sortedPositions (prefixes, whole keys on ties) gives the order of sorting by the whole keys, asc and desc"
    )
    func sortingByPrefix() {
        var random = SplitMix64(seed: 7)
        let keys = Self.keys(&random)
        for order in [SortOrder.asc, .desc] {
            let whole = keys.sorted { $0.precedes($1, in: order) }.map(\.index)
            let byPrefix = TimelineSortKey.sortedPositions(count: keys.count, in: order) {
                keys[$0]
            }.map { keys[$0].index }
            #expect(byPrefix == whole, "\(order)")
        }
    }
}
