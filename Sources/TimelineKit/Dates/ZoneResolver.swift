import Foundation
import Synchronization

/// What a zone name turned out to be.
package enum ZoneNameKind: String, Sendable, Hashable {
    /// `UTC`, `GMT`, `Z`, `Etc/UTC`.
    case utc
    /// An IANA id (`Asia/Shanghai`).
    case iana
    /// An old or alternative name the tz database links to a zone (`US/Eastern`,
    /// `Asia/Calcutta`): resolved to that zone, whose name events record.
    case legacy
    /// A Windows zone name as Outlook and Exchange write it (`China Standard Time`), mapped
    /// with CLDR's table.
    case windows
    /// An ICS vendor id ending in an IANA id (`/freeassociation.sourceforge.net/Europe/Berlin`).
    case vendor
    /// An abbreviation with one meaning (`JST`, `PDT`).
    case abbreviation
    /// An abbreviation resolved with `--abbrev` (`CST=Asia/Shanghai`).
    case userAbbreviation
    /// A fixed offset written as a name (`UTC+8`, `GMT-05:00`).
    case fixedOffset
}

/// A resolved zone name: the rules to use, and — for abbreviations such as `PDT` that
/// denote one specific offset — that offset.
public struct ResolvedZone: Sendable {
    /// The zone's offsets over time.
    package var rules: ZoneRules
    /// What the name was.
    package var kind: ZoneNameKind
    /// Set for abbreviations with a fixed meaning (`PDT` is always -07:00).
    public var fixedOffset: UTCOffset?

    /// The IANA id (or `UTC`) the name resolves to.
    public var identifier: String { rules.identifier }

    /// A resolved zone from its parts.
    package init(rules: ZoneRules, kind: ZoneNameKind, fixedOffset: UTCOffset? = nil) {
        self.rules = rules
        self.kind = kind
        self.fixedOffset = fixedOffset
    }

    /// UTC.
    public static let utc = ResolvedZone(rules: .utc, kind: .utc)

    /// The zone `name` names: an IANA id (`Asia/Shanghai`), an old link (`US/Eastern`), a
    /// Windows name (`China Standard Time`), a vendor-prefixed id, `UTC`, a fixed offset
    /// (`UTC+8`), or an abbreviation with one meaning (`JST`) or one that `abbreviations`
    /// resolves (`["CST": "Asia/Shanghai"]`).
    /// - Throws: a usage `TimelineError` whose `reason` is `.unknownZone` (with the nearest
    ///   name, when one is near) or `.ambiguousZoneAbbreviation` (with its candidates).
    public init(named name: String, abbreviations: [String: String] = [:])
        throws(TimelineError)
    {
        do throws(ZoneResolutionError) {
            self = try ZoneResolver(abbreviationOverrides: abbreviations).resolve(name)
        } catch {
            throw error.timelineError
        }
    }

    /// The offset from UTC in effect at `instant` (the fixed one for an abbreviation).
    public func offset(at instant: Instant) -> UTCOffset {
        fixedOffset ?? rules.offset(at: instant)
    }

    /// The calendar day `instant` falls on in this zone.
    public func day(of instant: Instant) -> CivilDate {
        instant.local(in: offset(at: instant)).date
    }
}

/// Why a zone name could not be used.
package enum ZoneResolutionError: Error, Hashable, Sendable {
    /// An abbreviation with several meanings (`CST`, `IST`, `BST`, …).
    case ambiguousAbbreviation(String, candidates: [String])
    /// Neither IANA, legacy, Windows, vendor-prefixed nor a known abbreviation.
    case unknownZone(String)

    /// The error as the library's callers see it: a usage error with its reason, whose
    /// message names no command-line flag.
    package var timelineError: TimelineError {
        switch self {
        case .ambiguousAbbreviation(let name, let candidates):
            return TimelineError(
                .usage, .ambiguousZoneAbbreviation(name, candidates: candidates),
                "'\(name)' is an ambiguous zone abbreviation "
                    + "(\(candidates.joined(separator: ", "))); name the zone, or say which "
                    + "one it means in the zone abbreviations")
        case .unknownZone(let name):
            let near = ZoneResolver.nearestName(to: name)
            return TimelineError(
                .usage, .unknownZone(name, suggestion: near),
                "unknown time zone '\(name)'"
                    + (near.map { "; did you mean '\($0)'?" }
                        ?? "; use an IANA id such as 'Asia/Shanghai' or 'America/New_York'"))
        }
    }

    /// What is wrong and how to fix it on the command line, for a diagnostic.
    package var message: String {
        switch self {
        case .ambiguousAbbreviation(let name, let candidates):
            return
                "'\(name)' is an ambiguous zone abbreviation (\(candidates.joined(separator: ", "))); "
                + "resolve it with \(.abbrev, "\(name)=\(candidates.first ?? "Area/City")")"
        case .unknownZone(let name):
            if let near = ZoneResolver.nearestName(to: name) {
                return
                    "unknown time zone '\(name)'; did you mean '\(near)'? (see \(.zonesList))"
            }
            return "unknown time zone '\(name)'; use an IANA id such as 'Asia/Shanghai' or "
                + "'America/New_York' (see \(.zonesList))"
        }
    }
}

