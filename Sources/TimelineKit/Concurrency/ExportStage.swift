import Dispatch
import Synchronization

/// Runs an exporter on its own thread, fed with batches of events in order, so that
/// reading and mapping (the caller's thread) overlap with encoding and writing. At most
/// `maximumBatchesInFlight` batches wait at any time, so memory stays bounded; a write
/// error stops the stage and is raised to the producer at its next call.
///
/// The exporter and the output are touched only by the stage's queue until `finish()`
/// has drained it. (`@unchecked Sendable`: that hand-over is what makes it safe.)
final class ExportStage: @unchecked Sendable {
    static let batchSize = 2048
    static let maximumBatchesInFlight = 4

    let exporter: any TimelineExporter
    private let output: OutputWriter
    private let queue = DispatchQueue(label: "timeline.export")
    private let slots = DispatchSemaphore(value: maximumBatchesInFlight)
    private let errorBox = Mutex<TimelineError?>(nil)
    private var batch: [Event] = []

    init(exporter: any TimelineExporter, output: OutputWriter) {
        self.exporter = exporter
        self.output = output
        batch.reserveCapacity(Self.batchSize)
    }

    func write(_ event: consuming Event) throws(TimelineError) {
        batch.append(event)
        if batch.count >= Self.batchSize { try flush() }
    }

    private func flush() throws(TimelineError) {
        if let error = errorBox.withLock({ $0 }) { throw error }
        guard !batch.isEmpty else { return }
        let events = batch
        batch = []
        batch.reserveCapacity(Self.batchSize)
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard errorBox.withLock({ $0 }) == nil else { return }
            do throws(TimelineError) {
                for e in events { try exporter.write(e, to: output) }
            } catch {
                errorBox.withLock { $0 = error }
            }
        }
    }

    /// Writes bytes already encoded (on a worker thread) after every event sent before.
    func write(encoded bytes: [UInt8]) throws(TimelineError) {
        try flush()
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard errorBox.withLock({ $0 }) == nil else { return }
            do throws(TimelineError) {
                try output.write(bytes)
            } catch {
                errorBox.withLock { $0 = error }
            }
        }
    }

    /// Writes a part built on a worker thread (`PartBuildingExporter`) after every event
    /// sent before.
    func write(part: consuming any ExportPart) throws(TimelineError) {
        try flush()
        precondition(exporter is any PartBuildingExporter, "a part for an exporter of events")
        slots.wait()
        queue.async { [self, part] in
            defer { slots.signal() }
            guard errorBox.withLock({ $0 }) == nil else { return }
            do throws(TimelineError) {
                try (exporter as! any PartBuildingExporter).write(part: part, to: output)
            } catch {
                errorBox.withLock { $0 = error }
            }
        }
    }

    /// Sends the last batch and waits until everything is written.
    func finish() throws(TimelineError) {
        try flush()
        queue.sync {}
        if let error = errorBox.withLock({ $0 }) { throw error }
    }
}
