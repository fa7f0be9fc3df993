import TimelineKit

/// How date values are read: the options `convert`, `validate` and `dates` share.
struct DateOptionGroup: OptionGroup {
    let dateFormat = Option<[DatePattern]>(
        spec: OptionSpec(
            name: "date-format", valueName: "PATTERN",
            help:
                "A date pattern tried after the built-in fast paths, in the order given: strptime style with '%' (%d/%m/%Y %H:%M) or LDML style (dd/MM/yyyy HH:mm, quote literals: yyyy-MM-dd'T'HH:mm).",
            repeatable: true),
        initial: []
    ) { texts throws(UsageError) in
        var patterns: [DatePattern] = []
        for text in texts {
            do throws(DatePattern.CompileError) {
                patterns.append(try DatePattern(text))
            } catch {
                throw UsageError(message: error.message)
            }
        }
        return patterns
    }
    let assumeZone = Option.text(
        "assume-zone", "ZONE",
        help:
            "Zone for values that carry no offset or zone (IANA id, Windows name, UTC). Such values are recorded with basis 'assumed'.",
        default: "none: such values are errors")
    let dayFirst = Option.flag("day-first", help: "Read 03/04/2024 as 3 April.")
    let monthFirst = Option.flag("month-first", help: "Read 03/04/2024 as 4 March.")
    let onGap = Option<GapPolicy>.choice(
        "on-gap", "POLICY",
        help: "A local time skipped by a DST change: shift it forward by the gap, or reject it.",
        default: .shift)
    let onOverlap = Option<OverlapPolicy>.choice(
        "on-overlap", "POLICY",
        help:
            "A local time repeated by a DST change: take the earlier or later instant, or reject it.",
        default: .earlier)
    let abbrev = Option.list(
        "abbrev", "ABBR=ZONE",
        help:
            "Resolve a zone abbreviation, e.g. CST=Asia/Shanghai. Ambiguous abbreviations (CST, IST, BST, AST, EST, …) are refused without it."
    )

    /// The date options, checked together.
    func make(_ args: ParsedArguments) throws(UsageError) -> DateParsingOptions {
        var options = DateParsingOptions()
        options.zoneResolver = try Self.resolver(abbreviations: args[abbrev])
        options.patterns = args[dateFormat]
        if let zone = args[assumeZone] {
            options.assumedZone = try Self.resolve(
                zone, option: "assume-zone", resolver: options.zoneResolver)
        }
        switch (args[dayFirst], args[monthFirst]) {
        case (true, true):
            throw UsageError(message: "'--day-first' and '--month-first' cannot be used together")
        case (true, false): options.fieldOrder = .dayFirst
        case (false, true): options.fieldOrder = .monthFirst
        case (false, false): break
        }
        options.onGap = args[onGap]
        options.onOverlap = args[onOverlap]
        return options
    }

    /// A resolver that knows the `--abbrev ABBR=ZONE` pairs.
    static func resolver(abbreviations: [String]) throws(UsageError) -> ZoneResolver {
        var overrides: [String: String] = [:]
        for pair in abbreviations {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(
                    message:
                        "invalid value '\(pair)' for '--abbrev'; expected ABBR=ZONE, e.g. CST=Asia/Shanghai"
                )
            }
            guard ZoneResolver.ianaRules(parts[1]) != nil else {
                throw UsageError(
                    message:
                        "invalid value '\(pair)' for '--abbrev': unknown time zone '\(parts[1])'; use an IANA id such as 'Asia/Shanghai'"
                )
            }
            overrides[parts[0]] = parts[1]
        }
        return ZoneResolver(abbreviationOverrides: overrides)
    }

    static func resolve(_ name: String, option: String, resolver: ZoneResolver) throws(UsageError)
        -> ResolvedZone
    {
        do throws(ZoneResolutionError) {
            return try resolver.resolve(name)
        } catch {
            throw UsageError(message: "invalid value '\(name)' for '--\(option)': \(error.message)")
        }
    }

    /// The display zone: `zone` (the `--zone` text) when given, else the assumed zone, else UTC.
    /// How the display zone is chosen: named, the assumed zone, else the data's (UTC when
    /// the data declares none).
    static func displayZoneChoice(_ zone: String?, _ options: DateParsingOptions)
        -> DisplayZoneChoice
    {
        zone != nil ? .named : options.assumedZone != nil ? .assumed : .fromData
    }

    static func displayZone(_ zone: String?, _ options: DateParsingOptions) throws(UsageError)
        -> ResolvedZone
    {
        if let zone { return try resolve(zone, option: "zone", resolver: options.zoneResolver) }
        if let assumed = options.assumedZone {
            return ResolvedZone(rules: assumed.rules, kind: assumed.kind, fixedOffset: nil)
        }
        return .utc
    }
}

