/// Reads the canonical timeline: a document `{"schema":"timeline/1","zone":…,"events":[…]}`
/// or NDJSON with one event per line (blank lines allowed). NDJSON streams line by line, a
/// document chunk by chunk with its events array cut at its elements. Either way blocks of
/// events are decoded on the worker threads and delivered in order, so every event before a
/// syntax fault is still converted.
///
/// A malformed or inconsistent event is rejected with its line and reason; a syntax error
/// in a document stops the run (exit 65) naming line and column.
struct CanonicalImporter: TimelineImporter {
    init() {}

    func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        guard
            let (whole, index) = try input.peekPastWhitespace(limit: context.options.maxRecordSize)
        else { return }
        let head = whole[index...].prefix(64)
        let first = whole[index]
        // a document or events of the canonical timeline (it says so when it is not)
        context.recognise()
        let context = WarningsOnce(context)
        if first == UInt8(ascii: "{") && !looksLikeNDJSONEvent(head) || first == UInt8(ascii: "[") {
            try readDocument(input, context: context)
        } else {
            try readLines(input, context: context)
        }
    }

    /// An NDJSON event line starts `{"id"`; a document starts `{"schema"`, perhaps spread
    /// over lines (`jq .` writes it so).
    private func looksLikeNDJSONEvent(_ head: ArraySlice<UInt8>) -> Bool {
        let text = head.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        return !text.starts(with: Array(#"{"schema""#.utf8))
    }

    /// NDJSON events: blocks of lines parsed and decoded on the worker threads, delivered in
    /// input order (each decoder warning once, at its first line).
    private func readLines(_ input: InputReader, context: WarningsOnce) throws(TimelineError) {
        // A slice of a larger file continues its numbering (the events carry their own source).
        var lineNumber = input.position.linesBefore
        var number = input.position.recordsBefore
        let work = OrderedWork<
            (outcome: RecordBlockOutcome, warnings: [(CanonicalDecoder.Warning, SourceLocation)])
        >(limit: RecordBlocks.inFlight)
        let delivery = RecordBlockDelivery(context: context.base, file: input.name)
        let deliver = {
            (
                result:
                    consuming (
                        outcome: RecordBlockOutcome,
                        warnings: [(CanonicalDecoder.Warning, SourceLocation)]
                    )
            ) throws(TimelineError) in
            for (warning, location) in result.warnings { context.report(warning, at: location) }
            try delivery.deliver(result.outcome)
        }
        let base = context.base
        let name = input.name
        do {
            while true {
                var block = JSONRecordBlock(.lines, recordsBefore: number)
                while block.size < RecordBlocks.targetSize, let line = try input.nextLine() {
                    lineNumber += 1
                    guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                    number += 1
                    block.add(line, at: SourceLocation(file: name, line: lineNumber))
                }
                if block.records.isEmpty { break }
                let job = (block, base)
                try work.submit(
                    { Self.decode(job.0, file: name, context: job.1) }, deliver: deliver)
            }
        } catch {
            work.abandon()
            throw error
        }
        try work.finish(deliver: deliver)
    }

    /// The events of a block of NDJSON lines or of a document's elements (on a worker
    /// thread). An element that is not JSON stops the run (`fault`, given its number in
    /// the block) after the events before it; a line that is not JSON is rejected.
    private static func decode(
        _ block: JSONRecordBlock, file: String, context: ImportContext,
        fault: ((Int) -> TimelineError)? = nil
    ) -> (outcome: RecordBlockOutcome, warnings: [(CanonicalDecoder.Warning, SourceLocation)]) {
        var batch = context.makeBatch()
        var messages: [RecordBlockOutcome.Message] = []
        var found: [(CanonicalDecoder.Warning, SourceLocation)] = []
        var lastEventLine = 0
        var scanner = CanonicalEventScanner()
        for (n, entry) in block.records.enumerated() {
            let location = entry.location
            var warnings: [CanonicalDecoder.Warning] = []
            // Nearly every line is read straight from its bytes; the tree decoder reads the
            // rest and says what is wrong with them.
            if let event = block.bytes.withByteView({
                scanner.event($0[entry.range], warnings: &warnings)
            }) {
                batch.add(event)
                lastEventLine = location.line ?? 0
                for w in warnings { found.append((w, location)) }
                continue
            }
            warnings.removeAll()
            let bytes = Array(block.bytes[entry.range])
            let value: JSONValue
            do throws(JSONSyntaxError) {
                value = try JSONParser.parseComplete(bytes, what: "the event")
            } catch {
                if let fault {
                    return (
                        RecordBlockOutcome(
                            events: context.prepare(batch), messages: messages,
                            lastEventLine: lastEventLine, failure: fault(n)), found
                    )
                }
                messages.append(
                    .reject(
                        RejectedRecord(
                            location: SourceLocation(
                                file: file, line: location.line, column: error.offset + 1),
                            raw: String(decoding: bytes, as: UTF8.self),
                            reason: "invalid JSON: \(error.message)", code: .malformedRecord)))
                continue
            }
            do {
                // Canonical input is already normalised: its own `source` (or none) is kept
                // as is, so canonical → canonical conversions are byte-identical.
                batch.add(try CanonicalDecoder.event(from: value, warnings: &warnings))
                lastEventLine = location.line ?? 0
                for w in warnings { found.append((w, location)) }
            } catch {
                messages.append(
                    .reject(
                        RejectedRecord(
                            location: location, raw: String(decoding: bytes, as: UTF8.self),
                            reason: error.message, code: .malformedRecord)
                    ))
            }
        }
        return (
            RecordBlockOutcome(
                events: context.prepare(batch), messages: messages, lastEventLine: lastEventLine),
            found
        )
    }

    /// A document, read chunk by chunk (`JSONInputWindow`): never held whole, so its size
    /// is not bounded by memory.
    private func readDocument(_ input: InputReader, context: WarningsOnce) throws(TimelineError) {
        let name = input.name
        let window = JSONInputWindow(input: input)
        func location(_ offset: Int) -> SourceLocation {
            let (line, column) = window.location(of: offset)
            return SourceLocation(file: name, line: line, column: column)
        }
        do {
            if try window.step({ $0.peek() }) == UInt8(ascii: "[") {
                try readEventArray(window, name: name, context: context, location: location)
            } else {
                try window.step { p throws(JSONSyntaxError) in
                    try p.expect(UInt8(ascii: "{"), "'{' or '['")
                }
                var sawEvents = false
                if !(try window.step { $0.consume(UInt8(ascii: "}")) }) {
                    repeat {
                        // Located now: the window counts lines only forward.
                        let keyAt = location(window.offset)
                        let key = try window.step(value: true) { p throws(JSONSyntaxError) in
                            try p.parseString()
                        }
                        try window.step { p throws(JSONSyntaxError) in
                            try p.expect(UInt8(ascii: ":"), "':'")
                        }
                        switch key {
                        case "events":
                            sawEvents = true
                            try readEventArray(
                                window, name: name, context: context, location: location)
                        case "schema":
                            let v = try window.step(value: true) { p throws(JSONSyntaxError) in
                                try p.parseValue()
                            }
                            guard v == .string(DocumentHeader.schemaID) else {
                                throw TimelineError(
                                    .data,
                                    "unsupported schema \(describe(v)); expected \"timeline/1\"",
                                    at: keyAt)
                            }
                        case "zone", "groups":
                            _ = try window.step(value: true) { p throws(JSONSyntaxError) in
                                try p.parseValue()
                            }
                        default:
                            throw TimelineError(
                                .data,
                                "unknown document field '\(key)'; a timeline document has 'schema', 'zone' and 'events'",
                                at: keyAt)
                        }
                    } while try window.step { $0.consume(UInt8(ascii: ",")) }
                    try window.step { p throws(JSONSyntaxError) in
                        try p.expect(UInt8(ascii: "}"), "',' or '}'")
                    }
                }
                if !sawEvents {
                    throw TimelineError(
                        .data, "the document has no 'events' array",
                        at: SourceLocation(file: name, line: 1, column: 1))
                }
            }
            try window.step { p throws(JSONSyntaxError) in
                p.skipWhitespace()
                if !p.isAtEnd { throw p.error("unexpected \(p.describeNext()) after the document") }
            }
        } catch let e as JSONSyntaxError {
            throw Self.syntaxError(e, at: location(e.offset))
        } catch let e as TimelineError {
            throw e
        } catch {
            throw TimelineError(.data, "\(error)")
        }
    }

    private static func syntaxError(_ e: JSONSyntaxError, at location: SourceLocation)
        -> TimelineError
    {
        TimelineError(
            .data, "invalid JSON: \(e.message)", at: location, code: "json-syntax",
            notes: ["events before this point were converted; fix the document and run again"])
    }

    /// A document's events: the array is cut at its elements here (by strings and nesting
    /// alone, `JSONArrayStream.elementEnd`), and blocks of them are decoded on the worker
    /// threads as NDJSON lines are. An element that is not JSON stops the run with the error
    /// the parser gives reading the document from that element, where it gives it.
    private func readEventArray(
        _ window: JSONInputWindow, name: String, context: WarningsOnce,
        location: (Int) -> SourceLocation
    ) throws {
        try window.step { p throws(JSONSyntaxError) in
            try p.expect(UInt8(ascii: "["), "'[' to start the events")
        }
        if try window.step({ $0.consume(UInt8(ascii: "]")) }) { return }
        let work = OrderedWork<
            (outcome: RecordBlockOutcome, warnings: [(CanonicalDecoder.Warning, SourceLocation)])
        >(limit: RecordBlocks.inFlight)
        let delivery = RecordBlockDelivery(context: context.base, file: name)
        let deliver = {
            (
                result:
                    consuming (
                        outcome: RecordBlockOutcome,
                        warnings: [(CanonicalDecoder.Warning, SourceLocation)]
                    )
            ) throws(TimelineError) in
            for (warning, location) in result.warnings { context.report(warning, at: location) }
            try delivery.deliver(result.outcome)
        }
        let base = context.base
        // Where an event must come and none begins (`[1,,2]`, `[1,]`, the end of input):
        // the parser, reading there, says what is wrong once the events before are out.
        var missing = false
        do {
            var ended = false
            while !ended {
                var records: [(location: SourceLocation, range: Range<Int>)] = []
                var size = 0
                while size < RecordBlocks.targetSize {
                    let (start, end, complete) = try window.nextValue()
                    if end == start {
                        (missing, ended) = (true, true)
                        break
                    }
                    if records.isEmpty { window.keep(from: start) }
                    records.append((location(start), start..<end))
                    size += end - start + 1
                    window.move(to: end)
                    guard complete, try window.step({ $0.consume(UInt8(ascii: ",")) }) else {
                        ended = true
                        break
                    }
                }
                guard let first = records.first, let last = records.last else { continue }
                // The block's elements are one stretch of the document, copied once with the
                // bytes after the last (as many as the window holds, at least its margin or
                // to the end), which a parser reading a faulty element again may look at.
                let from = first.range.lowerBound
                let bytes = Array(
                    window.bytes[(from - window.base)...].prefix(
                        last.range.upperBound - from + JSONInputWindow.margin))
                window.keep(from: nil)
                let block = JSONRecordBlock(
                    .arrayElements, recordsBefore: 0, bytes: bytes,
                    records: records.map {
                        ($0.location, ($0.range.lowerBound - from)..<($0.range.upperBound - from))
                    })
                let job = (block, base)
                try work.submit(
                    {
                        Self.decode(job.0, file: name, context: job.1) { n in
                            Self.fault(in: job.0, element: n, file: name)
                        }
                    }, deliver: deliver)
            }
            try work.finish(deliver: deliver)
        } catch {
            work.abandon()
            throw error
        }
        if missing {
            _ = try window.step(value: true) { p throws(JSONSyntaxError) in try p.parseValue() }
        }
        try window.step { p throws(JSONSyntaxError) in
            try p.expect(UInt8(ascii: "]"), "',' or ']' after an event")
        }
    }

    /// The error for element `n` of a block, which is not JSON: the parser's, reading from
    /// the element as one parser over the document does, located from where it starts.
    private static func fault(in block: JSONRecordBlock, element n: Int, file: String)
        -> TimelineError
    {
        let (start, range) = block.records[n]
        var reader = JSONParser(bytes: block.bytes, offset: range.lowerBound)
        do throws(JSONSyntaxError) {
            _ = try reader.parseValue()
            return TimelineError(.data, "invalid JSON in the events", code: "json-syntax")
        } catch {
            var lines = LineCounter()
            let (line, column) = block.bytes.withByteView {
                lines.location(of: error.offset - range.lowerBound, in: $0[range.lowerBound...])
            }
            let at =
                line == 1
                ? SourceLocation(
                    file: file, line: start.line,
                    column: (start.column ?? 1) + error.offset - range.lowerBound)
                : SourceLocation(file: file, line: (start.line ?? 1) + line - 1, column: column)
            return Self.syntaxError(error, at: at)
        }
    }

    private func describe(_ v: JSONValue) -> String {
        if case .string(let s) = v { return "'\(s)'" }
        return v.typeName
    }

    /// The event in `value`, or nil after rejecting it with the reason.
    private func decode(
        _ value: JSONValue, location: SourceLocation, raw: String, context: WarningsOnce
    ) -> Event? {
        var warnings: [CanonicalDecoder.Warning] = []
        do {
            // Canonical input is already normalised: its own `source` (or none) is kept as
            // is, so canonical → canonical conversions are byte-identical.
            let event = try CanonicalDecoder.event(from: value, warnings: &warnings)
            for w in warnings { context.report(w, at: location) }
            return event
        } catch {
            context.reject(
                RejectedRecord(
                    location: location, raw: raw, reason: error.message, code: .malformedRecord))
            return nil
        }
    }
}

/// The import context, with each distinct decoder warning reported once per input (at its
/// first line): a file whose every event names the same unknown zone gets one warning.
private final class WarningsOnce {
    let base: ImportContext
    private var reported: Set<CanonicalDecoder.Warning> = []

    init(_ base: ImportContext) {
        self.base = base
    }

    func report(_ w: CanonicalDecoder.Warning, at location: SourceLocation) {
        guard reported.insert(w).inserted else { return }
        base.report(Diagnostic(.warning, w.message, at: location, code: w.code))
    }

    func emit(_ event: consuming Event) throws(TimelineError) { try base.emit(event) }
    func reject(_ record: RejectedRecord) { base.reject(record) }
}
