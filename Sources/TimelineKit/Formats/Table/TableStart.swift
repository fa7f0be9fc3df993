/// Where a table begins. Exports such as WeChat Pay and Alipay bills open with a
/// preamble (account, period, totals, notes) before the header row: the header is the
/// first of the first records that names a start column and at least one more field the
/// mapping knows (`FieldMapping.recognisedFields`) and whose field count the next record
/// keeps; without one it is the first record, as in any plain CSV. `--header-line N` names
/// it. The records before it are not records of the table: they are reported, never
/// rejected.
struct TableStart {
    /// The header row; nil for an empty input.
    var header: TableRow?
    /// The records before the header.
    var preamble: [TableRow] = []
    /// No line names the columns: `header` is the first record (Sabadell's text download),
    /// because its values are like those below it — a time where they hold times.
    var headerless = false
    /// What was read after the header while looking for it, in order.
    var after: [Result<TableRow, TableRowError>] = []
    /// The preset the table is read with: the one named, or the first whose signature the
    /// header row (or a preamble line) shows.
    var preset: MappingPreset?

    /// How many records are looked at for a header.
    static let window = 64
    /// The widest record looked at as a header: matching names against every preset costs
    /// far more per column than reading a field, and a timeline's table names a few dozen.
    static let widestHeader = 1_024

    /// - Parameter columns: the names of the columns when the input has no header line of
    ///   its own (`CSVReadSettings.columns`): the first record is then a record, and a preset
    ///   is recognised by these names.
    static func find(
        _ source: inout some TableRowSource, options: ReadOptions, file: String,
        columns: [String]? = nil
    ) throws(TimelineError) -> TableStart {
        var table = try locate(&source, options: options, file: file)
        if table.preset == nil {
            table.preset = detectedPreset(table, columns: columns, options.preset.candidates)
        }
        return table
    }

    private static func locate(
        _ source: inout some TableRowSource, options: ReadOptions, file: String
    ) throws(TimelineError) -> TableStart {
        // Spreadsheet rows end at their last filled cell: the row after a header confirms it
        // by being no wider than it.
        let spreadsheetRows = source.rowsEndAtLastCell
        var rows: [TableRow] = []
        var failure: TableRowError?
        func next() throws(TimelineError) -> TableRow? {
            guard failure == nil else { return nil }
            switch try source.nextRow() {
            case nil: return nil
            case .success(let record)?: return record
            case .failure(let e)?:
                failure = e
                return nil
            }
        }
        var table = TableStart()
        table.preset = options.preset.forced
        if let line = options.csv.headerLine {
            while let row = try next() {
                if row.line == line {
                    table.header = row
                    table.preamble = rows
                    break
                }
                guard row.line < line else {
                    throw TimelineError(
                        .usage,
                        "\(.headerLine, "\(line)"): line \(line) of '\(file)' does not begin a record (one begins on line \(row.line))"
                    )
                }
                rows.append(row)
            }
            guard table.header != nil else {
                if let failure {
                    throw TimelineError(
                        .data, "cannot read the header line: \(failure.message)",
                        at: SourceLocation(file: file, line: failure.line))
                }
                throw TimelineError(
                    .usage,
                    "\(.headerLine, "\(line)"): '\(file)' has only \(rows.last?.line ?? 0) lines")
            }
            return table
        }
        guard options.csv.readsHeaderLine else {
            table.header = try next()
            if let failure {
                throw TimelineError(
                    .data, "cannot read the first line: \(failure.message)",
                    at: SourceLocation(file: file, line: failure.line))
            }
            return table
        }
        let mapping = (table.preset.map { $0.applied(to: options) } ?? options).mapping.mapping
        let presetsByHeader = options.preset.candidates.filter { !$0.signature.headers.isEmpty }
        func isHeader(_ i: Int) -> Bool {
            guard rows[i].fields.count <= widestHeader else { return false }
            let cells = rows[i].fields.map { $0.trimmingWhitespaces }
            let recognised =
                presetsByHeader.contains { $0.matches(header: cells, preamble: []) }
                || mapping.recognisedFields(cells) >= 2
            guard recognised else { return false }
            guard i + 1 < rows.count, !rows[i + 1].isBlank else { return true }
            let width = rows[i + 1].fields.count
            if rows[i + 1].trimmedTrailingEmpty(to: rows[i].fields.count) != nil { return true }
            return spreadsheetRows ? width <= rows[i].fields.count : width == rows[i].fields.count
        }
        var found: Int?
        while rows.count < window, let row = try next() {
            rows.append(row)
            // A candidate is confirmed by the record after it (or the end of the input).
            if rows.count >= 2, isHeader(rows.count - 2) {
                found = rows.count - 2
                break
            }
        }
        if found == nil, let last = rows.indices.last, isHeader(last) { found = last }
        // No header names a start: the first row of text, as wide as the records after it,
        // below which a column holds times (ICBC's 交易日期 after six lines of account details).
        if found == nil { found = Self.headerByValues(rows, dates: options.dates) }
        if found == nil, let first = Self.firstRecordOfHeaderlessTable(rows, dates: options.dates) {
            found = first
            table.headerless = true
        }
        guard !rows.isEmpty else {
            if let failure {
                throw TimelineError(
                    .data, "cannot read the header line: \(failure.message)",
                    at: SourceLocation(file: file, line: failure.line))
            }
            return table
        }
        // Without one, the first record that names anything (eBay's report opens with a
        // line of commas).
        let h =
            found ?? rows.firstIndex {
                $0.fields.contains { !$0.trimmingWhitespaces.isEmpty }
            } ?? 0
        table.header = rows[h]
        table.preamble = Array(rows[..<h])
        table.after = rows[(h + 1)...].map { .success($0) } + (failure.map { [.failure($0)] } ?? [])
        return table
    }

