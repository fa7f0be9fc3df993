import Foundation

/// Where each mapped field's text sits in a CSV row, worked out once per file.
struct CSVColumnPlan {
    /// Fields read from one column each (nearly all), apart from those joined from several
    /// (`--map start=date+time`) or from none: walking them touches no array per row.
    let singles: [(field: MappedField, column: Int)]
    let joined: [(field: MappedField, columns: [Int])]
    let unmapped: [Int]
    let header: [String]
    /// Timeline's own CSV: the column whose JSON object holds attributes with no column of
    /// their own (`other_attributes`), spread back into them.
    let spread: Int?
    /// A wide row's event columns (`FieldMapping.events`), in their order.
    let events: [Int]

    init(
        sources: [MappedField: FieldSource], events: [WideRowEvent] = [], header: [String],
        spreadsAttributes: Bool = false
    ) {
        let index = Dictionary(
            header.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let columns = MappedField.allCases.compactMap { field in
            sources[field].map { (field: field, columns: $0.columns.compactMap { index[$0] }) }
        }
        singles = columns.compactMap { $0.columns.count == 1 ? ($0.field, $0.columns[0]) : nil }
        joined = columns.filter { $0.columns.count != 1 }
        self.events = events.compactMap { index[$0.column] }
        let used = Set(columns.flatMap(\.columns) + self.events)
        unmapped = header.indices.filter { !used.contains($0) }
        self.header = header
        spread = spreadsAttributes ? header.lastIndex(of: "other_attributes") : nil
    }

    /// Sets `texts` to the row `fields`. The same `texts` is refilled for every row of a
    /// block: a fresh one per row was destroyed slot by slot through the runtime's generic
    /// path; refilled, each slot this plan maps is overwritten and the others stay empty.
    func fill(_ texts: inout FieldTexts, from fields: [String]) {
        for (field, column) in singles { texts[field] = FieldTexts.single(fields[column]) }
        for (field, columns) in joined {
            texts[field] = FieldTexts.join(columns.map { fields[$0] })
        }
        if !events.isEmpty { texts.eventTimes = events.map { FieldTexts.single(fields[$0]) } }
        if !texts.attributes.isEmpty { texts.attributes.removeAll(keepingCapacity: true) }
        for i in unmapped {
            guard let value = FieldTexts.single(fields[i]) else { continue }
            if i == spread,
                case .object(let pairs)? = try? JSONParser.parseComplete(
                    Array(value.utf8), what: "other_attributes")
            {
                for case (let name, .string(let text)) in pairs {
                    texts.attributes.append((name, text))
                }
            } else {
                texts.attributes.append((header[i], value))
            }
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
    /// About how many bytes of records each worker thread maps at a time.
    var blockSize = RecordBlocks.targetSize
    /// The table is a spreadsheet's (XLSX): a row ends at its last filled cell, so rows
    /// narrower than the header are padded to it, a summary line after the table is told by
    /// its few filled cells rather than its width, and `--delimiter` does not apply.
    var spreadsheetRows = false

    init(defaultDelimiter: UInt8? = nil) {
        self.defaultDelimiter = defaultDelimiter
    }

    func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        var options = context.options
        guard spreadsheetRows || options.csv.delimiter?.isASCII ?? true else {
            throw TimelineError(
                .usage, "the CSV delimiter '\(options.csv.delimiter!)' is not an ASCII character")
        }
        var delimiter =
            spreadsheetRows
            ? defaultDelimiter : options.csv.delimiter?.asciiValue ?? defaultDelimiter
        let named = try options.csv.columns.map { columns throws(TimelineError) in
            try Self.names(columns, delimiter: &delimiter)
        }
        let reader = try CSVReader(input: input, delimiter: delimiter)
        reader.maxRecord = options.maxRecordSize
        // The table may begin after a preamble (WeChat Pay and Alipay bills): the header is
        // found among the first records, and the records read after it are converted first.
        let table = try CSVTableStart.find(
            reader, options: options, file: input.name, columns: named,
            spreadsheetRows: spreadsheetRows)
        guard let headerRow = table.header else { return }
        var header: [String]
        var pending = table.after
        if options.csv.readsHeaderLine && !table.headerless {
            header = headerRow.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            var seen: [String: Int] = [:]
            for (i, name) in header.enumerated() {
                // Keep every column: a repeated or empty header name gets a suffix.
                let base = name.isEmpty ? String(i + 1) : name
                seen[base, default: 0] += 1
                header[i] = seen[base]! > 1 ? "\(base)_\(seen[base]!)" : base
            }
        } else {
            // No header line: the first row is a record, under the names given or 1, 2, ….
            header = named ?? (1...max(headerRow.fields.count, 1)).map(String.init)
            pending.insert(.success(headerRow), at: 0)
        }
        table.report(to: context, file: input.name)
        if let preset = table.preset { options = preset.applied(to: options, columns: header) }
        var sources = try options.mapping.mapping.resolve(columns: header)
        // Timeline's own CSV names every field: nothing is guessed from its values, and the
        // attributes it could not give a column come back from `other_attributes`.
        let canonical =
            options.mapping.mapping.explicit.isEmpty
            && header.starts(with: CSVExporter.fixedColumns)
        options.mapping.zoneColumnIsTheStarts = canonical
        var splitter = CSVBlockSplitter(
            continuing: reader, input: input, targetSize: blockSize,
            maxRecord: options.maxRecordSize)
        // The first block is read before any record is mapped, so that the day/month order
        // its dates show applies to every record, and a start no name gives is found in it.
        var firstBlock = try splitter.next()
        // What the names leave open, the first records' values decide (read once, if needed).
        var sampled: [[String]]?
        func sample() -> [[String]] {
            if let sampled { return sampled }
            let rows = Self.sample(
                leading: pending, block: firstBlock, width: header.count,
                delimiter: reader.delimiter)
            sampled = rows
            return rows
        }
        // No start named, or one found by its name alone.
        if !canonical && options.mapping.mapping.explicit[.start] == nil
            && options.mapping.mapping.events.isEmpty
        {
            let sniffer = TimeColumnSniffer(parser: DateParser(options: context.dateParser.options))
            let used = Set(sources.filter { $0.key != .start }.values.flatMap(\.columns))
            if let choice = sniffer.choose(
                header: header, rows: sample(), used: used, named: sources[.start])
            {
                choice.apply(to: &sources)
                context.report(
                    choice.note(
                        file: input.name, line: table.header?.line, verbose: context.verbose))
            }
        }
        // No start at all: every row would be rejected for the same reason, so the file is
        // refused once, with its columns.
        if sources[.start] == nil && options.mapping.mapping.explicit[.start] == nil
            && options.mapping.mapping.events.isEmpty
            && sample().contains(where: { $0.contains { !$0.isEmpty } })
        {
            throw MissingStartColumn(header: header).error(
                file: input.name, line: table.header?.line)
        }
        // Money written in pairs by direction (`记账金额(收入)`/`(支出)`): the pair that holds
        // amounts, rather than one of them a name gave as the amount.
        let explicitMoney =
            canonical
            || [MappedField.amount, .debit, .credit].contains {
                options.mapping.mapping.explicit[$0] != nil
            }
        if !explicitMoney, sources[.debit] == nil, sources[.credit] == nil,
            sources[.amount].map({
                $0.columns.count == 1 && AmountColumnSniffer.direction(of: $0.columns[0]) != nil
            }) ?? true
        {
            let used = Set(sources.filter { $0.key != .amount }.values.flatMap(\.columns))
            if let pair = AmountColumnSniffer(parser: options.mapping.amounts).choosePair(
                header: header, rows: sample(), used: used)
            {
                sources[.amount] = nil
                sources[.debit] = FieldSource(columns: [pair.debit])
                sources[.credit] = FieldSource(columns: [pair.credit])
            }
        }
        // No amount named: a column whose header names money and whose values are amounts.
        if sources[.amount] == nil && sources[.debit] == nil && sources[.credit] == nil
            && !explicitMoney
        {
            let used = Set(sources.values.flatMap(\.columns))
            if let column = AmountColumnSniffer(parser: options.mapping.amounts).choose(
                header: header, rows: sample(), used: used)
            {
                // What the account owes is paid out: a debit.
                sources[AmountColumnSniffer.namesMoneyOut(column) ? .debit : .amount] = FieldSource(
                    columns: [column])
                if context.verbose {
                    context.report(
                        Diagnostic(
                            .info,
                            "the amount is read from '\(column)' (its name says money; its values are amounts)",
                            at: SourceLocation(file: input.name, line: table.header?.line)))
                }
            }
        }
        // Columns with no names (1, 2, …): the amount and the title from their values alone.
        if !canonical, sources[.start] != nil, header == (1...max(header.count, 1)).map(String.init)
        {
            let unnamed = UnnamedColumns(
                amounts: AmountColumnSniffer(parser: options.mapping.amounts))
            unnamed.fill(
                &sources, header: header, rows: sample(),
                explicit: Set(options.mapping.mapping.explicit.keys))
        }
        // The status, ids, title and category no name gave: from the headers' words and values.
        if !canonical, sources[.start] != nil {
            FieldWordsSniffer(statuses: options.mapping.statuses).fill(
                &sources, header: header, rows: sample(),
                explicit: Set(options.mapping.mapping.explicit.keys))
        }
        if sources[.start] != nil || !options.mapping.mapping.events.isEmpty { context.recognise() }
        // A card's bill: its amounts are what the card owes, money out (as a debit).
        if !explicitMoney, let amount = sources[.amount], amount.columns.count == 1,
            let title = sources[.title] ?? sources[.detail], title.columns.count == 1,
            let a = header.firstIndex(of: amount.columns[0]),
            let t = header.firstIndex(of: title.columns[0])
        {
            let rows = sample().filter { $0.count > max(a, t) }.map {
                (title: $0[t].cleanedCell, amount: $0[a].cleanedCell)
            }
            if CardBill.isBill(rows) {
                sources[.amount] = nil
                sources[.debit] = amount
                let payment = rows.first { CardBill.paysTheBill($0.title) }!.title
                context.report(
                    Diagnostic(
                        .info,
                        "read as a card's bill: '\(amount)' is what the card owes, so a positive amount is money out ('\(payment)' pays the bill with a negative one, and most rows are positive)",
                        at: SourceLocation(file: input.name, line: table.header?.line),
                        notes: ["--map amount=\(amount) reads the amounts as written"]
                    ))
            }
        }
        // A debit column whose every sampled amount is negative writes them signed.
        if let debit = sources[.debit], debit.columns.count == 1,
            let index = header.firstIndex(of: debit.columns[0])
        {
            let written = Placeholder.filled(sample(), column: index)
            options.mapping.debitsSigned =
                !written.isEmpty && written.allSatisfy(AmountParser.isWrittenNegative)
        }
        // Each money column's decimal mark, from its values, unless a flag names one.
        if options.mapping.amounts.decimalMark == nil {
            let marks = try TableDecimalMarks(
                header: header, rows: sample(), sources: sources, spreadsheet: spreadsheetRows,
                file: input.name, line: table.header?.line)
            options.mapping.inferredDecimalMarks = marks.marks
            for note in marks.notes {
                context.report(
                    Diagnostic(
                        .info, note, at: SourceLocation(file: input.name, line: table.header?.line))
                )
            }
        }
        let plan = CSVColumnPlan(
            sources: sources, events: options.mapping.mapping.events, header: header,
            spreadsAttributes: canonical)
        // The file's values decide the day/month order; a preset says how its service writes
        // dates the values leave open.
        let fieldOrder =
            context.dateParser.options.fieldOrder != nil
            ? nil
            : Self.fieldOrder(
                leading: pending, block: firstBlock, plan: plan, header: header,
                delimiter: reader.delimiter, spreadsheetRows: spreadsheetRows)
                ?? table.preset?.dateOrder
        let rows = CSVRowConverter(
            header: header, delimiter: reader.delimiter, plan: plan, file: input.name,
            spreadsheetRows: spreadsheetRows,
            mappers: RecordMapperPool(
                sources: sources, options: options.mapping, dates: context.dateParser.options,
                fieldOrder: fieldOrder, format: context.format,
                file: input.name))
        let work = OrderedWork<RecordBlockOutcome>(limit: RecordBlocks.inFlight)
        let delivery = RecordBlockDelivery(
            context: context, file: input.name, endsFile: input.slice == nil)
        let deliver = { (outcome: consuming RecordBlockOutcome) throws(TimelineError) in
            try delivery.deliver(outcome)
        }
        if !pending.isEmpty {
            try delivery.deliver(
                rows.convert(
                    CSVBlock(
                        bytes: [], firstLine: 1, recordsBefore: input.position.recordsBefore,
                        byteOffset: 0), leading: pending, context: context)
            )
        }
        let recordsBefore =
            input.position.recordsBefore
            + pending.filter {
                if case .success(let r) = $0 { return !r.isBlank } else { return true }
            }.count
        func nextBlock() throws(TimelineError) -> CSVBlock? {
            if let first = firstBlock {
                firstBlock = nil
                return first
            }
            return try splitter.next()
        }
        do {
            while var block = try nextBlock() {
                block.recordsBefore += recordsBefore
                let job = block
                try work.submit({ rows.convert(job, context: context) }, deliver: deliver)
            }
        } catch {
            work.abandon()
            throw error
        }
        try work.finish(deliver: deliver)
        delivery.finish()
    }

    /// The column names `columns` gives; a header file read without a delimiter sets the
    /// one it shows for the input too (the two are parts of one file).
    static func names(_ columns: CSVColumns, delimiter: inout UInt8?) throws(TimelineError)
        -> [String]
    {
        switch columns {
        case .names(let names): return names
        case .headerOf(let path):
            let file = try InputReader(path: path)
            let reader = try CSVReader(input: file, delimiter: delimiter)
            delimiter = reader.delimiter
            switch try reader.next() {
            case .success(let record)? where !record.isBlank:
                return record.fields.map(\.trimmingSpaces)
            case .failure(let e)?:
                throw TimelineError(
                    .data, "cannot read the header line: \(e.message)",
                    at: SourceLocation(file: path, line: e.line))
            default:
                throw TimelineError(
                    .data, "--header-from '\(path)': the file's first line names no columns",
                    at: SourceLocation(file: path, line: 1))
            }
        }
    }

    /// Up to `TimeColumnSniffer.sampleSize` records' fields from `leading` and `block`, each
    /// as wide as the header (narrower spreadsheet rows padded, others left out).
    static func sample(
        leading: [Result<CSVRecord, CSVRecordError>], block: CSVBlock?, width: Int, delimiter: UInt8
    ) -> [[String]] {
        var rows: [[String]] = []
        func take(_ record: CSVRecord) {
            guard !record.isBlank else { return }
            if let trimmed = record.trimmedTrailingEmpty(to: width) {
                return rows.append(trimmed.fields)
            }
            guard record.fields.count <= width else { return }
            rows.append(record.padded(to: width).fields)
        }
        for case .success(let record) in leading { take(record) }
        if let block {
            let reader = CSVReader(
                block: block.bytes, delimiter: delimiter, firstLine: block.firstLine,
                byteOffset: block.byteOffset)
            while rows.count < TimeColumnSniffer.sampleSize, let next = try? reader.next() {
                if case .success(let record) = next { take(record) }
            }
        }
        return rows
    }

    /// The day/month order the time columns of the first records show (up to
    /// `FieldOrderDetector.defaultWindow` of them), as `timeline dates` decides it for a
    /// stream; nil when they do not decide it.
    static func fieldOrder(
        leading: [Result<CSVRecord, CSVRecordError>], block: CSVBlock?, plan: CSVColumnPlan,
        header: [String], delimiter: UInt8, spreadsheetRows: Bool
    ) -> FieldOrder? {
        var detector = FieldOrderDetector()
        var texts = FieldTexts()
        var seen = 0
        func observe(_ record: CSVRecord) {
            if spreadsheetRows && !record.isBlank && record.fields.count < header.count {
                return observe(record.padded(to: header.count))
            }
            if let trimmed = record.trimmedTrailingEmpty(to: header.count) {
                return observe(trimmed)
            }
            guard !record.isBlank, record.fields.count == header.count else { return }
            plan.fill(&texts, from: record.fields)
            detector.observe(timesOf: texts)
            seen += 1
        }
        for case .success(let record) in leading { observe(record) }
        if let block {
            let reader = CSVReader(
                block: block.bytes, delimiter: delimiter, firstLine: block.firstLine,
                byteOffset: block.byteOffset)
            while seen < FieldOrderDetector.defaultWindow, let next = try? reader.next() {
                if case .success(let record) = next { observe(record) }
            }
        }
        return detector.decided
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
    /// Rows narrower than the header are padded to its width (see `CSVImporter.spreadsheetRows`).
    let spreadsheetRows: Bool

    init(
        header: [String], delimiter: UInt8, plan: CSVColumnPlan, file: String,
        spreadsheetRows: Bool = false, mappers: RecordMapperPool
    ) {
        self.header = header
        self.delimiter = delimiter
        self.plan = plan
        self.file = file
        self.spreadsheetRows = spreadsheetRows
        self.mappers = mappers
    }

    /// The outcome of `block` (and of `leading`, records already read, before it).
    func convert(
        _ block: CSVBlock, leading: [Result<CSVRecord, CSVRecordError>] = [], context: ImportContext
    ) -> RecordBlockOutcome {
        let reader = CSVReader(
            block: block.bytes, delimiter: delimiter, firstLine: block.firstLine,
            byteOffset: block.byteOffset)
        let mapper = mappers.take()
        defer { mappers.put(mapper) }
        var batch = context.makeBatch()
        var messages: [RecordBlockOutcome.Message] = []
        var number = block.recordsBefore
        var texts = FieldTexts()
        var event = Event.blank  // every record is mapped into this one (see `RecordMapper.map`)
        var firstEventLine = 0
        var lastEventLine = 0
        func raw(of record: CSVRecord) -> String {
            record.raw.isEmpty && !record.span.isEmpty
                ? String(decoding: block.bytes[record.span], as: UTF8.self) : record.raw
        }
        func handle(_ record: CSVRecord) {
            if record.isBlank { return }  // a blank line is not a record
            if record.fields.count != header.count {
                // Rows as wide as the header, as nearly all are, pass without a look here.
                if spreadsheetRows && record.fields.count < header.count {
                    return handle(record.padded(to: header.count))
                }
                if let trimmed = record.trimmedTrailingEmpty(to: header.count) {
                    return handle(trimmed)
                }
            }
            number += 1
            let location = SourceLocation(file: file, line: record.line)
            // A summary line has few cells filled: at most one in a table of three or four
            // columns, two in one of five to eight, a quarter of a wider one's (a bank's totals
            // row, eBay's `4,record(s) downloaded,…`).
            func fewFilled() -> Bool {
                record.fields.lazy.filter { !$0.trimmingSpaces.isEmpty }.count
                    <= max(min(2, (header.count - 1) / 2), header.count / 4)
            }
            guard record.fields.count == header.count else {
                let rejected = RejectedRecord(
                    location: location, raw: raw(of: record),
                    reason:
                        "expected \(header.count) fields (as in the header), found \(record.fields.count)",
                    code: .fieldCount,
                    fields: record.fields, header: header)
                messages.append(fewFilled() ? .unfitting(rejected) : .reject(rejected))
                return
            }
            plan.fill(&texts, from: record.fields)
            if let r = mapper.map(
                texts, number: number, line: record.line, reusing: &event, into: &batch)
            {
                let rejected = RejectedRecord(
                    location: location, raw: raw(of: record), reason: r.reason, code: r.code,
                    fields: record.fields, header: header)
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
        func fail(_ e: CSVRecordError) {
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
        while let next = try? reader.next() {
            switch consume next {
            case .success(let record):
                handle(record)
                reader.recycle(record)
            case .failure(let e): fail(e)
            }
        }
        return RecordBlockOutcome(
            events: context.prepare(batch), messages: messages, firstEventLine: firstEventLine,
            lastEventLine: lastEventLine,
            placeholders: mapper.takePlaceholders())
    }
}
