/// Maps the rows of a block; safe to run for several blocks at once (each run borrows its
/// own `RecordMapper`).
final class TableRowConverter: Sendable {
    let header: [String]
    let plan: TableColumnPlan
    let file: String
    let mappers: RecordMapperPool
    /// Rows narrower than the header are padded to its width (`TableRowSource.rowsEndAtLastCell`).
    let spreadsheetRows: Bool

    init(
        header: [String], plan: TableColumnPlan, file: String,
        spreadsheetRows: Bool = false, mappers: RecordMapperPool
    ) {
        self.header = header
        self.plan = plan
        self.file = file
        self.spreadsheetRows = spreadsheetRows
        self.mappers = mappers
    }

    /// The outcome of `block` (and of `leading`, rows already read, before it), with
    /// `recordsBefore` records before them.
    func convert<Block: TableBlock>(
        _ block: Block?, leading: [Result<TableRow, TableRowError>] = [], recordsBefore: Int,
        context: ImportContext
    ) -> RecordBlockOutcome {
        let mapper = mappers.take()
        defer { mappers.put(mapper) }
        var run = BlockRun(
            converter: self, mapper: mapper, batch: context.makeBatch(), number: recordsBefore,
            cellBytes: block?.cellBytes ?? [],
            raw: { record in block?.raw(of: record) ?? record.raw })
        for item in leading {
            switch item {
            case .success(let record): run.handle(record)
            case .failure(let e): run.fail(e)
            }
        }
        var rows = block?.makeRows(inPlace: true)
        while let next = rows?.next() {
            switch consume next {
            case .success(let record):
                run.handle(record)
                rows!.recycle(record)
            case .failure(let e): run.fail(e)
            }
        }
        let (messages, firstEventLine, lastEventLine) =
            (run.messages, run.firstEventLine, run.lastEventLine)
        return RecordBlockOutcome(
            events: context.prepare(run.batch), messages: messages,
            firstEventLine: firstEventLine, lastEventLine: lastEventLine,
            placeholders: mapper.takePlaceholders())
    }
}

/// What mapping one block's rows builds up. A struct with mutating methods rather than
/// state captured by nested functions: captured variables that a recursive function
/// changes live in boxes, checked for exclusive access at run time on every row. The
/// converter's settings are copied in once: read through the class, each row would retain
/// and release them.
private struct BlockRun: ~Copyable {
    let header: [String]
    let plan: TableColumnPlan
    let file: String
    let spreadsheetRows: Bool
    let mapper: RecordMapper
    var batch: EventBatch
    var number: Int
    var texts = FieldTexts()
    let raw: (TableRow) -> String
    var messages: [RecordBlockOutcome.Message] = []
    var event = Event.blank  // every record is mapped into this one (see `RecordMapper.map`)
    var firstEventLine = 0
    var lastEventLine = 0

    init(
        converter: TableRowConverter, mapper: RecordMapper, batch: consuming EventBatch,
        number: Int,
        cellBytes: [UInt8], raw: @escaping (TableRow) -> String
    ) {
        header = converter.header
        plan = converter.plan
        file = converter.file
        spreadsheetRows = converter.spreadsheetRows
        self.mapper = mapper
        self.batch = batch
        self.number = number
        self.raw = raw
        texts.cellBytes = cellBytes
    }

    private func fields(of record: TableRow) -> [String] {
        record.cells.isEmpty
            ? record.fields
            : record.cells.map { TableColumnPlan.text(of: $0, in: texts.cellBytes) }
    }

    /// Whether `record` is read in place and mapped as it is: as wide as the header, as
    /// nearly all rows are (a lone empty cell is a blank line).
    private func isInPlaceRow(_ record: TableRow) -> Bool {
        record.cells.count == header.count
            && !(record.cells.count == 1 && record.cells[0].range.isEmpty)
    }

    /// Any other record as `map` takes it: its fields as strings, padded or trimmed to the
    /// header's width where that applies; nil for a blank line, which is no record.
    private func normalized(_ record: TableRow) -> TableRow? {
        if !record.cells.isEmpty {
            var row = record
            row.fields = fields(of: record)
            row.cells = []
            return normalized(row)
        }
        if record.isBlank { return nil }
        if record.fields.count != header.count {
            if spreadsheetRows && record.fields.count < header.count {
                return normalized(record.padded(to: header.count))
            }
            if let trimmed = record.trimmedTrailingEmpty(to: header.count) {
                return normalized(trimmed)
            }
        }
        return record
    }

    mutating func handle(_ record: TableRow) {
        // Not through `normalized`, whose copy of the row would cost a retain and a release
        // of each of its arrays.
        if isInPlaceRow(record) {
            map(record)
        } else if let row = normalized(record) {
            map(row)
        }
    }

    /// Maps `record`: a row read in place, or one `normalized` gave.
    private mutating func map(_ record: TableRow) {
        number += 1
        let location = SourceLocation(file: file, line: record.line)
        // A summary line has few cells filled: at most one in a table of three or four
        // columns, two in one of five to eight, a quarter of a wider one's (a bank's totals
        // row, eBay's `4,record(s) downloaded,…`).
        func fewFilled() -> Bool {
            fields(of: record).lazy.filter { !$0.trimmingSpaces.isEmpty }.count
                <= max(min(2, (header.count - 1) / 2), header.count / 4)
        }
        guard !record.cells.isEmpty || record.fields.count == header.count else {
            let rejected = RejectedRecord(
                location: location, raw: raw(record),
                reason:
                    "expected \(header.count) fields (as in the header), found \(record.fields.count)",
                code: .fieldCount,
                fields: record.fields, header: header)
            messages.append(fewFilled() ? .unfitting(rejected) : .reject(rejected))
            return
        }
        if record.cells.isEmpty {
            plan.fill(&texts, from: record.fields)
        } else {
            plan.fill(&texts, cells: record.cells)
        }
        if let r = mapper.map(
            texts, number: number, line: record.line, reusing: &event, into: &batch)
        {
            let rejected = RejectedRecord(
                location: location, raw: raw(record), reason: r.reason, code: r.code,
                fields: fields(of: record), header: header)
            if r.continuation {
                messages.append(.continuation(location))
            } else if (spreadsheetRows || r.code == .missingStart) && fewFilled() {
                messages.append(.unfitting(rejected))
            } else {
                messages.append(.reject(rejected))
            }
        } else {
            if firstEventLine == 0 { firstEventLine = record.line }
            lastEventLine = record.line
            if !mapper.notices.isEmpty { messages.append(.notices(mapper.notices, location)) }
        }
    }

    mutating func fail(_ e: TableRowError) {
        number += 1
        messages.append(
            .reject(
                RejectedRecord(
                    location: SourceLocation(file: file, line: e.line), raw: e.raw,
                    reason: e.message,
                    code: e.isEncoding ? .invalidEncoding : .malformedRecord, header: header)))
    }
}
