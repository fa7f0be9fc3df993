/// `csv`: comma (or semicolon, tab, pipe) separated values, RFC 4180. Read one event per
/// row through the field mapping (`CSVImporter`); written with a fixed column order
/// (`CSVExporter`).
enum CSVFormat: FormatPlugin {
    static let id = "csv"
    static let summary = "comma/semicolon/tab/pipe separated values"
    static let extensions = ["csv"]
    static var readOptions: [FormatOption<ReadOptions>] { CSVReadSettings.options }
    static var writeOptions: [FormatOption<WriteOptions>] { CSVWriteSettings.options }

    /// A delimiter in the first line.
    static func sniff(_ head: Span<UInt8>) -> SniffConfidence {
        guard let line = head.firstContentLine else { return .no }
        return head.contains(anyOf: [0x2C, 0x3B, 0x7C], in: line) ? .weak : .no
    }

    static func check(_ options: ReadOptions) throws(TimelineError) {
        guard options.csv.columns != nil else { return }
        if !options.csv.hasHeader {
            throw TimelineError(
                .usage,
                "\(.noHeader) names the columns 1, 2, …; with \(.columns) or \(.headerFrom), leave it out"
            )
        }
        if options.csv.headerLine != nil {
            throw TimelineError(
                .usage,
                "\(.headerLine) cannot be combined with \(.columns) or \(.headerFrom): the input has no header line then"
            )
        }
    }

    static func makeReader(_ options: ReadOptions) -> (any TimelineImporter)? { CSVImporter() }
    static func declaredZone(in input: InputReader, parser: DateParser) throws(TimelineError)
        -> DeclaredZone?
    {
        try ZoneColumn.inTable(input, delimiter: 0x2C, parser: parser)
    }
    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        CSVExporter(options: options)
    }
    static func makeFieldsWriter(_ options: WriteOptions, fields: FieldSelection) -> (
        any TimelineExporter
    )? {
        ProjectedExporter(fields: fields, layout: .delimited(0x2C), safe: options.csv.safe)
    }
}

/// How CSV and TSV input is read (`ReadOptions.csv`; a caller sets it through
/// `ReadOptions.delimiter`, `hasHeaderLine` and `headerLine`).
package struct CSVReadSettings: Sendable, Hashable {
    /// The delimiter, an ASCII character; nil detects it from the header line among
    /// `,` `;` tab `|` (TSV input defaults to tab).
    package var delimiter: Character?
    /// False when the file has no header line: columns are then named `1`, `2`, ….
    package var hasHeader = true
    /// The line of the header row; nil finds it (after a preamble, if any).
    package var headerLine: Int?
    /// The column names of an input that has no header line of its own (a slice cut from a
    /// larger file, as a distributed job reads it): every line of the input is then a record.
    package var columns: CSVColumns?

    /// Whether the input's first record (after any preamble) names the columns.
    var readsHeaderLine: Bool { hasHeader && columns == nil }

    /// Detected delimiter, a header line.
    package init() {}

    /// `--delimiter`, `--no-header`, `--header-line` (declared once here, offered for csv and tsv).
    static let options: [FormatOption<ReadOptions>] = [
        FormatOption(
            "delimiter", .value(name: "C", choices: nil, repeatable: false),
            help: "CSV delimiter: a character, 'tab', or '\\t'.",
            default: "detected among , ; tab |"
        ) { values, options throws(TimelineError) in
            let d = values[0]
            switch d {
            case "tab", "\\t", "\t": options.csv.delimiter = "\t"
            default:
                guard d.utf8.count == 1, let b = d.utf8.first, b != 0x22, b != 0x0A, b != 0x0D
                else {
                    throw TimelineError(
                        .usage,
                        "invalid value '\(d)' for '\(.delimiter)'; expected one character such as ';' or 'tab'"
                    )
                }
                options.csv.delimiter = Character(d)
            }
        },
        FormatOption(
            "no-header", .flag, help: "The CSV has no header line: columns are named 1, 2, …"
        ) { _, options throws(TimelineError) in
            options.csv.hasHeader = false
        },
        FormatOption(
            "columns", .value(name: "NAME,...", choices: nil, repeatable: false),
            help:
                "The CSV has no header line (a slice of a larger file): its columns are these, comma separated (quoted as in CSV when a name has a comma)."
        ) { values, options throws(TimelineError) in
            let names = CSVReader.fields(ofLine: values[0])
            guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
                throw TimelineError(
                    .usage,
                    "invalid value '\(values[0])' for '\(.columns)'; expected column names such as 'order_id,status,time'"
                )
            }
            options.csv.columns = .names(names)
        },
        FormatOption(
            "header-from", .value(name: "FILE", choices: nil, repeatable: false),
            help:
                "The CSV has no header line (a slice of a larger file): its columns are named by the first line of FILE (the whole file, or its header alone)."
        ) { values, options throws(TimelineError) in
            options.csv.columns = .headerOf(path: values[0])
        },
        FormatOption(
            "header-line", .value(name: "N", choices: nil, repeatable: false),
            help: "The CSV's header is on line N; the lines before it are not records.",
            default: "the first line naming a time column and another known field"
        ) { values, options throws(TimelineError) in
            guard let n = Int(values[0]), n >= 1 else {
                throw TimelineError(
                    .usage,
                    "invalid value '\(values[0])' for '\(.headerLine)'; expected a line number such as 17"
                )
            }
            options.csv.headerLine = n
        },
    ]
}

