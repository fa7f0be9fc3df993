import Foundation
import Testing

@testable import TimelineKit

/// `ExportStage`: the exporter runs on its own thread, fed batches in order, with at most a
/// few batches waiting; a failing writer stops the stage and the producer hears of it.
@Suite("ExportStage")
struct ExportStageTests {
    /// Records the ids it is given, slowly; fails at one id if asked to.
    final class RecordingExporter: TimelineExporter, @unchecked Sendable {
        private let lock = NSLock()
        private var ids: [String] = []
        let failAt: String?
        let delay: useconds_t

        init(failAt: String? = nil, delay: useconds_t = 0) {
            self.failAt = failAt
            self.delay = delay
        }

        var written: [String] {
            lock.lock()
            defer { lock.unlock() }
            return ids
        }

        func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}
        func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
            if delay > 0 { usleep(delay) }
            if event.id == failAt {
                throw TimelineError(.ioError, "cannot write 'out': No space left on device")
            }
            lock.lock()
            ids.append(event.id)
            lock.unlock()
        }
        func finish(to out: OutputWriter) throws(TimelineError) {}
    }

    static func event(_ i: Int) -> Event {
        Event(
            id: "e\(i)", start: TimeValue(date: CivilDate(year: 2024, month: 1, day: 1)!), title: ""
        )
    }

    @Test(
        "every event is written, in order, whatever the batch boundaries",
        arguments: [1, 2047, 2048, 2049, 10_000])
    func order(count: Int) throws {
        let exporter = RecordingExporter()
        let stage = ExportStage(exporter: exporter, output: OutputWriter(inMemory: "out"))
        for i in 0..<count { try stage.write(Self.event(i)) }
        try stage.finish()
        #expect(exporter.written == (0..<count).map { "e\($0)" })
    }

    @Test("encoded bytes go out after every event sent before them")
    func encodedInOrder() throws {
        let output = OutputWriter(inMemory: "out")
        let stage = ExportStage(exporter: CanonicalNDJSONExporter(), output: output)
        try stage.write(Self.event(1))
        try stage.write(encoded: Array("X\n".utf8))
        try stage.write(Self.event(2))
        try stage.finish()
        let lines = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3 && lines[1] == "X")
        #expect(lines[0].hasPrefix(#"{"id":"e1""#) && lines[2].hasPrefix(#"{"id":"e2""#))
    }

    @Test(
        "a writer that fails stops the stage: the error reaches the producer, nothing after it is written"
    )
    func failingWriter() {
        let exporter = RecordingExporter(failAt: "e3000", delay: 1)
        let stage = ExportStage(exporter: exporter, output: OutputWriter(inMemory: "out"))
        var caught: TimelineError?
        var sent = 0
        do throws(TimelineError) {
            for i in 0..<50_000 {
                try stage.write(Self.event(i))
                sent += 1
            }
            try stage.finish()
        } catch {
            caught = error
        }
        #expect(caught?.kind == .ioError)
        #expect(exporter.written == (0..<3000).map { "e\($0)" })
        // The producer is held back (at most a few batches wait), so it learns of the error
        // long before it has sent everything.
        #expect(sent < 3000 + (ExportStage.maximumBatchesInFlight + 2) * ExportStage.batchSize)
    }
}