/// How inputs are read besides dates: field mapping, encoding, amounts, and the options
/// the readable formats declare (`--delimiter`, `--records`, `--expand`, …).
struct InputOptionGroup: OptionGroup {
    let map = Option.list(
        "map", "FIELD=COLUMN",
        help:
            "Map a source column (a dotted path for JSON) to a field: \(MappedField.allCases.map(\.rawValue).joined(separator: ", ")) (zone: per-record zone; direction: income/expense words). start=date+time joins columns."
    )
    let mapping = Option.text(
        "mapping", "FILE",
        help:
            "A JSON object of field → column mappings, e.g. {\"start\": \"交易时间\"} (or a preset file: its map, statuses and events)."
    )
    let preset = Option.text(
        "preset", "NAME|FILE",
        help:
            "Read the inputs as this service's export (timeline presets lists them), a preset file, or 'none' for no preset.",
        default: "recognised by the input's columns, preamble or JSON shape")
    let events = Option.list(
        "events", "COLUMN=TITLE,...",
        help:
            "Wide rows: each filled time column is an event with that title, e.g. 'Created at=Order created,Paid at=Order paid'."
    )
    let statusMap = Option.list(
        "status-map", "WORD=STATUS", help: "Add a status word, e.g. 已揽件=processing.")
    let directionMap = Option.list(
        "direction-map", "WORD=in|out|neutral",
        help: "Add a direction word of the direction column, e.g. Gutschrift=in.")
    let encoding = Option<TextEncoding>.choice(
        "encoding", "NAME", help: "Text encoding of the inputs.", default: .utf8,
        defaultText:
            "utf-8; utf-16 by its byte-order mark; else the legacy encoding whose text the bytes read as"
    )
    let decimalComma = Option.flag(
        "decimal-comma",
        help:
            "Amounts use a decimal comma: 1.234,50 (by default each money column's values decide; ones that leave it open are refused)."
    )
    let decimalPoint = Option.flag("decimal-point", help: "Amounts use a decimal point: 1,234.50.")
    let maxRecordSize = Option<Int>.value(
        "max-record-size", "SIZE",
        help:
            "The longest record read (a CSV row, a JSON line or record, an iCalendar line); a longer one stops the run.",
        initial: ReadOptions.defaultMaxRecordSize, default: "64MB"
    ) { text throws(UsageError) in
        guard let bytes = ByteSize.parse(text), bytes >= 1 << 10 else {
            throw UsageError(
                message:
                    "invalid value '\(text)' for '--max-record-size'; expected a size of at least 1KB such as 64MB or 1GB"
            )
        }
        return bytes
    }
    let formats: [any OptionDeclaration] = FormatOptions.read

    /// The reading options, checked together (each format checks its own settings).
    func make(_ args: ParsedArguments, dates: DateParsingOptions) throws(TimelineError)
        -> ReadOptions
    {
        var options = ReadOptions()
        options.dates = dates
        if args.isGiven(encoding) { options.encoding = args[encoding] }
        if args[decimalComma] && args[decimalPoint] {
            throw TimelineError(
                .usage, "--decimal-comma and --decimal-point contradict each other; pass one")
        }
        options.mapping.amounts.decimalMark =
            args[decimalComma] ? .comma : args[decimalPoint] ? .point : nil
        options.maxRecordSize = args[maxRecordSize]
        for spec in args[map] { try options.mapping.mapping.add(spec) }
        for spec in args[statusMap] { try options.mapping.statuses.add(spec) }
        for spec in args[directionMap] { try options.mapping.directions.add(spec) }
        if let file = args[mapping] {
            let fromFile = try MappingPreset(file: file)
            for (field, source) in fromFile.mapping.explicit
            where options.mapping.mapping.explicit[field] == nil {
                options.mapping.mapping.explicit[field] = source
            }
            options.mapping.statuses = options.mapping.statuses.under(fromFile.statuses)
            options.mapping.mapping.events = fromFile.events
        }
        for spec in args[events] { try options.mapping.mapping.add(events: spec) }
        switch args[preset] {
        case nil: break
        case "none"?: options.preset = .none
        case let name?:
            if let builtIn = MappingPreset.named(name) {
                options.preset = .fixed(builtIn)
            } else if name.hasSuffix(".json") || name.contains("/") {
                options.preset = .fixed(try MappingPreset(file: name))
            } else {
                throw TimelineError(
                    .usage,
                    "unknown preset '\(name)'; presets are \(MappingPreset.builtIn.map(\.name).joined(separator: ", ")) (timeline presets describes them), or name a preset file"
                )
            }
        }
        for option in FormatOptions.read { try option.apply(args, to: &options) }
        for format in FileFormat.all { try format.check(options) }
        return options
    }
}

/// The options the formats declare, each once (CSV and TSV share theirs), in registry order.
enum FormatOptions {
    static let read: [FormatOptionDeclaration<ReadOptions>] = unique(
        FileFormat.all.flatMap(\.readOptions))
    static let write: [FormatOptionDeclaration<WriteOptions>] = unique(
        FileFormat.all.flatMap(\.writeOptions))

