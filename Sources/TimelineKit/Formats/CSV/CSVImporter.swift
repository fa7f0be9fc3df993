import Foundation

/// Where each mapped field's text sits in a CSV row, worked out once per file.
struct CSVColumnPlan {
    /// Fields read from one column each (nearly all), apart from those joined from several
    /// (`--map start=date+time`) or from none: walking them touches no array per row.
    let singles: [(field: MappedField, column: Int)]
    let joined: [(field: MappedField, columns: [Int])]
    let unmapped: [Int]
    let header: [String]

    init(sources: [MappedField: FieldSource], header: [String]) {
        let index = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let columns = MappedField.allCases.compactMap { field in
            sources[field].map { (field: field, columns: $0.columns.compactMap { index[$0] }) }
        }
        singles = columns.compactMap { $0.columns.count == 1 ? ($0.field, $0.columns[0]) : nil }
        joined = columns.filter { $0.columns.count != 1 }
        let used = Set(columns.flatMap(\.columns))
        unmapped = header.indices.filter { !used.contains($0) }
        self.header = header
    }

    /// Sets `texts` to the row `fields`. The same `texts` is refilled for every row of a
    /// block: a fresh one per row was destroyed slot by slot through the runtime's generic
    /// path; refilled, each slot this plan maps is overwritten and the others stay empty.
    func fill(_ texts: inout FieldTexts, from fields: [String]) {
        for (field, column) in singles { texts[field] = FieldTexts.single(fields[column]) }
        for (field, columns) in joined { texts[field] = FieldTexts.join(columns.map { fields[$0] }) }
        if !texts.attributes.isEmpty { texts.attributes.removeAll(keepingCapacity: true) }
        for i in unmapped {
            if let value = FieldTexts.single(fields[i]) { texts.attributes.append((header[i], value)) }
        }
    }
}

/// `csv` and `tsv`: one event per row, through the field mapping. Streams: the
/// input is cut into blocks of whole records (`CSVBlockSplitter`), each block is split into
/// fields and mapped on a worker thread, and the results are handed on in input order.
///
/// Rejected with the row's line and the reason: rows with more or fewer fields than the
/// header, rows the CSV reader could not split (unterminated quote, invalid UTF-8), and rows
/// the mapper refuses (no or unreadable start time, unreadable amount, …).
struct CSVImporter: TimelineImporter {
    var defaultDelimiter: UInt8?
    /// Blocks mapped at once (on the worker threads) ahead of the one being delivered.
    static let blocksInFlight = 6
    /// About how many bytes of records each worker thread maps at a time.
    var blockSize = CSVBlockSplitter.defaultTargetSize

    init(defaultDelimiter: UInt8? = nil) {
        self.defaultDelimiter = defaultDelimiter
    }

    func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        let options = context.options
        guard options.csv.delimiter?.isASCII ?? true else {
            throw TimelineError(.usage, "the CSV delimiter '\(options.csv.delimiter!)' is not an ASCII character")
        }
        let reader = try CSVReader(input: input, delimiter: options.csv.delimiter?.asciiValue ?? defaultDelimiter)
        // The table may begin after a preamble (WeChat Pay and Alipay bills): the header is
        // found among the first records, and the records read after it are converted first.
        let table = try CSVTableStart.find(reader, options: options, file: input.name)
        guard let headerRow = table.header else { return }
        var header: [String]
        var pending = table.after
        if options.csv.hasHeader {
            header = headerRow.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            var seen: [String: Int] = [:]
            for (i, name) in header.enumerated() {
                // Keep every column: a repeated or empty header name gets a suffix.
                let base = name.isEmpty ? String(i + 1) : name
                seen[base, default: 0] += 1
                header[i] = seen[base]! > 1 ? "\(base)_\(seen[base]!)" : base
            }
        } else {
            header = (1...max(headerRow.fields.count, 1)).map(String.init)
            pending.insert(.success(headerRow), at: 0)
        }
        table.report(to: context, file: input.name)
        let sources = try options.mapping.mapping.resolve(columns: header)
        let plan = CSVColumnPlan(sources: sources, header: header)
        var splitter = CSVBlockSplitter(continuing: reader, input: input, targetSize: blockSize)
        // The first block is read before any record is mapped, so that the day/month order
        // its dates show applies to every record.
        var firstBlock = try splitter.next()
        let fieldOrder = context.dateParser.options.fieldOrder != nil
            ? nil : Self.fieldOrder(leading: pending, block: firstBlock, plan: plan, header: header, delimiter: reader.delimiter)
        let rows = CSVRowConverter(
            header: header, delimiter: reader.delimiter, plan: plan, file: input.name,
            mappers: RecordMapperPool(
                sources: sources, options: options.mapping, dates: context.dateParser.options, fieldOrder: fieldOrder, format: context.format,
                file: input.name))
        let work = OrderedWork<CSVBlockOutcome>(limit: Self.blocksInFlight)
        let deliver = { (outcome: consuming CSVBlockOutcome) throws(TimelineError) in try outcome.deliver(to: context) }
        if !pending.isEmpty {
            try rows.convert(CSVBlock(bytes: [], firstLine: 1, recordsBefore: 0, byteOffset: 0), leading: pending, context: context).deliver(to: context)
        }
        let recordsBefore = pending.filter { if case .success(let r) = $0 { return !r.isBlank } else { return true } }.count
        func nextBlock() throws(TimelineError) -> CSVBlock? {
            if let first = firstBlock.take() { return first }
            return try splitter.next()
        }
        do {
            while var block = try nextBlock() {
                block.recordsBefore += recordsBefore
                let job = UncheckedSendable(block)
                try work.submit({ rows.convert(job.value, context: context) }, deliver: deliver)
            }
        } catch {
            work.abandon()
            throw error
        }
        try work.finish(deliver: deliver)
    }

    /// The day/month order the time columns of the first records show (up to
    /// `FieldOrderDetector.defaultWindow` of them), as `timeline dates` decides it for a
    /// stream; nil when they do not decide it.
    static func fieldOrder(leading: [Result<CSVRecord, CSVRecordError>], block: CSVBlock?, plan: CSVColumnPlan, header: [String], delimiter: UInt8) -> FieldOrder? {
        var detector = FieldOrderDetector()
        var texts = FieldTexts()
        var seen = 0
        func observe(_ record: CSVRecord) {
            guard !record.isBlank, record.fields.count == header.count else { return }
            plan.fill(&texts, from: record.fields)
            detector.observe(timesOf: texts)
            seen += 1
        }
        for case .success(let record) in leading { observe(record) }
        if let block {
            let reader = CSVReader(block: block.bytes, delimiter: delimiter, firstLine: block.firstLine, byteOffset: block.byteOffset)
            while seen < FieldOrderDetector.defaultWindow, let next = try? reader.next() {
                if case .success(let record) = next { observe(record) }
            }
        }
        return detector.decided
    }
}

