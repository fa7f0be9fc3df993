/// One NDJSON line read as a record, or why it is not one. The line's text is made for a
/// rejection only: a record that maps needs none.
enum NDJSONLine {
    case record(JSONRow, SourceLocation)
    case rejected(RejectedRecord)

    static func parse(_ line: [UInt8], line lineNumber: Int, file: String) -> NDJSONLine {
        let location = SourceLocation(file: file, line: lineNumber)
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parseComplete(line, what: "the record")
        } catch {
            return .rejected(
                RejectedRecord(
                    location: SourceLocation(
                        file: file, line: lineNumber, column: error.offset + 1),
                    raw: String(decoding: line, as: UTF8.self),
                    reason: "invalid JSON: \(error.message)", code: .malformedRecord))
        }
        guard case .object(let pairs) = value else {
            return .rejected(
                RejectedRecord(
                    location: location, raw: String(decoding: line, as: UTF8.self),
                    reason: "expected a JSON object per line, found \(value.typeName)",
                    code: .malformedRecord))
        }
        return .record(JSONRow(pairs: pairs, siblings: []), location)
    }
}

/// JSON records handed to a worker thread: NDJSON lines (non-blank) or the elements of a
/// top-level array, each with where it starts.
struct JSONRecordBlock {
    enum Kind {
        /// One record per line: a line that is not JSON is rejected.
        case lines
        /// Elements of an array: one that is not JSON stops the run (as the document does).
        case arrayElements
    }

    let kind: Kind
    /// Records before the block.
    let recordsBefore: Int
    /// The records' bytes, one after another: one buffer for the block rather than an array
    /// per record, which the reading thread would allocate, and a worker free, record by
    /// record. (A slice of the reader's buffer would keep it shared, and the reader would
    /// copy it at its next read.)
    private(set) var bytes: [UInt8] = []
    /// Where each record starts in the file, and its bytes in `bytes`.
    private(set) var records: [(location: SourceLocation, range: Range<Int>)] = []
    var size: Int { bytes.count + records.count }

    init(_ kind: Kind, recordsBefore: Int) {
        self.kind = kind
        self.recordsBefore = recordsBefore
        bytes.reserveCapacity(RecordBlocks.targetSize)
    }

    /// A block of records that lie in `bytes` already, one stretch of the input.
    init(
        _ kind: Kind, recordsBefore: Int, bytes: [UInt8],
        records: [(location: SourceLocation, range: Range<Int>)]
    ) {
        self.kind = kind
        self.recordsBefore = recordsBefore
        self.bytes = bytes
        self.records = records
    }

    mutating func add(_ record: some Collection<UInt8>, at location: SourceLocation) {
        let start = bytes.count
        bytes.append(contentsOf: record)
        records.append((location, start..<bytes.count))
    }

    /// Where `offset` bytes into a record are, from where the record starts.
    static func location(_ offset: Int, in bytes: [UInt8], from start: SourceLocation)
        -> SourceLocation
    {
        let before = bytes.prefix(offset)
        guard let lastBreak = before.lastIndex(of: 0x0A) else {
            return SourceLocation(
                file: start.file, line: start.line, column: (start.column ?? 1) + offset)
        }
        return SourceLocation(
            file: start.file, line: (start.line ?? 1) + before.count { $0 == 0x0A },
            column: offset - lastBreak)
    }
}

/// Parses and maps the records of a block on a worker thread, with its own date parser and
/// a mapper per key set (each record is mapped by its own keys, as `RecordSink` does).
final class JSONRecordBlockMapper {
    private let options: ReadOptions
    private let parser: DateParser
    private let context: ImportContext
    private let file: String
    private var mappers = JSONKeySetMappers()

    private init(options: ReadOptions, parser: DateParser, context: ImportContext, file: String) {
        self.options = options
        self.parser = parser
        self.context = context
        self.file = file
    }

    /// Makes the mapper of a key set. Resolving fails only for explicit columns, which nested
    /// JSON paths allow, so a record it fails for has no start.
    private func makeMapper(_ keys: [String]) throws(TimelineError) -> RecordMapper {
        let sources = try options.mapping.mapping.resolve(columns: keys, allowNested: true)
        return RecordMapper(
            sources: sources, options: options.mapping.withDecimalPoints, parser: parser,
            format: context.format, file: file)
    }

