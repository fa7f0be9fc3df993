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
    private let inner: any TimelineExporter
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
        inner = try format.makeWriter(options)
        do {
            try FileManager.default.createDirectory(
                atPath: staging, withIntermediateDirectories: true)
        } catch {
            throw TimelineError(
                .cannotCreateOutput,
                "cannot create a directory beside '\(destination)': \(error.localizedDescription)")
        }
    }

    var showsTimesInDisplayZone: Bool { inner.showsTimesInDisplayZone }
    var limit: OutputLimit? { inner.limit }

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
        do {
            if FileManager.default.fileExists(atPath: destination) {
                try FileManager.default.removeItem(atPath: destination)
            }
            try FileManager.default.moveItem(atPath: staging, toPath: destination)
        } catch {
            discard()
            throw TimelineError(
                .cannotCreateOutput,
                "cannot move the partitions into '\(destination)': \(error.localizedDescription)")
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
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: false)
            } catch {
                throw TimelineError(
                    .cannotCreateOutput,
                    "cannot create the partition directory '\(key)': \(error.localizedDescription)")
            }
        }
        let digits = String(part)
        let name = "part-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        let output = try OutputWriter(path: "\(directory)/\(name).\(fileExtension)")
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
