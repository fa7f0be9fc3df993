import Foundation

/// Writes events one at a time in a format, to a destination or into memory:
///
/// ```swift
/// let writer = try TimelineWriter(format: .named("ndjson")!, destination: .file(path: "out.ndjson"))
/// for event in events { try writer.write(event) }
/// try writer.finish()
/// ```
///
/// Streaming formats (NDJSON, CSV) write as events come; formats that need every event
/// (ICS with generated VTIMEZONEs, the text and HTML timelines, which order and group the
/// events) write at `finish()`. A file destination is replaced atomically by `finish()`;
/// a writer dropped without it leaves the file untouched.
public final class TimelineWriter {
    private let exporter: any TimelineExporter
    private let output: OutputWriter
    private let inMemory: Bool
    private var finished = false
    /// Where the format shows wall times, when it does.
    private let displayZone: ZoneRules?

    /// A writer to `destination`.
    /// - Throws: `.usage` when the format cannot be written, `.cannotCreateOutput` when the
    ///   destination cannot be created.
    public init(
        format: FileFormat, destination: TimelineDestination, options: WriteOptions = WriteOptions()
    ) throws(TimelineError) {
        exporter = try format.makeWriter(options)
        output = try destination.open()
        inMemory = false
        displayZone = exporter.showsTimesInDisplayZone ? options.displayZone.rules : nil
        try exporter.begin(options.documentHeader, to: output)
    }

    /// A writer into memory: `finish()` returns the bytes.
    public init(format: FileFormat, options: WriteOptions = WriteOptions()) throws(TimelineError) {
        exporter = try format.makeWriter(options)
        output = OutputWriter(inMemory: format.id)
        inMemory = true
        displayZone = exporter.showsTimesInDisplayZone ? options.displayZone.rules : nil
        try exporter.begin(options.documentHeader, to: output)
    }

    /// Writes one event (or keeps it, for formats that write at the end).
    /// - Throws: `.data` (E008) for an event with a time outside the years 0001–9999 (or
    ///   outside them in the display zone, for a format that shows times there).
    public func write(_ event: Event) throws(TimelineError) {
        precondition(!finished, "TimelineWriter.write after finish()")
        if let outside = event.unsupportedTime(shownIn: displayZone)
            ?? exporter.limit?.reason(event)
        {
            throw TimelineError(
                .data, "event '\(event.id)': \(outside)", code: FindingCode.outOfRange.rawValue)
        }
        try exporter.write(event, to: output)
    }

    /// Writes what is left and commits the destination.
    /// - Returns: the bytes written, for a writer into memory; nil otherwise.
    @discardableResult
    public func finish() throws(TimelineError) -> Data? {
        precondition(!finished, "TimelineWriter.finish() called twice")
        finished = true
        try exporter.finish(to: output)
        try output.commit()
        return inMemory ? Data(output.bytes) : nil
    }
}
