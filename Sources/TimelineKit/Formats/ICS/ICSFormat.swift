/// `ics`: iCalendar (RFC 5545). VEVENT, VTODO and VJOURNAL become events; recurring series
/// stay master events unless expanded (`ICSImporter`). Written as one VCALENDAR with TZID
/// times and generated VTIMEZONEs, or UTC times (`ICSExporter`).
enum ICSFormat: FormatPlugin {
    static let id = "ics"
    static let summary = "iCalendar (RFC 5545)"
    static let extensions = ["ics", "ical", "ifb"]
    static var readOptions: [FormatOption<ReadOptions>] { ICSReadSettings.options }
    static var writeOptions: [FormatOption<WriteOptions>] { ICSWriteSettings.options }

    /// `BEGIN:VCALENDAR` or a bare `BEGIN:VEVENT`.
    static func sniff(_ head: Span<UInt8>) -> SniffConfidence {
        guard let first = head.firstNonBlank else { return .no }
        return head.hasPrefix(caseInsensitive: "BEGIN:VCALENDAR", at: first)
            || head.hasPrefix(caseInsensitive: "BEGIN:VEVENT", at: first)
            ? .certain : .no
    }

    static func check(_ options: ReadOptions) throws(TimelineError) {
        if options.ics.maxOccurrences != nil && options.ics.expansion == nil {
            throw TimelineError(
                .usage, "\(.maxOccurrences) only applies with \(.expand, "FROM..UNTIL")")
        }
        if options.ics.maxTotalOccurrences != ICSReadSettings().maxTotalOccurrences
            && options.ics.expansion == nil
        {
            throw TimelineError(
                .usage, "\(.maxTotalOccurrences) only applies with \(.expand, "FROM..UNTIL")")
        }
    }

    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? { ICSImporter() }
    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        ICSExporter(options: options)
    }
}

/// How ICS input is read (`ReadOptions.ics`).
package struct ICSReadSettings: Sendable, Hashable {
    /// Expand recurring series into one event per occurrence in this window; nil keeps
    /// each series as its master event (RRULE, RDATE, EXDATE in its attributes).
    public var expansion: RecurrenceExpansion?
    /// Occurrences generated per series before it is cut off with a warning; nil is the
    /// window's own cap (10,000 by default).
    public var maxOccurrences: Int?
    /// Occurrences all expanded series of a run add together; later ones are cut off with a
    /// warning. Default 500,000 (about 340 MB of events held for sorting).
    public var maxTotalOccurrences = 500_000

    /// Series kept as their master events.
    public init() {}

    /// The window with the cap applied, as the importer uses it.
    var window: RecurrenceExpansion? {
        guard var window = expansion else { return nil }
        if let maxOccurrences { window.maxOccurrences = maxOccurrences }
        return window
    }

    /// `--expand`, `--max-occurrences`, `--max-total-occurrences`.
    static let options: [FormatOption<ReadOptions>] = [
        FormatOption(
            "expand", .value(name: "FROM..UNTIL", choices: nil, repeatable: false),
            help:
                "ICS: one event per occurrence of each recurring series (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides) within the window; each end a date (2024-01-01, whole days in the series' zone) or an instant with offset (2024-01-01T00:00:00Z).",
            default: "series kept as master events"
        ) { values, options throws(TimelineError) in
            switch RecurrenceExpansion.parse(values[0]) {
            case .success(let window): options.ics.expansion = window
            case .failure(let e):
                throw TimelineError(.usage, "invalid value for '\(.expand)': \(e.message)")
            }
        },
        FormatOption(
            "max-occurrences", .value(name: "N", choices: nil, repeatable: false),
            help:
                "ICS with \(.expand): occurrences generated per series before it is cut off, with a warning.",
            default: "10000"
        ) { values, options throws(TimelineError) in
            guard let n = Int(values[0]), n >= 1 else {
                throw TimelineError(
                    .usage,
                    "invalid value '\(values[0])' for '\(.maxOccurrences)'; expected a positive number such as 10000"
                )
            }
            options.ics.maxOccurrences = n
        },
        FormatOption(
            "max-total-occurrences", .value(name: "N", choices: nil, repeatable: false),
            help:
                "ICS with \(.expand): occurrences all series of the run add together before the rest are cut off, with a warning.",
            default: "500000"
        ) { values, options throws(TimelineError) in
            guard let n = Int(values[0]), n >= 1 else {
                throw TimelineError(
                    .usage,
                    "invalid value '\(values[0])' for '\(.maxTotalOccurrences)'; expected a positive number such as 500000"
                )
            }
            options.ics.maxTotalOccurrences = n
        },
    ]
}

/// How ICS output is written (`WriteOptions.ics`).
package struct ICSWriteSettings: Sendable, Hashable {
    /// Every time in UTC (`Z`) instead of `TZID` with generated VTIMEZONEs.
    public var utc = false

    /// Times with their TZID and generated VTIMEZONEs.
    public init() {}

    /// `--ics-utc`.
    static let options: [FormatOption<WriteOptions>] = [
        FormatOption(
            "ics-utc", .flag,
            help: "ICS output: write times in UTC (Z) instead of TZID with generated VTIMEZONEs."
        ) {
            _, options throws(TimelineError) in options.ics.utc = true
        }
    ]
}

private enum ICSReadSettingsKey: FormatSettingsKey {
    static let defaultValue = ICSReadSettings()
}

private enum ICSWriteSettingsKey: FormatSettingsKey {
    static let defaultValue = ICSWriteSettings()
}

extension ReadOptions {
    /// How ICS input is read.
    package var ics: ICSReadSettings {
        get { formatSettings[ICSReadSettingsKey.self] }
        set { formatSettings[ICSReadSettingsKey.self] = newValue }
    }
}

extension WriteOptions {
    /// How ICS output is written.
    package var ics: ICSWriteSettings {
        get { formatSettings[ICSWriteSettingsKey.self] }
        set { formatSettings[ICSWriteSettingsKey.self] = newValue }
    }
}

extension ReadOptions {
    /// Reads each recurring calendar series as one event per occurrence on the days `from`
    /// through `through` (in each series' own zone), instead of as its first event with the
    /// rule in `attributes`.
    ///
    /// - Parameters:
    ///   - from: the first day of the window.
    ///   - through: the last day of the window, included.
    ///   - maxPerSeries: occurrences generated per series before it is cut off with a warning.
    ///   - maxTotal: occurrences all series of a read add together before later ones are cut off.
    public mutating func expandRecurrences(
        from: CivilDate, through: CivilDate, maxPerSeries: Int = 10_000, maxTotal: Int = 500_000
    ) {
        ics.expansion = RecurrenceExpansion(
            from: .date(from), until: .date(through), maxOccurrences: maxPerSeries)
        ics.maxTotalOccurrences = maxTotal
    }

    /// Reads each recurring calendar series as one event per occurrence starting between the
    /// instants `from` and `through`, both included.
    public mutating func expandRecurrences(
        from: Instant, through: Instant, maxPerSeries: Int = 10_000, maxTotal: Int = 500_000
    ) {
        ics.expansion = RecurrenceExpansion(
            from: .instant(from), until: .instant(through), maxOccurrences: maxPerSeries)
        ics.maxTotalOccurrences = maxTotal
    }
}
