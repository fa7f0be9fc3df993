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
/// - a date that the engine reads comes back the same from its own RFC 3339 form;
/// - (`icsout`) events of any text written as ICS give only valid content lines: no bare
///   CR or LF, a name and a value on every unfolded line, no control character in it, one
///   VEVENT per event and no component the events did not ask for.
public enum FuzzTarget: String, Sendable {
    case csv, json, ndjson, ics, timeline, dates, xlsx, icsout

    /// Runs libFuzzer on this target with the process's arguments.
    public func run() -> Never {
        FuzzTarget.current = self
        exit(
            fuzz_run_driver(CommandLine.argc, CommandLine.unsafeArgv) { data, size in
                let bytes = Data(bytes: data!, count: size)
                FuzzTarget.current.test(bytes)
                return 0
            })
    }

    nonisolated(unsafe) static var current = FuzzTarget.csv

    func test(_ input: Data) {
        switch self {
        case .dates: testDates(input)
        case .icsout: testICSOutput(input)
        case .ics:
            testImport(input, format: "ics")
            testImport(input, format: "ics") {
                $0.expandRecurrences(
                    from: Self.windowStart, through: Self.windowEnd, maxPerSeries: 2_000,
                    maxTotal: 20_000)
            }
        default: testImport(input, format: rawValue)
        }
    }

    static let shanghai = try! ResolvedZone(named: "Asia/Shanghai")
    static let windowStart = CivilDate(year: 2024, month: 1, day: 1)!
    static let windowEnd = CivilDate(year: 2025, month: 12, day: 31)!

    static func fail(_ what: String, _ input: Data) -> Never {
        fatalError(
            "broken promise: \(what)\ninput: \(String(decoding: input.prefix(400), as: UTF8.self).debugDescription)"
        )
    }

    private func testImport(
        _ input: Data, format: String, configure: (inout ReadOptions) -> Void = { _ in }
    ) {
        var options = ReadOptions()
        options.format = FileFormat.named(format)!
        options.assumedZone = Self.shanghai
        configure(&options)
        let result: ReadResult
        do {
            result = try Timeline.read(.data(input, name: "fuzz.\(format)"), options: options)
        } catch {
            return  // a clear error is an allowed end
        }
        for event in result.events {
            for value in [event.start, event.end, event.recorded].compactMap({ $0 })
            where !value.isInSupportedRange {
                Self.fail(
                    "event '\(event.id)' has \(value.rfc3339) outside the years 0001–9999", input)
            }
        }
        // NDJSON reads back to the same events.
        let ndjson: Data
        do { ndjson = try Timeline.data(result.events, as: .named("ndjson")!) } catch {
            Self.fail("NDJSON cannot be written: \(error)", input)
        }
        var again = ReadOptions()
        again.format = .named("ndjson")!
        do {
            let reread = try Timeline.read(.data(ndjson, name: "fuzz.ndjson"), options: again)
            guard reread.rejects.isEmpty else {
                Self.fail("our NDJSON is rejected: \(reread.rejects[0].reason)", input)
            }
            let rewritten = try Timeline.data(reread.events, as: .named("ndjson")!)
            guard rewritten == ndjson else {
                Self.fail("our NDJSON does not read back to the same events", input)
            }
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
            } catch  where error.diagnostic.code == FindingCode.outOfRange.rawValue {
                continue  // the display zone moves a time out of range: refused, as documented
            } catch  where format.id == "ics" && error.diagnostic.code == "ics-duplicate-uid" {
                continue  // ids that name several events: ICS refuses them, as documented
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
            let done = try Timeline.convert(
                [.data(input, name: "fuzz.\(format)")], to: .fileHandle(null, name: "/dev/null"),
                options: convert)
            guard done.recordsRead == done.eventsWritten + done.recordsRejected,
                done.eventsWritten == result.events.count,
                done.recordsRejected == result.rejects.count
            else {
                Self.fail(
                    "convert read \(done.recordsRead), wrote \(done.eventsWritten), "
                        + "rejected \(done.recordsRejected); read gave \(result.events.count) "
                        + "+ \(result.rejects.count)",
                    input)
            }
        } catch  where error.reason == .malformedInput {
            // Nothing converted, or naive values: the run refuses as documented.
        } catch {
            Self.fail("convert failed where read did not: \(error)", input)
        }
        _ = Timeline.validate(result.events, options: ValidationOptions())
    }