    /// The first row whose cells are text (none a time), followed by at least two records of
    /// its width (one more with a trailing empty field) in which a column holds times. A
    /// header that itself ends with an empty field (DKB writes `;` after every line's last
    /// cell) is as wide as its records.
    static func headerByValues(_ rows: [TableRow], dates: DateParsingOptions) -> Int? {
        let sniffer = TimeColumnSniffer(parser: DateParser(options: dates))
        for (i, row) in rows.enumerated()
        where row.fields.count >= 2 && row.fields.count <= widestHeader {
            let trailing =
                row.fields.count > 2
                && row.fields.last!.trimmingWhitespaces.isEmpty
            let width = trailing ? row.fields.count - 1 : row.fields.count
            let cells = row.fields.prefix(width).map { $0.trimmingWhitespaces }
            guard cells.allSatisfy({ !$0.isEmpty }),
                !cells.contains(where: { sniffer.isTime($0, header: "date") })
            else { continue }
            let below = rows[(i + 1)...].prefix(TimeColumnSniffer.sampleSize).compactMap {
                record -> [String]? in
                if let trimmed = record.trimmedTrailingEmpty(to: width) { return trimmed.fields }
                return record.fields.count == width ? record.fields : nil
            }
            guard below.count >= 2 else { continue }
            if sniffer.columns(header: cells, rows: below).contains(where: \.isTimeColumn) {
                return i
            }
        }
        return nil
    }

    /// The first record of a table with no header line: the first filled record of two or
    /// more fields whose values below it, in records of its width, hold times in a column
    /// where it holds one too.
    static func firstRecordOfHeaderlessTable(_ rows: [TableRow], dates: DateParsingOptions) -> Int?
    {
        let sniffer = TimeColumnSniffer(parser: DateParser(options: dates))
        guard
            let i = rows.firstIndex(where: {
                $0.fields.contains { !$0.trimmingWhitespaces.isEmpty }
            }),
            rows[i].fields.count >= 2, rows[i].fields.count <= widestHeader
        else { return nil }
        let width = rows[i].fields.count
        let records = rows[i...].prefix(TimeColumnSniffer.sampleSize).filter {
            $0.fields.count == width
        }.map(\.fields)
        let names = (1...width).map(String.init)
        let timeColumns = sniffer.columns(header: names, rows: records).enumerated().filter(
            \.element.isTimeColumn
        ).map(\.offset)
        return timeColumns.contains {
            sniffer.isTime(rows[i].fields[$0].trimmingWhitespaces, header: "date")
        } ? i : nil
    }

    /// The first of `candidates` whose signature the header row or a preamble line shows.
    private static func detectedPreset(
        _ table: TableStart, columns: [String]?, _ candidates: [MappingPreset]
    ) -> MappingPreset? {
        guard let header = table.header else { return nil }
        let cells = columns ?? header.fields.map { $0.trimmingWhitespaces }
        let lines = table.preamble.map { $0.fields.joined(separator: ",") }
        return candidates.first { $0.matches(header: cells, preamble: lines) }
    }

    /// Says which lines came before the header: how many by default, each with `verbose`.
    func report(to context: ImportContext, file: String) {
        if let preset, let header {
            context.report(
                Diagnostic(
                    .info,
                    "read as \(preset.title) (preset \(preset.name)\(context.options.preset.forced == nil ? ", recognised by its columns" : "")); header on line \(header.line)",
                    at: SourceLocation(file: file, line: header.line)))
        } else if headerless, let header {
            context.report(
                Diagnostic(
                    .info,
                    "no header line: line \(header.line) holds values like those below it, so it is a record; the columns are named 1, 2, … (\(.columns, "NAME"),… names them)",
                    at: SourceLocation(file: file, line: header.line)))
        } else if context.verbose, let header {
            context.report(
                Diagnostic(
                    .info,
                    "header on line \(header.line); no preset applies (columns chosen by their names)",
                    at: SourceLocation(file: file, line: header.line)))
        }
        let lines = preamble.filter { !$0.isBlank && !$0.fields.allSatisfy(\.isEmpty) }
        guard let header, let first = lines.first else { return }
        context.report(
            Diagnostic(
                .info,
                "the table's header is on line \(header.line); lines \(first.line)–\(header.line - 1) before it are not records"
                    + (context.verbose
                        ? ""
                        : " (\(.verbose) lists them; \(.headerLine, "N") chooses another header)"),
                at: SourceLocation(file: file, line: header.line)))
        guard context.verbose else { return }
        for row in lines {
            let text = row.fields.reversed().drop { $0.isEmpty }.reversed().joined(separator: ", ")
            context.report(
                Diagnostic(
                    .info, "before the table: \(text)",
                    at: SourceLocation(file: file, line: row.line)))
        }
    }
}