    /// Reads a block's records: each as a flat object when it is one (nearly always), else
    /// through the tree, which also says what is wrong with a record that is not JSON.
    func map(_ block: JSONRecordBlock) -> RecordBlockOutcome {
        // The mappers are taken for the block and given back at its end: every use of a
        // class's stored property is checked for exclusive access at run time.
        var mappers = JSONKeySetMappers()
        swap(&mappers, &self.mappers)
        defer { swap(&mappers, &self.mappers) }
        var batch = context.makeBatch()
        var messages: [RecordBlockOutcome.Message] = []
        var lastEventLine = 0
        var flat = JSONFlatObject()
        // Refilled record after record while the key set stays (see `JSONRowPlan.fill`).
        var texts = FieldTexts()
        var textsMapper: RecordMapper?
        var placeholders: [String: Int] = [:]
        var event = Event.blank  // every record is mapped into this one (see `RecordMapper.map`)
        func raw(_ range: Range<Int>) -> String {
            String(decoding: block.bytes[range], as: UTF8.self)
        }
        // The batch is passed, not captured: it has one owner, which hands it on at the end.
        func map(
            _ entry: JSONKeySetMappers.Entry, number: Int, location: SourceLocation,
            range: Range<Int>, into batch: inout EventBatch, fill: (inout FieldTexts) -> Void
        ) {
            let mapper = entry.mapper
            if mapper !== textsMapper {
                texts = FieldTexts()
                textsMapper = mapper
            }
            fill(&texts)
            let before = batch.count
            if let r = mapper.map(
                texts, number: number, line: location.line, reusing: &event, into: &batch)
            {
                messages.append(
                    .reject(
                        RejectedRecord(
                            location: location, raw: raw(range), reason: r.reason, code: r.code)))
            } else if batch.count > before {
                if !mapper.notices.isEmpty { messages.append(.notices(mapper.notices, location)) }
                lastEventLine = location.line ?? 0
            }
            if !mapper.placeholders.isEmpty {
                placeholders.merge(mapper.takePlaceholders(), uniquingKeysWith: +)
            }
        }
        for (i, record) in block.records.enumerated() {
            let number = block.recordsBefore + i + 1
            if flat.read(block.bytes, record.range),
                let entry = try? mappers.entry(for: flat, make: makeMapper)
            {
                map(
                    entry, number: number, location: record.location, range: record.range,
                    into: &batch
                ) {
                    entry.plan.fill(&$0, from: flat)
                }
                continue
            }
            // The tree reads the record on its own.
            let bytes = Array(block.bytes[record.range])
            let parsed: NDJSONLine
            switch block.kind {
            case .lines:
                parsed = NDJSONLine.parse(bytes, line: record.location.line ?? 0, file: file)
            case .arrayElements:
                do throws(JSONSyntaxError) {
                    let value = try JSONParser.parseComplete(bytes, what: "a record")
                    guard case .object(let pairs) = value else {
                        parsed = .rejected(
                            RejectedRecord(
                                location: record.location, raw: raw(record.range),
                                reason:
                                    "expected a JSON object as a record, found \(value.typeName)",
                                code: .malformedRecord))
                        break
                    }
                    parsed = .record(JSONRow(pairs: pairs, siblings: []), record.location)
                } catch {
                    // The records before it are delivered; the run stops here.
                    let failure = TimelineError(
                        .data, "invalid JSON: \(error.message)",
                        at: JSONRecordBlock.location(
                            error.offset, in: bytes, from: record.location),
                        code: "json-syntax")
                    return RecordBlockOutcome(
                        events: context.prepare(batch), messages: messages,
                        lastEventLine: lastEventLine, placeholders: placeholders, failure: failure
                    )
                }
            }
            switch parsed {
            case .rejected(let rejected):
                messages.append(.reject(rejected))
            case .record(let row, let location):
                guard let entry = try? mappers.entry(for: row, make: makeMapper) else {
                    messages.append(
                        .reject(
                            RejectedRecord(
                                location: location, raw: raw(record.range), reason: "no start time",
                                code: .missingStart)))
                    continue
                }
                map(entry, number: number, location: location, range: record.range, into: &batch) {
                    entry.plan.fill(&$0, from: row)
                }
            }
        }
        return RecordBlockOutcome(
            events: context.prepare(batch), messages: messages, lastEventLine: lastEventLine,
            placeholders: placeholders)
    }

    /// Mappers for the worker threads; a finished block returns its mapper for the next.
    final class Pool: Sendable {
        private let mappers: ObjectPool<JSONRecordBlockMapper>

        /// - Parameter fieldOrder: the day/month order the first records decided.
        init(
            options: ReadOptions, dates: DateParsingOptions, fieldOrder: FieldOrder?,
            context: ImportContext, file: String
        ) {
            mappers = ObjectPool {
                let parser = DateParser(options: dates)
                parser.setFieldOrder(fieldOrder)
                return JSONRecordBlockMapper(
                    options: options, parser: parser, context: context, file: file)
            }
        }

        func map(_ block: JSONRecordBlock) -> RecordBlockOutcome {
            mappers.borrow { $0.map(block) }
        }
    }
}
