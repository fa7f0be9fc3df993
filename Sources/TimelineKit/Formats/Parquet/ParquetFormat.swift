/// `parquet`: Apache Parquet, for data lakes and the engines that read them (DuckDB,
/// polars, Spark, pyarrow). Written only: one column per canonical field, named by its path
/// (`ParquetSchema`), Snappy-compressed by default.
enum ParquetFormat: FormatPlugin {
    static let id = "parquet"
    static let summary = "Apache Parquet (output only): one column per field"
    static let extensions = ["parquet"]
    static let isBinary = true
    static var writeOptions: [FormatOption<WriteOptions>] { ParquetWriteSettings.options }

    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        ParquetExporter(schema: .canonical, settings: options.parquet, memory: options.memory)
    }

    static func makeFieldsWriter(_ options: WriteOptions, fields: FieldSelection) -> (
        any TimelineExporter
    )? {
        ParquetExporter(
            schema: ParquetSchema(paths: fields.paths), settings: options.parquet,
            memory: options.memory)
    }
}

/// How Parquet output is written (`WriteOptions.parquet`).
package struct ParquetWriteSettings: Sendable {
    var compression = ParquetFileLayout.Compression.snappy
    /// A row group is written once its buffered values take about this many bytes (or a
    /// quarter of the run's memory, if less: `WriteOptions.memory`),
    package var rowGroupBytes = 64 << 20
    /// or once it holds this many events.
    var rowGroupRows = 1 << 20

    /// `--parquet-compression`, `--parquet-row-group`.
    static let options: [FormatOption<WriteOptions>] = [
        FormatOption(
            "parquet-compression",
            .value(
                name: "CODEC", choices: ParquetFileLayout.Compression.allCases.map(\.rawValue),
                repeatable: false),
            help: "Parquet output: compress pages with snappy, or none.", default: "snappy"
        ) { values, options throws(TimelineError) in
            guard let codec = ParquetFileLayout.Compression(rawValue: values[0]) else {
                throw TimelineError(
                    .usage, "unknown Parquet compression '\(values[0])'; expected snappy or none")
            }
            options.parquet.compression = codec
        },
        FormatOption(
            "parquet-row-group", .value(name: "N", choices: nil, repeatable: false),
            help:
                "Parquet output: at most N events per row group (a row group also ends at about 64 MB of values, or a quarter of \(.memory) if less).",
            default: "1048576"
        ) { values, options throws(TimelineError) in
            guard let n = Int(values[0]), n > 0 else {
                throw TimelineError(
                    .usage,
                    "invalid row group size '\(values[0])'; expected a positive number of events")
            }
            options.parquet.rowGroupRows = n
        },
    ]
}

private enum ParquetWriteSettingsKey: FormatSettingsKey {
    static let defaultValue = ParquetWriteSettings()
}

extension WriteOptions {
    /// How Parquet output is written.
    package var parquet: ParquetWriteSettings {
        get { formatSettings[ParquetWriteSettingsKey.self] }
        set { formatSettings[ParquetWriteSettingsKey.self] = newValue }
    }
}