    private static func unique<Target>(_ options: [FormatOption<Target>])
        -> [FormatOptionDeclaration<Target>]
    {
        var seen: Set<String> = []
        return options.filter { seen.insert($0.name).inserted }.map(FormatOptionDeclaration.init)
    }
}

/// `--ignore CODE[,CODE…]`: finding codes left out of a validation report (repeatable, and
/// a comma list, as people type it).
enum IgnoreOption {
    static let declaration = Option<[FindingCode]>(
        spec: OptionSpec(
            name: "ignore", valueName: "CODE",
            help:
                "Leave this finding code out of the validation report (its check is not run), e.g. TZ103, or a list: TZ102,TZ107.",
            repeatable: true),
        initial: []
    ) { texts throws(UsageError) in
        var codes: [FindingCode] = []
        for text in texts.flatMap({
            $0.split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }
        }) {
            guard let code = FindingCode(rawValue: text.uppercased()) else {
                throw UsageError(
                    message:
                        "invalid value '\(text)' for '--ignore'; codes are \(FindingCode.all.map(\.rawValue).joined(separator: ", "))"
                )
            }
            codes.append(code)
        }
        return codes
    }
}

/// `--source-name`, `--first-record`, `--first-line`: the one input is a slice of a larger
/// file (a partition of a Spark job, a chunk cut by a script), named and numbered as that
/// file so that provenance, diagnostics and generated ids match a run over the whole file.
struct SliceOptionGroup: OptionGroup {
    let sourceName = Option.text(
        "source-name", "NAME",
        help:
            "The input is a slice of the file NAME: events, ids and diagnostics name NAME (generated ids NAME:RECORD).",
        default: "the input's path")
    let firstRecord = Option<Int?>.value(
        "first-record", "N",
        help:
            "The input's first record is record N of that file (numbering records and generated ids from N).",
        initial: nil,
        default: "1", parse: SliceOptionGroup.positive("--first-record"))
    let firstLine = Option<Int?>.value(
        "first-line", "N",
        help: "The input's first line is line N of that file (numbering lines from N).",
        initial: nil, default: "1",
        parse: SliceOptionGroup.positive("--first-line"))

    let byteRange = Option<Range<Int>?>.value(
        "byte-range", "A:B",
        help:
            "Read only the lines of the one input file that start after byte offset A and at or before offset B (from offset 0 when A is 0), as Hadoop cuts a file into splits: a distributed job's task reading its own split.",
        initial: nil, default: "the whole file",
        parse: { text throws(UsageError) in
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= a
            else {
                throw UsageError(
                    message:
                        "invalid value '\(text)' for '--byte-range'; expected A:B, two byte offsets with A ≤ B, such as 0:1048576"
                )
            }
            return a..<b
        })

    private static func positive(_ flag: String) -> @Sendable (String) throws(UsageError) -> Int? {
        { text throws(UsageError) in
            guard let n = Int(text), n >= 1 else {
                throw UsageError(
                    message:
                        "invalid value '\(text)' for '\(flag)'; expected a whole number from 1, such as 1201"
                )
            }
            return n
        }
    }

    /// The sources of `paths` (standard input when there are none), the one input read as a
    /// slice when any of the options is given.
    func sources(_ args: ParsedArguments, paths: [String]) throws(TimelineError) -> [TimelineSource]
    {
        var sources = paths.map(TimelineSource.file(path:))
        if let range = args[byteRange] {
            guard sources.count == 1, paths[0] != "-" else {
                throw TimelineError(
                    .usage,
                    "--byte-range reads part of one file; name one input file (not standard input)")
            }
            sources[0] = sources[0].lines(startingIn: range)
        }
        let record = args[firstRecord]
        let line = args[firstLine]
        guard args[sourceName] != nil || record != nil || line != nil else { return sources }
        guard sources.count <= 1 else {
            throw TimelineError(
                .usage,
                "--source-name, --first-record and --first-line describe one input; \(sources.count) were given (run one slice at a time)"
            )
        }
        let source = sources.first ?? .standardInput
        return [
            source.slice(
                of: args[sourceName] ?? source.name, firstRecord: record ?? 1, firstLine: line ?? 1)
        ]
    }
}

/// `--progress` and `--no-progress`: whether a progress line is drawn on standard error.
struct ProgressOptionGroup: OptionGroup {
    let progress = Option.flag(
        "progress",
        help:
            "Draw the progress line on standard error (a terminal) even when the output goes to the same terminal or -q is given."
    )
    let noProgress = Option.flag("no-progress", help: "Never draw the progress line.")

    /// The indicator the flags ask for.
    func make(
        _ args: ParsedArguments, env: CommandEnvironment, quiet: Bool, outputToStandardOutput: Bool
    ) -> ProgressIndicator {
        let choice: Bool? = args[noProgress] ? false : args[progress] ? true : nil
        return ProgressIndicator(
            environment: env, quiet: quiet, choice: choice,
            outputToTerminal: outputToStandardOutput && env.stdoutIsTerminal)
    }
}
