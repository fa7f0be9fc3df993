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
        var batch = context.makeBatch()
        var messages: [RecordBlockOutcome.Message] = []
        var number = recordsBefore
        var texts = FieldTexts()
        var event = Event.blank  // every record is mapped into this one (see `RecordMapper.map`)
        var firstEventLine = 0
        var lastEventLine = 0
        func raw(of record: TableRow) -> String { block?.raw(of: record) ?? record.raw }
        texts.cellBytes = block?.cellBytes ?? []
        func fields(of record: TableRow) -> [String] {
            record.cells.isEmpty
                ? record.fields
                : record.cells.map { TableColumnPlan.text(of: $0, in: texts.cellBytes) }
        }
        func handle(_ record: TableRow) {
            if !record.cells.isEmpty,
                record.cells.count != header.count
                    || (record.cells.count == 1 && record.cells[0].range.isEmpty)
            {
                // Rows as wide as the header, as nearly all are, are read in place; the
                // others as strings.
                var row = record
                row.fields = fields(of: record)
                row.cells = []
                return handle(row)
            }
            if record.cells.isEmpty {
                if record.isBlank { return }  // a blank line is not a record
                if record.fields.count != header.count {
                    if spreadsheetRows && record.fields.count < header.count {
                        return handle(record.padded(to: header.count))
                    }
                    if let trimmed = record.trimmedTrailingEmpty(to: header.count) {
                        return handle(trimmed)
                    }
                }
            }
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
                    location: location, raw: raw(of: record),
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
                    location: location, raw: raw(of: record), reason: r.reason, code: r.code,
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
        func fail(_ e: TableRowError) {
            number += 1
            messages.append(
                .reject(
                    RejectedRecord(
                        location: SourceLocation(file: file, line: e.line), raw: e.raw,
                        reason: e.message,
                        code: e.isEncoding ? .invalidEncoding : .malformedRecord, header: header)))
        }
        for item in leading {
            switch item {
            case .success(let record): handle(record)
            case .failure(let e): fail(e)
            }
        }
        var rows = block?.makeRows(inPlace: true)
        while let next = rows?.next() {
            switch consume next {
            case .success(let record):
                handle(record)
                rows!.recycle(record)
            case .failure(let e): fail(e)
            }
        }
        return RecordBlockOutcome(
            events: context.prepare(batch), messages: messages, firstEventLine: firstEventLine,
            lastEventLine: lastEventLine,
            placeholders: mapper.takePlaceholders())
    }
}