/// Resolves zone names: IANA ids and legacy links from the system tz database, Windows
/// names (CLDR), `/vendor/…/Area/City` ids, `UTC`/`GMT`/`Z`, and abbreviations only when
/// unambiguous or resolved by the user (`--abbrev CST=Asia/Shanghai`).
package struct ZoneResolver: Sendable {
    /// User resolutions of abbreviations, by upper-case abbreviation.
    package var abbreviationOverrides: [String: String]

    /// A resolver that also knows `overrides` (`["CST": "Asia/Shanghai"]`).
    package init(abbreviationOverrides: [String: String] = [:]) {
        var normalized: [String: String] = [:]
        for (k, v) in abbreviationOverrides { normalized[k.uppercased()] = v }
        self.abbreviationOverrides = normalized
    }

    /// Resolves `name`, or throws why it cannot be used.
    package func resolve(_ name: String) throws(ZoneResolutionError) -> ResolvedZone {
        let trimmed = name.trimmingWhitespaces
        let upper = trimmed.uppercased()
        if ["Z", "UTC", "GMT", "UT", "ETC/UTC", "ETC/GMT", "ZULU", "UCT", "ETC/UCT", "ETC/ZULU"]
            .contains(upper)
        {
            return ResolvedZone(rules: .utc, kind: .utc, fixedOffset: nil)
        }
        if let target = abbreviationOverrides[upper] {
            guard let rules = ZoneResolver.ianaRules(target) else { throw .unknownZone(target) }
            return ResolvedZone(rules: rules, kind: .userAbbreviation, fixedOffset: nil)
        }
        if let candidates = ZoneResolver.ambiguousAbbreviations[upper] {
            throw .ambiguousAbbreviation(trimmed, candidates: candidates)
        }
        if let (zone, offset) = ZoneResolver.abbreviations[upper],
            let rules = ZoneResolver.ianaRules(zone)
        {
            return ResolvedZone(
                rules: rules, kind: .abbreviation, fixedOffset: UTCOffset(seconds: offset))
        }
        if let rules = ZoneResolver.ianaRules(trimmed) {
            let kind: ZoneNameKind = ZoneResolver.isLink(trimmed) ? .legacy : .iana
            return ResolvedZone(rules: rules, kind: rules.identifier == "UTC" ? .utc : kind)
        }
        if let iana = ZoneResolver.windowsZones[trimmed]
            ?? ZoneResolver.windowsZonesLowercased[trimmed.lowercased()],
            let rules = ZoneResolver.ianaRules(iana)
        {
            return ResolvedZone(rules: rules, kind: .windows, fixedOffset: nil)
        }
        if trimmed.hasPrefix("/") {
            // `/mozilla.org/20050126_1/America/New_York`: try the trailing 3, then 2 parts.
            let parts = trimmed.split(separator: "/")
            for count in [3, 2] where parts.count > count {
                let candidate = parts.suffix(count).joined(separator: "/")
                if let rules = ZoneResolver.ianaRules(candidate) {
                    return ResolvedZone(rules: rules, kind: .vendor, fixedOffset: nil)
                }
            }
        }
        throw .unknownZone(trimmed)
    }

    /// The rules for an IANA id or link (case-insensitive), cached; nil when the tz
    /// database does not know it. A link gives its zone's rules under the zone's name
    /// (`Asia/Calcutta` is `Asia/Kolkata`; links to `Etc/UTC` and `Etc/GMT` are UTC).
    /// Abbreviation-like ids that Foundation accepts (`CST`, `EST`) are not looked up here —
    /// `resolve` decides about them first.
    package static func ianaRules(_ identifier: String) -> ZoneRules? {
        if identifier == "UTC" || identifier == "Etc/UTC" || identifier == "GMT" { return .utc }
        if let cached = cache.withLock({ $0[identifier] }) { return cached }
        // The name as written; the case-insensitive table (built on the first miss) only
        // when that names nothing.
        var found = rules(named: identifier)
        if found == nil, let exact = identifiersLowercased[identifier.lowercased()],
            exact != identifier
        {
            found = rules(named: exact)
        }
        guard let rules = found else { return nil }
        cache.withLock { $0[identifier] = rules }
        return rules
    }

    /// The rules of a zone or a link by its exact name: a link gives its zone's rules under
    /// the zone's name (or its own where an older tz database lacks the zone).
    private static func rules(named name: String) -> ZoneRules? {
        let target = linkTarget(name)
        if target == "Etc/UTC" || target == "Etc/GMT" { return .utc }
        var tz = target.flatMap { TimeZone(identifier: $0) }
        if tz == nil, name.contains("/") || name.count > 5 { tz = TimeZone(identifier: name) }
        guard let timeZone = tz else { return nil }
        return timeZone.identifier == "GMT" || timeZone.identifier == "UTC"
            ? ZoneRules.utc : ZoneRules(timeZone: timeZone)
    }

    private static let cache = Mutex<[String: ZoneRules]>([:])

    /// Makes a zone defined by an input itself (an iCalendar VTIMEZONE whose TZID is no tz
    /// database name, such as Outlook's `(UTC-03:00) Brasília`) known by its name for the rest
    /// of the run, so exporters can write times in it. Never replaces a tz database zone.
    package static func registerFileDefined(_ rules: ZoneRules) {
        // A blank TZID (Exchange writes `TZID:`) names nothing and must not become a zone.
        guard !rules.identifier.trimmingSpaces.isEmpty, ianaRules(rules.identifier) == nil else {
            return
        }
        cache.withLock { $0[rules.identifier] = rules }
    }

    /// The zone name within two edits of `name` (`Asia/Shangai` → `Asia/Shanghai`), ignoring
    /// case, for "did you mean"; a link is suggested as the zone it names.
    static func nearestName(to name: String) -> String? {
        let lower = name.lowercased()
        let length = lower.count
        // Two edits make a short name into many others (`Foo` into `ROC`): one for those.
        let edits = length >= 8 ? 2 : 1
        // A name whose length differs by more than the edits allowed is never near: only
        // the others are compared (an unknown zone is named in every message about it, and
        // a file can hold many).
        let candidates = suggestionNames.filter { abs($0.length - length) <= edits }
        guard
            let near = Suggestion.closest(
                lower, among: candidates.map(\.lowercased), maxDistance: edits)
        else { return nil }
        let found = candidates.first { $0.lowercased == near }!.name
        return linkTarget(found) ?? found
    }

    /// The names a near miss is compared with, zones then links, in that order.
    private static let suggestionNames: [(name: String, lowercased: String, length: Int)] =
        (canonicalIdentifiers + zoneLinks.keys.sorted()).map {
            ($0, $0.lowercased(), $0.lowercased().count)
        }

    /// The zone a link names (`Asia/Calcutta` → `Asia/Kolkata`); nil for a zone's own name.
    static func linkTarget(_ name: String) -> String? { zoneLinks[name] }

    /// Whether `name` (in any case) is a link rather than a zone's own name.
    static func isLink(_ name: String) -> Bool {
        zoneLinks[name] != nil
            || identifiersLowercased[name.lowercased()].map { zoneLinks[$0] != nil } == true
    }

    /// The tz database's zones, each by its own name: the system's list without its links,
    /// and the zones links name.
    static let canonicalIdentifiers: [String] = {
        var zones = Set(TimeZone.knownTimeZoneIdentifiers).subtracting(zoneLinks.keys)
        zones.formUnion(zoneLinks.values.filter { $0 != "Etc/UTC" && $0 != "Etc/GMT" })
        return zones.filter { TimeZone(identifier: $0) != nil }.sorted()
    }()

    private static let identifiersLowercased: [String: String] = {
        var map: [String: String] = [:]
        for id in TimeZone.knownTimeZoneIdentifiers { map[id.lowercased()] = id }
        for (link, zone) in zoneLinks {
            map[link.lowercased()] = link
            map[zone.lowercased()] = zone
        }
        return map
    }()
    private static let windowsZonesLowercased: [String: String] = {
        var map: [String: String] = [:]
        for (k, v) in windowsZones { map[k.lowercased()] = v }
        return map
    }()

    /// Abbreviations with one meaning: the zone they belong to and the offset they denote.
    static let abbreviations: [String: (String, Int)] = [
        "JST": ("Asia/Tokyo", 9 * 3600), "KST": ("Asia/Seoul", 9 * 3600),
        "HKT": ("Asia/Hong_Kong", 8 * 3600), "SGT": ("Asia/Singapore", 8 * 3600),
        "AWST": ("Australia/Perth", 8 * 3600), "ACST": ("Australia/Adelaide", 34_200),
        "ACDT": ("Australia/Adelaide", 37_800), "AEST": ("Australia/Sydney", 10 * 3600),
        "AEDT": ("Australia/Sydney", 11 * 3600), "NZST": ("Pacific/Auckland", 12 * 3600),
        "NZDT": ("Pacific/Auckland", 13 * 3600), "PST": ("America/Los_Angeles", -8 * 3600),
        "PDT": ("America/Los_Angeles", -7 * 3600), "MST": ("America/Denver", -7 * 3600),
        "MDT": ("America/Denver", -6 * 3600), "CDT": ("America/Chicago", -5 * 3600),
        "EDT": ("America/New_York", -4 * 3600), "AKST": ("America/Anchorage", -9 * 3600),
        "AKDT": ("America/Anchorage", -8 * 3600), "HST": ("Pacific/Honolulu", -10 * 3600),
        "NST": ("America/St_Johns", -12_600), "NDT": ("America/St_Johns", -9000),
        "CET": ("Europe/Paris", 3600), "CEST": ("Europe/Paris", 7200),
        "EET": ("Europe/Athens", 7200), "EEST": ("Europe/Athens", 10_800),
        "WET": ("Europe/Lisbon", 0), "WEST": ("Europe/Lisbon", 3600),
        "MSK": ("Europe/Moscow", 10_800), "PKT": ("Asia/Karachi", 18_000),
        "NPT": ("Asia/Kathmandu", 20_700), "WIB": ("Asia/Jakarta", 25_200),
        "ICT": ("Asia/Bangkok", 25_200), "PHT": ("Asia/Manila", 28_800),
        "MYT": ("Asia/Kuala_Lumpur", 28_800), "BRT": ("America/Sao_Paulo", -10_800),
        "ART": ("America/Argentina/Buenos_Aires", -10_800), "SAST": ("Africa/Johannesburg", 7200),
        "EAT": ("Africa/Nairobi", 10_800), "WAT": ("Africa/Lagos", 3600),
    ]

    /// Abbreviations with several meanings, refused unless `--abbrev` resolves them.
    static let ambiguousAbbreviations: [String: [String]] = [
        "CST": ["Asia/Shanghai", "America/Chicago", "America/Havana"],
        "IST": ["Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"],
        "BST": ["Europe/London", "Asia/Dhaka"],
        "AST": ["America/Halifax", "Asia/Riyadh"],
        "EST": ["America/New_York", "Australia/Sydney"],
        "ADT": ["America/Halifax", "Asia/Baghdad"],
        "GST": ["Asia/Dubai", "Atlantic/South_Georgia"],
        "SST": ["Pacific/Pago_Pago", "Asia/Singapore"],
        "CAT": ["Africa/Maputo", "America/Adak"],
        "ECT": ["America/Guayaquil", "Europe/Paris"],
    ]

    /// Every name this resolver knows, with its kind (for `timeline zones --list`).
    package static func allNames() -> [(name: String, kind: ZoneNameKind, target: String)] {
        var rows: [(String, ZoneNameKind, String)] = []
        func zone(_ name: String) -> String {
            let target = linkTarget(name) ?? name
            return target == "Etc/UTC" || target == "Etc/GMT" ? "UTC" : target
        }
        for id in canonicalIdentifiers { rows.append((id, .iana, id)) }
        for link in zoneLinks.keys.sorted() {
            let target = zone(link)
            rows.append((link, target == "UTC" ? .utc : .legacy, target))
        }
        // A Windows name that is also a tz database name (`UTC`) is listed once, as the latter.
        let listed = Set(rows.map(\.0))
        for (name, iana) in windowsZones.sorted(by: { $0.key < $1.key })
        where !listed.contains(name) {
            rows.append((name, .windows, zone(iana)))
        }
        for (name, (zone, _)) in abbreviations.sorted(by: { $0.key < $1.key }) {
            rows.append((name, .abbreviation, zone))
        }
        return rows
    }
}

extension ResolvedZone {
    /// What the zone does in the year after `at`: "fixed offset (abbreviation)", "no change
    /// within a year", or its offsets and the next change ("offsets -05:00/-04:00; next
    /// change 2024-11-03T06:00:00Z to -05:00").
    public func ruleSummary(after at: Instant) -> String {
        if fixedOffset != nil { return "fixed offset (abbreviation)" }
        var offsets: Set<Int> = [rules.offset(at: at).seconds]
        var cursor = at.seconds
        var next: (Int64, UTCOffset)?
        while let t = rules.nextTransition(afterEpochSeconds: cursor),
            t.at < at.seconds + 366 * 86_400
        {
            if next == nil { next = (t.at, t.offset) }
            offsets.insert(t.offset.seconds)
            cursor = t.at
        }
        guard let (when, to) = next else { return "no change within a year" }
        let list = offsets.sorted().map { UTCOffset(seconds: $0).isoString }.joined(separator: "/")
        return
            "offsets \(list); next change \(Instant(seconds: when).isoString(fractionDigits: 0)) to \(to.isoString)"
    }
}