/// What one block of CSV records became: the events (prepared for their consumer), and the
/// rejects and date-engine notices in record order.
struct CSVBlockOutcome {
    enum Message {
        case reject(RejectedRecord)
        case notices([DateNotice], SourceLocation)
    }

    var events: PreparedEvents
    var messages: [Message]

    consuming func deliver(to context: ImportContext) throws(TimelineError) {
        for message in messages {
            switch message {
            case .reject(let r): context.reject(r)
            case .notices(let n, let location): context.report(n, at: location)
            }
        }
        try context.emit(events)
    }
}

/// Splits the records of a block into fields and maps them; safe to run for several blocks
/// at once (each run borrows its own `RecordMapper`).
final class CSVRowConverter: Sendable {
    let header: [String]
    let delimiter: UInt8
    let plan: CSVColumnPlan
    let file: String
    let mappers: RecordMapperPool

    init(header: [String], delimiter: UInt8, plan: CSVColumnPlan, file: String, mappers: RecordMapperPool) {
        self.header = header
        self.delimiter = delimiter
        self.plan = plan
        self.file = file
        self.mappers = mappers
    }

    /// The outcome of `block` (and of `leading`, records already read, before it).
    func convert(_ block: CSVBlock, leading: [Result<CSVRecord, CSVRecordError>] = [], context: ImportContext) -> CSVBlockOutcome {
        let reader = CSVReader(block: block.bytes, delimiter: delimiter, firstLine: block.firstLine, byteOffset: block.byteOffset)
        let mapper = mappers.take()
        defer { mappers.put(mapper) }
        var batch = context.makeBatch()
        var messages: [CSVBlockOutcome.Message] = []
        var number = block.recordsBefore
        var texts = FieldTexts()
        var event = Event.blank  // every record is mapped into this one (see `RecordMapper.map`)
        func raw(of record: CSVRecord) -> String {
            record.raw.isEmpty && !record.span.isEmpty ? String(decoding: block.bytes[record.span], as: UTF8.self) : record.raw
        }
        func handle(_ record: CSVRecord) {
            if record.isBlank { return }  // a blank line is not a record
            number += 1
            let location = SourceLocation(file: file, line: record.line)
            guard record.fields.count == header.count else {
                messages.append(.reject(RejectedRecord(
                    location: location, raw: raw(of: record),
                    reason: "expected \(header.count) fields (as in the header), found \(record.fields.count)", code: .fieldCount,
                    fields: record.fields, header: header)))
                return
            }
            plan.fill(&texts, from: record.fields)
            if let r = mapper.map(texts, number: number, line: record.line, reusing: &event, into: &batch) {
                messages.append(.reject(RejectedRecord(location: location, raw: raw(of: record), reason: r.reason, code: r.code, fields: record.fields, header: header)))
            } else if !mapper.notices.isEmpty {
                messages.append(.notices(mapper.notices, location))
            }
        }
        func fail(_ e: CSVRecordError) {
            number += 1
            messages.append(.reject(RejectedRecord(location: SourceLocation(file: file, line: e.line), raw: e.raw, reason: e.message, code: e.isEncoding ? .invalidEncoding : .malformedRecord, header: header)))
        }
        for item in leading {
            switch item {
            case .success(let record): handle(record)
            case .failure(let e): fail(e)
            }
        }
        while let next = try? reader.next() {
            switch consume next {
            case .success(let record):
                handle(record)
                reader.recycle(record)
            case .failure(let e): fail(e)
            }
        }
        return CSVBlockOutcome(events: context.prepare(batch), messages: messages)
    }
}
