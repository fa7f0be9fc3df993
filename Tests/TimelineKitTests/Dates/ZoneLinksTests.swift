import Foundation
import Testing

@testable import TimelineKit

/// Old and alternative zone names resolve to the zone they name, and events record that
/// zone's own name. The expected targets are the tz database's (`backward`), checked by
/// hand; the table is checked against the installed tzdata.zi, which generated it.
@Suite("Zone links")
struct ZoneLinksTests {
    static let links: [(String, String)] = [
        ("US/Eastern", "America/New_York"), ("US/Central", "America/Chicago"),
        ("US/Mountain", "America/Denver"), ("US/Pacific", "America/Los_Angeles"),
        ("US/Alaska", "America/Anchorage"), ("US/Hawaii", "Pacific/Honolulu"),
        ("US/Arizona", "America/Phoenix"), ("US/East-Indiana", "America/Indiana/Indianapolis"),
        ("Canada/Eastern", "America/Toronto"), ("Canada/Pacific", "America/Vancouver"),
        ("Asia/Calcutta", "Asia/Kolkata"), ("Asia/Saigon", "Asia/Ho_Chi_Minh"),
        ("Asia/Katmandu", "Asia/Kathmandu"), ("Asia/Rangoon", "Asia/Yangon"),
        ("Asia/Dacca", "Asia/Dhaka"), ("Asia/Ulan_Bator", "Asia/Ulaanbaatar"),
        ("Asia/Istanbul", "Europe/Istanbul"), ("Asia/Tel_Aviv", "Asia/Jerusalem"),
        ("Europe/Kiev", "Europe/Kyiv"), ("Atlantic/Faeroe", "Atlantic/Faroe"),
        ("America/Buenos_Aires", "America/Argentina/Buenos_Aires"),
        ("America/Indianapolis", "America/Indiana/Indianapolis"),
        ("America/Godthab", "America/Nuuk"), ("Asia/Thimbu", "Asia/Thimphu"),
        ("Asia/Macao", "Asia/Macau"), ("PRC", "Asia/Shanghai"),
        ("ROK", "Asia/Seoul"), ("Japan", "Asia/Tokyo"), ("Singapore", "Asia/Singapore"),
        ("Israel", "Asia/Jerusalem"),
    ]

    @Test("thirty links resolve to the zone they name, kind legacy; the zone's own name is iana")
    func linksResolve() throws {
        #expect(Self.links.count == 30)
        for (link, zone) in Self.links {
            let resolved = try ZoneResolver().resolve(link)
            #expect(resolved.identifier == zone, "\(link)")
            #expect(resolved.kind == .legacy, "\(link)")
            let own = try ZoneResolver().resolve(zone)
            #expect(own.identifier == zone && own.kind == .iana, "\(zone)")
        }
        // Case does not matter; Windows names land on the zone's own name too.
        let lower = try ZoneResolver().resolve("asia/calcutta")
        #expect(lower.identifier == "Asia/Kolkata" && lower.kind == .legacy)
        #expect(try ZoneResolver().resolve("India Standard Time").identifier == "Asia/Kolkata")
        #expect(try ZoneResolver().resolve("Greenwich").identifier == "UTC")
    }

    @Test("the generated table holds every link of the installed tz database")
    func tableIsCurrent() throws {
        let path = "/usr/share/zoneinfo/tzdata.zi"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        var installed: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("L ") {
            let parts = line.split(separator: " ")
            installed[String(parts[2])] = String(parts[1])
        }
        #expect(!installed.isEmpty)
        for (link, target) in installed {
            #expect(
                ZoneResolver.zoneLinks[link] == target,
                "\(link) → \(target) is not in ZoneLinks+Generated.swift: run scripts/generate-zone-links"
            )
        }
    }

    @Test("every name listed once; links listed as the zone they name")
    func listedOnce() {
        let rows = ZoneResolver.allNames()
        #expect(Set(rows.map(\.name)).count == rows.count)
        let byName = Dictionary(uniqueKeysWithValues: rows.map { ($0.name, $0) })
        #expect(byName["Asia/Kolkata"]?.kind == .iana)
        #expect(
            byName["Asia/Calcutta"]?.kind == .legacy
                && byName["Asia/Calcutta"]?.target == "Asia/Kolkata")
        #expect(byName["Europe/Kyiv"]?.kind == .iana)
    }

    @Test("a mistyped zone gets the nearest name; a short one only at one edit")
    func didYouMean() {
        #expect(ZoneResolver.nearestName(to: "Asia/Shangai") == "Asia/Shanghai")
        #expect(ZoneResolver.nearestName(to: "europe/berln") == "Europe/Berlin")
        #expect(ZoneResolver.nearestName(to: "Asia/Calcuta") == "Asia/Kolkata")
        #expect(ZoneResolver.nearestName(to: "Foo") == nil)
        #expect(
            ZoneResolutionError.unknownZone("Asia/Shangai").message.contains(
                "did you mean 'Asia/Shanghai'?"))
    }
}
