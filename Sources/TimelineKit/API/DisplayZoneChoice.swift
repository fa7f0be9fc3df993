/// How a run's display zone — where times are shown and days counted — was chosen, and so
/// how much a day that differs in it says: a zone the user named is one people saw; a zone
/// the run fell back to is only a default.
package enum DisplayZoneChoice: Sendable, Hashable {
    /// Named by the caller (`--zone`).
    case named
    /// The zone assumed for times that carry none (`--assume-zone`).
    case assumed
    /// Not named: the run takes the one zone the data declares (a calendar's
    /// `X-WR-TIMEZONE`, else the only zone its times name), else the options' display zone.
    case fromData
    /// Taken from the data (after `fromData`); why, e.g. "the calendar's X-WR-TIMEZONE".
    case declared(String)
    /// Not named, and the data declares none (after `fromData`): the default was used.
    case defaulted
    /// Not named, and the data names these several zones (after `fromData`): the default
    /// was used.
    case severalZones([String])

    /// Whether the user chose the zone: findings that hinge on it (a day that changes in
    /// it) are warnings only then.
    package var isChosen: Bool {
        switch self {
        case .named, .assumed: return true
        case .fromData, .declared, .defaulted, .severalZones: return false
        }
    }

    /// Why the zone is the display zone, for headers and reports, settings marked
    /// (`SettingText`).
    package var reasonText: String {
        switch self {
        case .named: return "named with \(.zone)"
        case .assumed: return "the \(.assumeZone) zone"
        case .fromData, .defaulted: return "no zone named"
        case .declared(let why): return why
        case .severalZones(let zones):
            return "the data names several zones: \(zones.joined(separator: ", "))"
        }
    }

    /// Why the zone is the display zone, settings named for `audience`.
    package func reason(for audience: MessageAudience) -> String {
        SettingText.rendered(reasonText, for: audience)
    }

    /// The zone with why it was used, as a report's summary says it: `UTC (no zone named;
    /// name one with --zone)`, `Europe/Berlin, the calendar's X-WR-TIMEZONE`; a zone the
    /// user chose goes without a reason.
    package func describing(_ zone: String, for audience: MessageAudience) -> String {
        switch self {
        case .named, .assumed: return zone
        case .declared(let why): return "\(zone), \(why)"
        case .fromData, .defaulted, .severalZones:
            return SettingText.rendered(
                "\(zone) (\(reasonText); name one with \(.zone))", for: audience)
        }
    }

    /// The zone as a document's header shows it: with why only when the data implied it or
    /// argued against the default (a zone the user named, or UTC for data that declares
    /// none, is the header as it always was).
    func header(_ zone: String) -> String {
        switch self {
        case .declared: return describing(zone, for: .library)
        case .severalZones: return "\(zone) (\(reason(for: .library)))"
        default: return zone
        }
    }
}

/// What one input says about the zone its times are in.
enum DeclaredZone {
    /// One zone, and why it is the input's.
    case one(ResolvedZone, reason: String)
    /// Times in several zones (their names).
    case several([String])
}

extension ConvertPipeline {
    /// The display zone of a run whose zone was not named (`DisplayZoneChoice.fromData`):
    /// the one zone the sources declare, else `fallback`. Only inputs that can be read twice
    /// (files, bytes) are looked at, and only formats that declare zones (ICS).
    static func displayZone(
        for sources: [TimelineSource], read options: ReadOptions, fallback: ResolvedZone
    ) throws(TimelineError) -> (zone: ResolvedZone, choice: DisplayZoneChoice) {
        var found: [(zone: ResolvedZone, reason: String)] = []
        var names: [String] = []
        let parser = DateParser(options: options.dates)
        for source in sources where source.canBeReadAhead {
            let reader = try source.open()
            guard
                try InputProbe.setText(of: reader, options: options, onDiagnostic: { _ in }) != nil,
                let format = try? InputProbe.format(
                    of: reader, options: options, verbose: false, onDiagnostic: { _ in }),
                let declared = try? format.declaredZone(in: reader, parser: parser)
            else { continue }
            switch declared {
            case .one(let zone, let reason):
                found.append((zone, reason))
                names.append(zone.identifier)
            case .several(let zones): names += zones
            }
        }
        let distinct = names.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if distinct.count == 1, names.count == found.count, let first = found.first {
            return (
                first.zone,
                .declared(
                    found.allSatisfy { $0.reason == first.reason }
                        ? first.reason : "the zone the data declares")
            )
        }
        if distinct.count > 1 {
            return (fallback, .severalZones(distinct.sorted()))
        }
        return (fallback, .defaulted)
    }
}