    /// Events whose text fields are the input cut at 0xFF bytes (links at 0x1F, attribute
    /// names and values in turn), written as ICS.
    private func testICSOutput(_ input: Data) {
        let fields = input.split(separator: 0xFF, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        func field(_ i: Int) -> String { i < fields.count ? fields[i] : "" }
        let zone = Self.shanghai
        var events: [Event] = []
        for n in 0..<max(1, min(4, fields.count / 8)) {
            let base = n * 8
            var attributes: [String: String] = [:]
            for pair in field(base + 6).split(separator: "\u{1F}", omittingEmptySubsequences: false)
                .chunked(2)
            {
                guard let name = pair.first, !name.isEmpty else { continue }
                attributes[String(name)] = pair.dropFirst().first.map(String.init) ?? ""
            }
            let start = TimeValue(
                instant: Instant(seconds: 1_718_000_000 + Int64(n) * 3_600),
                offset: zone.offset(at: Instant(seconds: 1_718_000_000)),
                zone: zone.identifier, basis: .zone)
            // One UID per event: each id begins with its event's number and a separator the
            // number cannot hold, so no two are equal whatever the fields hold.
            events.append(
                Event(
                    id: "\(n)\u{1F}" + field(base), start: start,
                    title: field(base + 1), detail: field(base + 2),
                    amount: DecimalNumber("1.00").map {
                        Amount(value: $0, currency: field(base + 5).isEmpty ? nil : field(base + 5))
                    },
                    location: field(base + 3),
                    links: field(base + 4).split(separator: "\u{1F}").map(String.init),
                    tags: field(base + 7).split(separator: "\u{1F}").map(String.init),
                    attributes: attributes,
                    source: SourceReference(
                        format: input.first.map { $0 & 1 == 0 } == true ? "ics" : "csv",
                        file: "fuzz", record: n + 1)))
        }
        let ics: Data
        do {
            ics = try Timeline.data(events, as: .named("ics")!)
        } catch {
            Self.fail("ICS cannot be written: \(error)", input)
        }
        let bytes = [UInt8](ics)
        for (i, b) in bytes.enumerated() {
            if b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A) {
                Self.fail("a bare CR at byte \(i)", input)
            }
            if b == 0x0A && (i == 0 || bytes[i - 1] != 0x0D) {
                Self.fail("a bare LF at byte \(i)", input)
            }
        }
        // Unfolded by bytes (RFC 5545 §3.1: CRLF and one space are removed), then cut at CRLF.
        var unfolded: [UInt8] = []
        var k = 0
        while k < bytes.count {
            if bytes[k] == 0x0D, k + 2 < bytes.count, bytes[k + 1] == 0x0A, bytes[k + 2] == 0x20 {
                k += 3
                continue
            }
            unfolded.append(bytes[k])
            k += 1
        }
        var lines: [String] = []
        var lineStart = 0
        for j in unfolded.indices where unfolded[j] == 0x0A {
            lines.append(String(decoding: unfolded[lineStart..<(j - 1)], as: UTF8.self))
            lineStart = j + 1
        }
        var components = 0
        for line in lines {
            if line.unicodeScalars.contains(where: {
                ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F
            }) {
                Self.fail("a control character in \(line.debugDescription)", input)
            }
            // By bytes: a ':' with a combining mark after it is still the delimiter.
            let utf8 = Array(line.utf8)
            let end =
                utf8.firstIndex { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") } ?? utf8.count
            let name = String(decoding: utf8[..<end], as: UTF8.self)
            guard end < utf8.count, !name.isEmpty,
                name.utf8.allSatisfy({
                    ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D
                })
            else {
                Self.fail("not a content line: \(line.debugDescription)", input)
            }
            if name == "BEGIN" {
                let component = line.dropFirst(6)
                guard
                    ["VCALENDAR", "VEVENT", "VTIMEZONE", "STANDARD", "DAYLIGHT"].contains(component)
                else {
                    Self.fail("a \(component) component", input)
                }
                if component == "VEVENT" { components += 1 }
            }
        }
        if components != events.count {
            Self.fail("\(components) VEVENTs for \(events.count) events", input)
        }
    }

    private func testDates(_ input: Data) {
        var options = ReadOptions()
        options.assumedZone = Self.shanghai
        for line in String(decoding: input, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).prefix(64) {
            guard let value = try? TimeValue.parse(String(line), options: options) else {
                continue
            }
            guard value.isInSupportedRange else {
                Self.fail("'\(line)' read as \(value.rfc3339), outside 0001–9999", input)
            }
            guard let again = try? TimeValue.parse(value.rfc3339, options: options) else {
                Self.fail("'\(line)' read as \(value.rfc3339), which does not read", input)
            }
            guard again.instant == value.instant, again.date == value.date,
                again.offset == value.offset
            else {
                Self.fail(
                    "'\(line)' read as \(value.rfc3339), which reads as \(again.rfc3339)", input)
            }
        }
    }
}

extension Array {
    /// The elements in runs of `size` (the last may be shorter).
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
