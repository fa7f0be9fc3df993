import Foundation

/// `--partition-by day|month`: the output as a directory in the Hive layout that Spark,
/// DuckDB, polars and pyarrow discover (`day=2024-06-12/part-00000.parquet`), one partition
/// per day (or month) of the events' start in the display zone — an all-day date under its
/// own date. Each part is a whole file of the inner format (its own CSV header, its own
/// Parquet footer).
///
/// One part is open at a time: sorted output gives one part per partition; in input order,
/// a partition met again gets a further part (`part-00001`). The directory is built under a
/// hidden name beside the destination and renamed into place when every part is written, so
/// a run that fails leaves nothing at the destination.
final class PartitionedExporter: TimelineExporter {
    /// The formats whose files stand alone as parts.
    static let formats = ["ndjson", "csv", "tsv", "parquet"]

    private let destination: String
    private let staging: String
    private let unit: GroupingUnit
    private let zone: ZoneRules
    private let fileExtension: String
    private let makeExporter: () throws(TimelineError) -> any TimelineExporter
    let showsTimesInDisplayZone: Bool
    let limit: OutputLimit?
    private var header = DocumentHeader(zone: "UTC")
    private var current: (key: String, exporter: any TimelineExporter, output: OutputWriter)?
    /// The next part number of each partition met.
    private var nextPart: [String: Int] = [:]

    /// - Throws: a usage error when `format` has no standalone parts or `destination` is a
    ///   directory that holds files; `.cannotCreateOutput` when the staging directory cannot
    ///   be made.
    init(
        format: FileFormat, options: WriteOptions, unit: GroupingUnit, destination: String
    ) throws(TimelineError) {
        guard Self.formats.contains(format.id) else {
            throw TimelineError(
                .usage,
                "partitioned output writes \(Self.formats.joined(separator: ", ")), not '\(format.id)'"
            )
        }
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: destination),
            !entries.isEmpty
        {
            throw TimelineError(
                .usage,
                "'\(destination)' already holds files; partitioned output goes to a new or empty directory: remove it, or name another"
            )
        }
        if System.kind(of: destination) == .regular {
            throw TimelineError(
                .usage, "'\(destination)' is a file; partitioned output goes to a directory")
        }
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        staging =
            url.deletingLastPathComponent().appendingPathComponent(
                ".\(url.lastPathComponent).partial-\(UUID().uuidString.prefix(8))"
            ).path
        self.unit = unit
        zone = options.displayZone.rules
        fileExtension = format.id
        makeExporter = { () throws(TimelineError) in try format.makeWriter(options) }
        // The parts' writer, made once here so that a format or setting it refuses stops the
        // run before anything is created.
        let writer = try format.makeWriter(options)
        showsTimesInDisplayZone = writer.showsTimesInDisplayZone
        limit = writer.limit
        try Self.fileSystem("create a directory beside '\(destination)'") {
            try FileManager.default.createDirectory(
                atPath: staging, withIntermediateDirectories: true)
        }
    }

    /// Runs a file-system step, its failure as a `.cannotCreateOutput` error saying what
    /// could not be done.
    private static func fileSystem(_ step: String, _ body: () throws -> Void)
        throws(TimelineError)
    {
        do {
            try body()
        } catch {
            throw TimelineError(
                .cannotCreateOutput, "cannot \(step): \(error.localizedDescription)")
        }
    }

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {
        self.header = header
    }

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        let key = partition(of: event)
        if current?.key != key {
            try closePart()
            try openPart(key)
        }
        try current!.exporter.write(event, to: current!.output)
    }

    func finish(to out: OutputWriter) throws(TimelineError) {
        try closePart()
        do throws(TimelineError) {
            try Self.fileSystem("move the partitions into '\(destination)'") {
                if FileManager.default.fileExists(atPath: destination) {
                    try FileManager.default.removeItem(atPath: destination)
                }
                try FileManager.default.moveItem(atPath: staging, toPath: destination)
            }
        } catch {
            discard()
            throw error
        }
    }

    /// Removes what was written, after an error.
    func discard() {
        current?.output.discard()
        current = nil
        try? FileManager.default.removeItem(atPath: staging)
    }

    /// `day=YYYY-MM-DD` or `month=YYYY-MM`.
    private func partition(of event: Event) -> String {
        let day = TimelineEntry.day(of: event, zone: zone).isoString
        return unit == .month ? "month=\(day.prefix(7))" : "day=\(day)"
    }

    private func openPart(_ key: String) throws(TimelineError) {
        let directory = staging + "/" + key
        let part = nextPart[key, default: 0]
        nextPart[key] = part + 1
        if part == 0 {
            try Self.fileSystem("create the partition directory '\(key)'") {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: false)
            }
        }
        var name = Array("\(directory)/part-".utf8)
        appendDigits(part, width: 5, to: &name)
        let output = try OutputWriter(
            path: String(decoding: name, as: UTF8.self) + ".\(fileExtension)")
        let exporter = try makeExporter()
        try exporter.begin(header, to: output)
        current = (key, exporter, output)
    }

    private func closePart() throws(TimelineError) {
        guard let part = current else { return }
        current = nil
        try part.exporter.finish(to: part.output)
        try part.output.commit()
    }
}
