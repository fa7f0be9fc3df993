import Foundation
import FuzzDriver
import TimelineKit

/// One libFuzzer target per importer and one for the date engine. Beyond "no crash, no
/// hang" (libFuzzer's own -timeout makes a slow input a failure), each checks what the
/// toolkit promises, and stops the process with the broken promise when one fails:
///
/// - every event read has its times in the years 0001–9999;
/// - the events written as NDJSON read back to the same events, byte for byte;
/// - every output format writes them without an error;
/// - a conversion counts every record: read = written + rejected, and both agree with
///   what reading returned;
/// - a date that the engine reads comes back the same from its own RFC 3339 form.
public enum FuzzTarget: String, Sendable {
    case csv, json, ndjson, ics, timeline, dates, xlsx

    /// Runs libFuzzer on this target with the process's arguments.
    public func run() -> Never {
        FuzzTarget.current = self
        exit(fuzz_run_driver(CommandLine.argc, CommandLine.unsafeArgv) { data, size in
            let bytes = Data(bytes: data!, count: size)
            FuzzTarget.current.test(bytes)
            return 0
        })
    }

    nonisolated(unsafe) static var current = FuzzTarget.csv

    func test(_ input: Data) {
        switch self {
        case .dates: testDates(input)
        case .ics:
            testImport(input, format: "ics")
            testImport(input, format: "ics") { $0.ics.expansion = Self.window }
        default: testImport(input, format: rawValue)
        }
    }

    static let shanghai = try! ZoneResolver().resolve("Asia/Shanghai")
    static let window: RecurrenceExpansion = {
        var w = try! RecurrenceExpansion.parse("2024-01-01..2025-12-31").get()
        w.maxOccurrences = 2_000
        return w
    }()

    static func fail(_ what: String, _ input: Data) -> Never {
        fatalError("broken promise: \(what)\ninput: \(String(decoding: input.prefix(400), as: UTF8.self).debugDescription)")
    }

    private func testImport(_ input: Data, format: String, configure: (inout ReadOptions) -> Void = { _ in }) {
        var options = ReadOptions()
        options.format = FileFormat.named(format)!
        options.dates.assumedZone = Self.shanghai
        options.ics.maxTotalOccurrences = 20_000
        configure(&options)
        let result: ReadResult
        do {
            result = try Timeline.read(.data(input, name: "fuzz.\(format)"), options: options)
        } catch {
            return  // a clear error is an allowed end
        }
        for event in result.events {
            for value in [event.start, event.end, event.recorded].compactMap({ $0 }) where !value.isInSupportedRange {
                Self.fail("event '\(event.id)' has \(value.rfc3339) outside the years 0001–9999", input)
            }
        }
        // NDJSON reads back to the same events.
        let ndjson: Data
        do { ndjson = try Timeline.data(result.events, as: .named("ndjson")!) } catch { Self.fail("NDJSON cannot be written: \(error)", input) }
        var again = ReadOptions()
        again.format = .named("ndjson")!
        do {
            let reread = try Timeline.read(.data(ndjson, name: "fuzz.ndjson"), options: again)
            guard reread.rejects.isEmpty else { Self.fail("our NDJSON is rejected: \(reread.rejects[0].reason)", input) }
            let rewritten = try Timeline.data(reread.events, as: .named("ndjson")!)
            guard rewritten == ndjson else { Self.fail("our NDJSON does not read back to the same events", input) }
        } catch {
            Self.fail("our NDJSON cannot be read: \(error)", input)
        }
        // Every output writes them.
        var write = WriteOptions()
        write.displayZone = Self.shanghai
        write.now = Instant(seconds: 1_718_000_000)
        for format in FileFormat.all where format.isWritable {
            do {
                _ = try Timeline.data(result.events, as: format, options: write)
            } catch where error.diagnostic.code == FindingCode.outOfRange.rawValue {
                continue  // the display zone moves a time out of range: refused, as documented
            } catch {
                Self.fail("\(format.id) cannot be written: \(error)", input)
            }
        }
        // A conversion counts every record, as reading did.
        do {
            var convert = ConvertOptions()
            convert.read = options
            convert.outputFormat = .named("ndjson")!
            convert.sort = .input
            let null = FileHandle(forWritingAtPath: "/dev/null")!
            let summary = try Timeline.convert([.data(input, name: "fuzz.\(format)")], to: .fileHandle(null, name: "/dev/null"), options: convert).summary
            guard summary.read == summary.written + summary.rejected, summary.written == result.events.count,
                summary.rejected == result.rejects.count
            else {
                Self.fail("convert read \(summary.read), wrote \(summary.written), rejected \(summary.rejected); read gave \(result.events.count) + \(result.rejects.count)", input)
            }
        } catch where error.kind == .data {
            // Nothing converted, or naive values: the run refuses as documented.
        } catch {
            Self.fail("convert failed where read did not: \(error)", input)
        }
        _ = Timeline.validate(result.events, options: ValidationOptions())
    }

    private func testDates(_ input: Data) {
        var options = DateParsingOptions()
        options.assumedZone = Self.shanghai
        let parser = DateParser(options: options)
        for line in String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).prefix(64) {
            guard case .success(let parsed) = parser.parse(String(line)) else { continue }
            let value = parsed.value
            guard value.isInSupportedRange else { Self.fail("'\(line)' read as \(value.rfc3339), outside 0001–9999", input) }
            guard case .success(let again) = parser.parse(value.rfc3339) else { Self.fail("'\(line)' read as \(value.rfc3339), which does not read", input) }
            guard again.value.instant == value.instant, again.value.date == value.date, again.value.offset == value.offset else {
                Self.fail("'\(line)' read as \(value.rfc3339), which reads as \(again.value.rfc3339)", input)
            }
        }
    }
}
