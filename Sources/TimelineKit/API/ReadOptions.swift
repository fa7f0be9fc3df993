/// How inputs are read: the format, how dates and fields are read, the text encoding, and
/// the settings of particular formats (`csv`, `json`, `ics`). The defaults are the command
/// line's defaults.
public struct ReadOptions: Sendable {
    /// The input format; nil detects it from the file name's extension, else the content.
    public var format: FileFormat?
    /// How date and time values are read: zones, patterns, day/month order, DST policies.
    package var dates = DateParsingOptions()
    /// Which source fields feed which event fields, status words, amounts.
    package var mapping = MappingOptions()

    /// The zone of values that name no offset and no zone (`2024-06-12 08:00`). Default
    /// none: such values are rejected (TZ101), never read in a zone the machine happens to
    /// be in.
    public var assumedZone: ResolvedZone? {
        get { dates.assumedZone }
        set { dates.assumedZone = newValue }
    }
    /// Whether `03/04/2024` is 3 April (`true`) or 4 March (`false`). Default nil: decided
    /// by the values (a field over 12 shows it), else the value is rejected as ambiguous.
    public var dayFirst: Bool? {
        get { dates.fieldOrder.map { $0 == .dayFirst } }
        set { dates.fieldOrder = newValue.map { $0 ? .dayFirst : .monthFirst } }
    }
    /// `dayFirst` as the date engine takes it.
    package var fieldOrder: FieldOrder? {
        get { dates.fieldOrder }
        set { dates.fieldOrder = newValue }
    }
    /// What zone abbreviations with several meanings mean in these inputs, by abbreviation
    /// (`["CST": "Asia/Shanghai"]`); the unambiguous ones (`JST`, `PDT`) need no entry.
    public var zoneAbbreviations: [String: String] {
        get { dates.zoneResolver.abbreviationOverrides }
        set { dates.zoneResolver = ZoneResolver(abbreviationOverrides: newValue) }
    }
    /// The date formats added with `addDateFormat(_:)`, as written, in the order tried.
    public var dateFormats: [String] { dates.patterns.map(\.source) }
    /// Which source fields (CSV columns, JSON keys) feed which event fields. Default: the
    /// common header names in English and Chinese, and a service's layout when its file
    /// is recognised.
    public var fieldMapping: FieldMapping {
        get { mapping.mapping }
        set { mapping.mapping = newValue }
    }

    /// Adds a date format tried after ISO 8601, RFC 2822 and epochs, before the built-in
    /// catalogue: strptime style when it has a `%` (`%d/%m/%Y %H:%M`), else LDML
    /// (`dd/MM/yyyy HH:mm`, literals in single quotes). It must have a year field.
    /// - Throws: a usage `TimelineError` (reason `.invalidDateFormat`) saying what is wrong.
    public mutating func addDateFormat(_ format: String) throws(TimelineError) {
        dates.patterns.append(try DatePattern.compiled(format))
    }
    /// The text encoding of the input; nil detects it: UTF-8 (a byte-order mark is
    /// skipped), else UTF-16 when a byte-order mark says so, else, when the bytes are not
    /// UTF-8, the legacy encoding (GB18030, Shift_JIS, EUC-KR, Big5, Windows-1252, ISO
    /// 8859-15) in which they read without a fault as the most plausible text (a note says
    /// which).
    package var encoding: TextEncoding?
    /// Settings of particular formats, reached through their properties (`csv`, `json`, `ics`).
    package var formatSettings = FormatSettings()
    /// Which service's layout each input is read as (its columns, status words, day/month
    /// order): recognised among the built-in presets by default.
    package var preset = PresetChoice.detect(MappingPreset.builtIn)
    /// The longest record (a CSV row, a JSON line or value, an unfolded iCalendar line) read,
    /// in bytes; a longer one stops the run with an error rather than taking time and memory
    /// without bound.
    public var maxRecordSize = ReadOptions.defaultMaxRecordSize
    /// 64 MB.
    public static let defaultMaxRecordSize = 64 << 20

    /// The command line's defaults: format and encoding detected, no zone assumed.
    public init() {}
}

/// Which preset (`MappingPreset`) applies to an input.
package enum PresetChoice: Sendable {
    /// The first of these whose signature the input shows; none when none does.
    case detect([MappingPreset])
    /// This one, whatever the input looks like (`--preset NAME`).
    case fixed(MappingPreset)

    /// No preset: the default header names only (`--preset none`).
    public static let none = PresetChoice.detect([])

    /// The presets to consider for an input.
    var candidates: [MappingPreset] {
        switch self {
        case .detect(let presets): return presets
        case .fixed(let preset): return [preset]
        }
    }

    /// The preset named whatever the input looks like.
    var forced: MappingPreset? {
        if case .fixed(let preset) = self { return preset }
        return nil
    }
}

/// How events are written: the display zone, the language and reference moment of the
/// readable formats, grouping and order, and the settings of particular formats (`csv`,
/// `ics`, `text`).
public struct WriteOptions: Sendable {
    /// Where days are counted and times shown (the command line's `--zone`). Default UTC.
    public var displayZone: ResolvedZone = .utc
    /// How `displayZone` was chosen. With `.fromData` a conversion takes the one zone its
    /// inputs declare (a calendar's `X-WR-TIMEZONE`, else the only zone its times name)
    /// and `displayZone` only when they declare none; the headers of the readable formats
    /// say why.
    package var displayZoneChoice: DisplayZoneChoice = .named

    /// The header of a document written with these options: the zone, and why when the
    /// data implied it.
    var documentHeader: DocumentHeader {
        DocumentHeader(
            zone: displayZone.identifier, shown: displayZoneChoice.header(displayZone.identifier))
    }
    /// The language of the readable formats (text, HTML).
    public var locale: TimelineLocale = .english
    /// The moment relative times ("3 hours ago", "yesterday") are counted from in the
    /// readable formats; nil counts from 1970-01-01T00:00:00Z (the command line passes the
    /// clock). The library never reads the clock itself.
    public var now: Instant?
    /// How the readable formats group events: by day (also for `.none`) or by month; the
    /// canonical JSON groups only when the conversion asks it to.
    public var grouping: GroupingUnit = .none
    /// The readable formats order events themselves: latest first when true.
    public var descending = false
    /// The output is a terminal that takes ANSI colours: the text format's automatic colour
    /// follows it. The library never checks by itself (the command line sets it when
    /// standard output is a terminal and `NO_COLOR` is not set).
    public var terminalColors = false
    /// Settings of particular formats, reached through their properties (`csv`, `ics`, `text`).
    package var formatSettings = FormatSettings()

    /// Write only these parts of each event (`--fields`), for NDJSON, JSON, CSV and TSV.
    package var fields: FieldSelection?
    /// About how many bytes the run may hold (`ConvertOptions.sortMemory`): an output that
    /// buffers before it writes (a Parquet row group) keeps within a share of it.
    package var memory = 256 << 20

    /// The command line's defaults: UTC, English, no reference moment.
    public init() {}
}
