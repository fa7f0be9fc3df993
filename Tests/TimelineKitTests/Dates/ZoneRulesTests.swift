import Testing

@testable import TimelineKit

@Suite("ZoneRules")
struct ZoneRulesTests {
    @Test(
        "a day looked up through the offset cache is the day looked up without it",
        arguments: ["Europe/Berlin", "America/New_York", "Asia/Shanghai", "UTC"])
    func cachedDays(zone: String) throws {
        let rules = try ZoneResolver().resolve(zone).rules
        var random = SplitMix64(seed: 7)
        // Seconds around every transition of 1990-2040 (either side, and on it), times hours
        // apart in order (as a file's events come), random ones, and some past the table
        // (2300), where Foundation is asked.
        var seconds: [Int64] = []
        for t in rules.transitions.map(\.at) where t > 631_152_000 && t < 2_208_988_800 {
            seconds += [t - 1, t, t + 1, t - 3_600, t + 3_600]
        }
        var t: Int64 = 1_700_000_000
        for _ in 0..<2_000 {
            t += Int64(random.next() % 20_000)
            seconds.append(t)
        }
        for _ in 0..<2_000 { seconds.append(Int64(random.next() % 4_000_000_000) - 1_000_000_000) }
        seconds += [
            ZoneRules.tableEnd - 1, ZoneRules.tableEnd, ZoneRules.tableEnd + 86_400 * 200,
            10_413_792_000,
        ]
        var cache = ZoneRules.OffsetCache()
        for s in seconds {
            let instant = Instant(unchecked: s, nanoseconds: 0)
            #expect(
                rules.dayNumber(of: instant, cache: &cache) == rules.dayNumber(of: instant),
                "\(zone) at \(s)")
        }
    }
}