/// The column names of a CSV input without a header line of its own.
package enum CSVColumns: Sendable, Hashable {
    /// These names, in column order.
    case names([String])
    /// The names in the first line of this file (read with the input's delimiter, or one
    /// detected there), such as the whole file the input is a slice of.
    case headerOf(path: String)
}

/// How CSV and TSV output is written (`WriteOptions.csv`).
package struct CSVWriteSettings: Sendable {
    /// How times are written; nil writes RFC 3339 in the display zone (dates as `YYYY-MM-DD`).
    public var timeFormat: DateOutputFormat?
    /// Cells starting with `=`, `+`, `-` or `@` get a leading `'`, so spreadsheets show
    /// them as text instead of running them as formulas.
    public var safe = false

    /// RFC 3339 times in the display zone, cells as they are.
    public init() {}

    /// `--time-format`, `--safe-csv`.
    static let options: [FormatOption<WriteOptions>] = [
        FormatOption(
            "time-format", .value(name: "FORMAT", choices: nil, repeatable: false),
            help:
                "CSV output: rfc3339 (rfc3339:N for N fraction digits), date, epoch, epoch-ms (whole units; epoch:N, epoch-ms:N), or a pattern, in the display zone.",
            default: "each time with its own offset, as NDJSON has it"
        ) { values, options throws(TimelineError) in
            do throws(DatePattern.CompileError) {
                options.csv.timeFormat = try DateOutputFormat(values[0])
            } catch {
                throw TimelineError(.usage, error.message)
            }
        },
        FormatOption(
            "safe-csv", .flag,
            help:
                "CSV output and the rejects file: prefix cells starting with = + - @ (or a tab or line break) with ' so spreadsheets do not run them; plain numbers stay numbers."
        ) {
            _, options throws(TimelineError) in options.csv.safe = true
        },
    ]
}

private enum CSVReadSettingsKey: FormatSettingsKey {
    static let defaultValue = CSVReadSettings()
}

private enum CSVWriteSettingsKey: FormatSettingsKey {
    static let defaultValue = CSVWriteSettings()
}

extension ReadOptions {
    /// How CSV and TSV input is read.
    package var csv: CSVReadSettings {
        get { formatSettings[CSVReadSettingsKey.self] }
        set { formatSettings[CSVReadSettingsKey.self] = newValue }
    }

    /// The delimiter of CSV input, an ASCII character; nil (the default) detects it from
    /// the header line among `,` `;` tab `|`. TSV input defaults to tab.
    public var delimiter: Character? {
        get { csv.delimiter }
        set { csv.delimiter = newValue }
    }

    /// False when a CSV, TSV or XLSX table has no header line: its columns are then named
    /// `1`, `2`, …. Default: true.
    public var hasHeaderLine: Bool {
        get { csv.hasHeader }
        set { csv.hasHeader = newValue }
    }

    /// The 1-based line of a table's header row; nil (the default) finds it after a
    /// preamble, if any.
    public var headerLine: Int? {
        get { csv.headerLine }
        set { csv.headerLine = newValue }
    }

    /// The column names of CSV input that has no header line of its own (a slice of a
    /// larger file, `TimelineSource.slice(of:firstRecord:firstLine:)`): every line is then
    /// a record. Default: nil, the input names its columns.
    public var columnNames: [String]? {
        get {
            if case .names(let names) = csv.columns { return names }
            return nil
        }
        set { csv.columns = newValue.map { .names($0) } }
    }
}

extension WriteOptions {
    /// How CSV and TSV output is written.
    package var csv: CSVWriteSettings {
        get { formatSettings[CSVWriteSettingsKey.self] }
        set { formatSettings[CSVWriteSettingsKey.self] = newValue }
    }
}
