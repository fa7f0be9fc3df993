import Foundation

/// Reads a table from any row source: its header (found after a preamble, or named), then
/// one event per row through the field mapping. What the names leave open the first rows'
/// values decide: the start column, the money columns and their direction, decimal marks, the
/// day/month order, ids, statuses and titles. The rows after the header are mapped in blocks
/// on worker threads and handed on in input order.
///
/// Rejected with the row's line and the reason: rows with more or fewer fields than the
/// header, rows the source could not read (an unterminated quote, invalid UTF-8), and rows
/// the mapper refuses (no or unreadable start time, unreadable amount, …).
enum TableImporter {
    /// - Parameter named: the columns' names when the input has no header line of its own
    ///   (`CSVReadSettings.columns`).
    static func read<Source: TableRowSource>(
        _ source: inout Source, columns named: [String]?, input: InputReader,
        context: ImportContext
    ) throws(TimelineError) {
        var options = context.options
        let spreadsheetRows = source.rowsEndAtLastCell
        // The table may begin after a preamble (WeChat Pay and Alipay bills): the header is
        // found among the first records, and the records read after it are converted first.
        let table = try TableStart.find(
            &source, options: options, file: input.name, columns: named)
        guard let headerRow = table.header else { return }
        var header: [String]
        var pending = table.after
        if options.csv.readsHeaderLine && !table.headerless {
            header = headerRow.fields.map { $0.trimmingWhitespaces }
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
        // The first block is read before any record is mapped, so that the day/month order
        // its dates show applies to every record, and a start no name gives is found in it.
        var firstBlock = try source.nextBlock()
        // What the names leave open, the first records' values decide (read once, if needed).
        var sampled: [[String]]?
        func sample() -> [[String]] {
            if let sampled { return sampled }
            let rows = Self.sample(
                leading: pending, block: firstBlock, width: header.count)
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
                        notes: ["\(.map, "amount=\(amount)") reads the amounts as written"]
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
        let plan = TableColumnPlan(
            sources: sources, events: options.mapping.mapping.events, header: header,
            spreadsAttributes: canonical)
        // The file's values decide the day/month order; a preset says how its service writes
        // dates the values leave open.
        let fieldOrder =
            context.dateParser.options.fieldOrder != nil
            ? nil
            : Self.fieldOrder(
                leading: pending, block: firstBlock, plan: plan, header: header,
                spreadsheetRows: spreadsheetRows)
                ?? table.preset?.dateOrder
        let rows = TableRowConverter(
            header: header, plan: plan, file: input.name,
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
                    nil as Source.Block?, leading: pending,
                    recordsBefore: input.position.recordsBefore, context: context))
        }
        let recordsBefore =
            input.position.recordsBefore
            + pending.filter {
                if case .success(let r) = $0 { return !r.isBlank } else { return true }
            }.count
        func nextBlock() throws(TimelineError) -> Source.Block? {
            if let first = firstBlock {
                firstBlock = nil
                return first
            }
            return try source.nextBlock()
        }
        do {
            while var block = try nextBlock() {
                block.recordsBefore += recordsBefore
                let job = block
                try work.submit(
                    { rows.convert(job, recordsBefore: job.recordsBefore, context: context) },
                    deliver: deliver)
            }
        } catch {
            work.abandon()
            throw error
        }
        try work.finish(deliver: deliver)
        delivery.finish()
    }

    /// Up to `TimeColumnSniffer.sampleSize` records' fields from `leading` and `block`, each
    /// as wide as the header (narrower spreadsheet rows padded, others left out).
    static func sample(
        leading: [Result<TableRow, TableRowError>], block: (some TableBlock)?, width: Int
    ) -> [[String]] {
        var rows: [[String]] = []
        func take(_ record: TableRow) {
            guard !record.isBlank else { return }
            if let trimmed = record.trimmedTrailingEmpty(to: width) {
                return rows.append(trimmed.fields)
            }
            guard record.fields.count <= width else { return }
            rows.append(record.padded(to: width).fields)
        }
        for case .success(let record) in leading { take(record) }
        var blockRows = block?.makeRows()
        while rows.count < TimeColumnSniffer.sampleSize, let next = blockRows?.next() {
            if case .success(let record) = next { take(record) }
        }
        return rows
    }

    /// The day/month order the time columns of the first records show (up to
    /// `FieldOrderDetector.defaultWindow` of them), as `timeline dates` decides it for a
    /// stream; nil when they do not decide it.
    static func fieldOrder(
        leading: [Result<TableRow, TableRowError>], block: (some TableBlock)?,
        plan: TableColumnPlan, header: [String], spreadsheetRows: Bool
    ) -> FieldOrder? {
        var detector = FieldOrderDetector()
        var texts = FieldTexts()
        var seen = 0
        func observe(_ record: TableRow) {
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
        var rows = block?.makeRows()
        while seen < FieldOrderDetector.defaultWindow, let next = rows?.next() {
            if case .success(let record) = next { observe(record) }
        }
        return detector.decided
    }
}
