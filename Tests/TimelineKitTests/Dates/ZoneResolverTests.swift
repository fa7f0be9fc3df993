import Foundation
import Testing

@testable import TimelineKit

@Suite("Zone names and zone rules")
struct ZoneResolverTests {
    @Test(
        "names resolve to the right IANA zone and kind",
        arguments: [
            ("Asia/Shanghai", "Asia/Shanghai", ZoneNameKind.iana),
            ("asia/shanghai", "Asia/Shanghai", .iana),
            ("US/Eastern", "America/New_York", .legacy),
            ("China Standard Time", "Asia/Shanghai", .windows),
            ("Pacific Standard Time", "America/Los_Angeles", .windows),
            ("W. Europe Standard Time", "Europe/Berlin", .windows),
            ("/mozilla.org/20050126_1/America/New_York", "America/New_York", .vendor),
            ("/softwarestudio.org/Olson_20011030_5/Europe/London", "Europe/London", .vendor),
            ("UTC", "UTC", .utc), ("Z", "UTC", .utc), ("GMT", "UTC", .utc),
            ("Etc/UTC", "UTC", .utc),
            ("JST", "Asia/Tokyo", .abbreviation), ("PDT", "America/Los_Angeles", .abbreviation),
        ])
    func resolves(name: String, iana: String, kind: ZoneNameKind) throws {
        let z = try ZoneResolver().resolve(name)
        #expect(z.identifier == iana)
        #expect(z.kind == kind)
    }

    @Test("Etc/GMT+8 is eight hours BEHIND UTC (POSIX sign)")
    func etcSign() throws {
        let z = try ZoneResolver().resolve("Etc/GMT+8")
        #expect(z.rules.offset(atEpochSeconds: 0).seconds == -8 * 3600)
    }

    @Test(
        "ambiguous abbreviations are refused with their candidates",
        arguments: ["CST", "IST", "BST", "AST", "EST"])
    func ambiguous(name: String) {
        #expect(throws: ZoneResolutionError.self) { try ZoneResolver().resolve(name) }
        do {
            _ = try ZoneResolver().resolve(name)
        } catch {
            guard case .ambiguousAbbreviation(_, let candidates) = error else {
                Issue.record("\(name): \(error)")
                return
            }
            #expect(candidates.count >= 2)
            #expect(
                SettingText.rendered(error.message, for: .commandLine).contains(
                    "--abbrev \(name)="))
            #expect(
                SettingText.rendered(error.message, for: .library).contains(
                    "ReadOptions.zoneAbbreviations[\"\(name)\"] = "))
        }
    }

    @Test("unknown names are refused")
    func unknown() {
        #expect(throws: ZoneResolutionError.unknownZone("Mars/Olympus")) {
            try ZoneResolver().resolve("Mars/Olympus")
        }
        #expect(throws: ZoneResolutionError.self) { try ZoneResolver().resolve("") }
    }

    @Test("the generated Windows table has CLDR's 001 rows")
    func windowsTable() {
        #expect(ZoneResolver.windowsZones.count > 130)
        #expect(ZoneResolver.windowsZones["Tokyo Standard Time"] == "Asia/Tokyo")
        for (_, iana) in ZoneResolver.windowsZones {
            #expect(ZoneResolver.ianaRules(iana) != nil, "\(iana)")
        }
    }

    static let propertyZones = [
        "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
        "America/Anchorage",
        "America/Sao_Paulo", "America/Santiago", "America/Havana", "America/St_Johns",
        "America/Mexico_City",
        "Europe/London", "Europe/Paris", "Europe/Berlin", "Europe/Moscow", "Europe/Dublin",
        "Europe/Lisbon",
        "Europe/Istanbul", "Africa/Cairo", "Africa/Casablanca", "Africa/Johannesburg",
        "Asia/Shanghai",
        "Asia/Tokyo", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Tehran", "Asia/Jerusalem",
        "Asia/Dubai",
        "Asia/Singapore", "Asia/Hong_Kong", "Asia/Seoul", "Australia/Sydney", "Australia/Adelaide",
        "Australia/Lord_Howe", "Australia/Perth", "Pacific/Auckland", "Pacific/Chatham",
        "Pacific/Apia",
        "Pacific/Kiritimati", "Atlantic/Azores", "UTC",
    ]

    @Test(
        "offsets agree with Foundation's TimeZone, including one second either side of every transition"
    )
    func offsetsAgreeWithFoundation() throws {
        var checked = 0
        for name in Self.propertyZones {
            let rules = try #require(ZoneResolver.ianaRules(name))
            let tz = try #require(TimeZone(identifier: name))
            var cursor: Int64 = -2_208_988_800  // 1900
            while let t = rules.nextTransition(afterEpochSeconds: cursor), t.at < 4_102_444_800 {
                for s in [t.at - 1, t.at, t.at + 1] {
                    #expect(
                        rules.offset(atEpochSeconds: s).seconds
                            == tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s))),
                        "\(name) at \(s)")
                    checked += 1
                }
                cursor = t.at
            }
        }
        #expect(checked > 5000)
    }

    @Test(
        "random instants 1900–2100 in 40 zones: format the wall time, read it back with the zone, same instant"
    )
    func roundTripProperty() throws {
        var generator = SplitMix64(seed: 0x5EED)
        for name in Self.propertyZones {
            let zone = try ZoneResolver().resolve(name)
            let tz = try #require(TimeZone(identifier: name))
            var options = DateParsingOptions()
            options.assumedZone = zone
            let parser = DateParser(options: options)
            for _ in 0..<250 {
                let seconds = Int64(generator.next() % 6_311_433_600) - 2_208_988_800
                let nanos = Int32(generator.next() % 1_000_000_000)
                let instant = Instant(seconds: seconds, nanoseconds: nanos)
                let offset = zone.rules.offset(at: instant)
                #expect(
                    offset.seconds
                        == tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))),
                    "\(name) \(seconds)")
                let wall = instant.local(in: offset).isoString(fractionDigits: 9)
                guard case .success(let parsed) = parser.parse(wall) else {
                    Issue.record("\(name): \(wall) did not parse")
                    continue
                }
                if parsed.value.instant != instant {
                    // Only a repeated wall time may read back as its other occurrence.
                    guard case .ambiguousLocalTime(_, _, _, let other)? = parsed.notice else {
                        Issue.record("\(name): \(wall) read back as \(parsed.value.rfc3339)")
                        continue
                    }
                    #expect(other == offset, "\(name) \(wall)")
                }
                // And with the offset written out, always exact.
                let explicit = TimeValue(
                    instant: instant, offset: offset, basis: .offset, fractionDigits: 9
                ).rfc3339
                #expect(
                    (try? DateParser().parse(explicit).get().value.instant) == instant,
                    "\(explicit)")
            }
        }
    }
}
