/// One NDJSON line read as a record, or why it is not one.
enum NDJSONLine {
    case record(JSONRow, SourceLocation, raw: String)
    case rejected(RejectedRecord)

    static func parse(_ line: ArraySlice<UInt8>, number: Int, line lineNumber: Int, file: String) -> NDJSONLine {
        let raw = String(decoding: line, as: UTF8.self)
        let location = SourceLocation(file: file, line: lineNumber)
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parseComplete(Array(line), what: "the record")
        } catch {
            return .rejected(RejectedRecord(
                location: SourceLocation(file: file, line: lineNumber, column: error.offset + 1), raw: raw,
                reason: "invalid JSON: \(error.message)", code: .malformedRecord))
        }
        guard case .object(let pairs) = value else {
            return .rejected(RejectedRecord(location: location, raw: raw, reason: "expected a JSON object per line, found \(value.typeName)", code: .malformedRecord))
        }
        return .record(JSONRow(pairs: pairs, siblings: []), location, raw: raw)
    }
}

/// NDJSON lines handed to a worker thread: non-blank lines with their line numbers.
struct NDJSONBlock {
    let firstLine: Int
    /// Records (non-blank lines) before the block.
    let recordsBefore: Int
    /// Each line's bytes are its own (a slice would keep the reader's buffer shared, and
    /// the reader would copy it at its next read).
    private(set) var lines: [(line: Int, bytes: [UInt8])] = []
    private(set) var size = 0

    init(firstLine: Int, recordsBefore: Int) {
        self.firstLine = firstLine
        self.recordsBefore = recordsBefore
    }

    mutating func add(_ bytes: ArraySlice<UInt8>, at line: Int) {
        lines.append((line, Array(bytes)))
        size += bytes.count + 1
    }
}

/// Parses and maps the lines of a block on a worker thread, with its own date parser and a
/// mapper per key set (each record is mapped by its own keys, as `RecordSink` does).
final class NDJSONBlockMapper {
    private let options: ReadOptions
    private let parser: DateParser
    private let context: ImportContext
    private let file: String
    private var mappers: [[String]: RecordMapper] = [:]

    private init(options: ReadOptions, parser: DateParser, context: ImportContext, file: String) {
        self.options = options
        self.parser = parser
        self.context = context
        self.file = file
    }

    private func mapper(for row: JSONRow) -> RecordMapper? {
        let keys = row.pairs.map(\.0)
        if let known = mappers[keys] { return known }
        guard let sources = try? options.mapping.mapping.resolve(columns: keys, allowNested: true) else { return nil }
        let mapper = RecordMapper(sources: sources, options: options.mapping, parser: parser, format: context.format, file: file)
        if mappers.count < 256 { mappers[keys] = mapper }
        return mapper
    }

    func map(_ block: NDJSONBlock) -> RecordBlockOutcome {
        var batch = context.makeBatch()
        var messages: [RecordBlockOutcome.Message] = []
        var lastEventLine = 0
        for (i, entry) in block.lines.enumerated() {
            let number = block.recordsBefore + i + 1
            switch NDJSONLine.parse(entry.bytes[...], number: number, line: entry.line, file: file) {
            case .rejected(let record):
                messages.append(.reject(record))
            case .record(let row, let location, let raw):
                // Resolving a key set only fails for explicit columns, which nested JSON
                // paths allow; a record it fails for has no start.
                guard let mapper = mapper(for: row) else {
                    messages.append(.reject(RejectedRecord(location: location, raw: raw, reason: "no start time", code: .missingStart)))
                    continue
                }
                var rejection: RecordMapper.Rejection?
                let events = mapper.mapAll(row.texts(mapper.sources, events: mapper.events), number: number, line: entry.line, rejection: &rejection)
                if !events.isEmpty {
                    if !mapper.notices.isEmpty { messages.append(.notices(mapper.notices, location)) }
                    for event in events { batch.add(event) }
                    lastEventLine = entry.line
                } else if let r = rejection {
                    messages.append(.reject(RejectedRecord(location: location, raw: raw, reason: r.reason, code: r.code)))
                }
            }
        }
        return RecordBlockOutcome(events: context.prepare(batch), messages: messages, lastEventLine: lastEventLine)
    }

    /// Mappers for the worker threads; a finished block returns its mapper for the next.
    final class Pool: @unchecked Sendable {
        private let make: () -> NDJSONBlockMapper
        private let idle = LockedBox<[NDJSONBlockMapper]>([])

        /// - Parameter fieldOrder: the day/month order the first records decided.
        init(options: ReadOptions, dates: DateParsingOptions, fieldOrder: FieldOrder?, context: ImportContext, file: String) {
            make = {
                let parser = DateParser(options: dates)
                parser.setFieldOrder(fieldOrder)
                return NDJSONBlockMapper(options: options, parser: parser, context: context, file: file)
            }
        }

        func map(_ block: NDJSONBlock) -> RecordBlockOutcome {
            let mapper = idle.withLock { $0.popLast() } ?? make()
            defer { idle.withLock { $0.append(mapper) } }
            return mapper.map(block)
        }
    }
}
