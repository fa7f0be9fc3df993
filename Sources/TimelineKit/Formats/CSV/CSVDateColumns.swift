/// `timeline dates --csv --column NAME`: a CSV file written back exactly as read — header,
/// quoting, delimiters, line ends, a byte-order mark, every other field — with the dates in
/// the chosen columns rewritten in one form and zone by the date engine (`DateParser`, the
/// fallback chain, DST policies), each column's day/month order decided from its own first
/// values. A value that cannot be read is left as it was (or emptied) and reported with its
/// line and column.
package struct CSVDateColumns {
    let columns: [String]
    let options: DateParsingOptions
    let format: DateOutputFormat
    let zone: ZoneRules
    let delimiter: Character?
    let onError: DateFieldOnError

    /// - Parameters:
    ///   - columns: the header names of the columns to rewrite.
    ///   - options: how dates are read (the fallback chain, `--assume-zone`, DST policies).
    ///   - format: how they are written.
    ///   - zone: the zone they are written in.
    ///   - delimiter: nil detects it from the header line.
    ///   - onError: what becomes of a value that cannot be read.
    package init(
        columns: [String], options: DateParsingOptions, format: DateOutputFormat, zone: ZoneRules,
        delimiter: Character? = nil,
        onError: DateFieldOnError = .keep
    ) {
        self.columns = columns
        self.options = options
        self.format = format
        self.zone = zone
        self.delimiter = delimiter
        self.onError = onError
    }

    /// Rewrites `source` into `destination` (a file is replaced once every record is written).
    package func run(
        _ source: TimelineSource, to destination: TimelineDestination,
        onNotice: (Int, DateNotice) -> Void = { _, _ in },
        onFailure: (DateFieldFailure) -> Void
    ) throws(TimelineError) -> DateFieldSummary {
        try DateFieldRewriting.run(source, to: destination) { input, output throws(TimelineError) in
            try run(input, to: output, onNotice: onNotice, onFailure: onFailure)
        }
    }

    /// Rewrites `input` into `output` (not committed).
    package func run(
        _ input: InputReader, to output: OutputWriter, onNotice: (Int, DateNotice) -> Void,
        onFailure: (DateFieldFailure) -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws(TimelineError) -> DateFieldSummary {
        _ = try input.peek(3)  // whether a byte-order mark was skipped is known from here
        var out: [UInt8] = input.hadBOM ? [0xEF, 0xBB, 0xBF] : []
        let reader = try CSVReader(input: input, delimiter: delimiter.flatMap(\.asciiValue))
        reader.keepsBytes = true
        guard let first = try reader.next() else { return DateFieldSummary() }
        guard case .success(let header) = first else {
            throw TimelineError(
                .data, "the header line cannot be read as CSV",
                at: SourceLocation(file: input.name, line: 1))
        }
        var indices: [Int] = []
        for name in columns {
            guard
                let i = header.fields.firstIndex(of: name)
                    ?? header.fields.firstIndex(where: { $0.trimmingSpaces == name })
            else {
                throw TimelineError(
                    .usage,
                    "'\(input.name)' has no column '\(name)'; its columns: \(header.fields.joined(separator: ", "))"
                )
            }
            if !indices.contains(i) { indices.append(i) }
        }
        indices.sort()
        out += header.bytes
        var state = State(
            job: self, indices: indices, names: header.fields, header: header.bytes,
            delimiter: reader.delimiter, orders: nil)
        // Each column's day/month order from its own first values, before any is written.
        var window: [Result<TableRow, TableRowError>] = []
        var orders: [FieldOrder?] = indices.map { _ in options.fieldOrder }
        if options.fieldOrder == nil {
            var detectors = [FieldOrderDetector](
                repeating: FieldOrderDetector(), count: indices.count)
            while window.count < FieldOrderDetector.defaultWindow, let next = try reader.next() {
                if case .success(let r) = next {
                    for (k, i) in indices.enumerated() where i < r.fields.count {
                        detectors[k].observe(r.fields[i])
                    }
                }
                window.append(next)
            }
            orders = detectors.map(\.decided)
            state = State(
                job: self, indices: indices, names: header.fields, header: header.bytes,
                delimiter: reader.delimiter, orders: orders)
        }
        for record in window { state.write(record, to: &out) }
        try output.write(out)
        var summary = state.summary
        state.report(onNotice, onFailure)
        // The rest in blocks of whole records, on every core, written in order.
        var splitter = CSVBlockSplitter(continuing: reader, input: input)
        let work = OrderedWork<State>(limit: RecordBlocks.inFlight)
        let names = header.fields
        let headerBytes = header.bytes
        let delimiter = reader.delimiter
        let job = self
        let deliver = { (done: consuming State) throws(TimelineError) in
            try output.write(done.out)
            summary.add(done.summary)
            done.report(onNotice, onFailure)
            onProgress(summary.records)
        }
        while let block = try splitter.next() {
            try work.submit(
                {
                    var state = State(
                        job: job, indices: indices, names: names, header: headerBytes,
                        delimiter: delimiter, orders: orders)
                    let reader = CSVReader(
                        block: block.bytes, delimiter: delimiter, firstLine: block.firstLine,
                        byteOffset: block.byteOffset)
                    reader.keepsBytes = true
                    var out: [UInt8] = []
                    out.reserveCapacity(block.bytes.count + block.bytes.count / 4)
                    while let record = try? reader.next() { state.write(record, to: &out) }
                    state.out = out
                    return state
                }, deliver: deliver)
        }
        try work.finish(deliver: deliver)
        return summary
    }

    /// The rewriting of a run of records: its parsers, output, counts and what to report.
    private struct State {
        let job: CSVDateColumns
        let indices: [Int]
        let names: [String]
        let header: [UInt8]
        let delimiter: UInt8
        var parsers: [DateParser]
        var rewriters: [DateRewriter]
        var summary = DateFieldSummary()
        var out: [UInt8] = []
        var notices: [(Int, DateNotice)] = []
        var failures: [DateFieldFailure] = []
        var value: [UInt8] = []

        /// - Parameter orders: each column's day/month order, nil for the options' own.
        init(
            job: CSVDateColumns, indices: [Int], names: [String], header: [UInt8], delimiter: UInt8,
            orders: [FieldOrder?]?
        ) {
            self.job = job
            self.indices = indices
            self.names = names
            self.header = header
            self.delimiter = delimiter
            let parsers = indices.indices.map { k in
                let parser = DateParser(options: job.options)
                if let orders { parser.setFieldOrder(orders[k]) }
                return parser
            }
            self.parsers = parsers
            rewriters = parsers.map { DateRewriter(parser: $0, format: job.format, zone: job.zone) }
        }

        /// Hands what was noticed and what failed to the caller, in order, and forgets it.
        mutating func report(
            _ onNotice: (Int, DateNotice) -> Void, _ onFailure: (DateFieldFailure) -> Void
        ) {
            for (line, notice) in notices { onNotice(line, notice) }
            failures.forEach(onFailure)
            notices = []
            failures = []
        }

        /// Appends the record with its chosen fields rewritten (a record that is not CSV, or
        /// blank, goes through as it was).
        mutating func write(_ result: Result<TableRow, TableRowError>, to out: inout [UInt8]) {
            guard case .success(let record) = result else {
                if case .failure(let e) = result { out += e.bytes }
                return
            }
            guard !record.isBlank else {
                out += record.bytes
                return
            }
            summary.records += 1
            var copied = 0
            for (k, i) in indices.enumerated() where i < record.fields.count {
                let text = record.fields[i]
                guard !text.isEmpty else { continue }
                let range = record.fieldRanges[i]
                value.removeAll(keepingCapacity: true)
                switch text.withByteView({ rewriters[k].append($0, to: &value) }) {
                case .success(let notice):
                    out += record.bytes[copied..<range.lowerBound]
                    value.withByteView {
                        CSVExporter.appendField($0, delimiter: delimiter, to: &out)
                    }
                    copied = range.upperBound
                    summary.rewritten += 1
                    if let notice { notices.append((record.line, notice)) }
                case .failure(let error):
                    summary.failed += 1
                    if error == .naive { summary.naive += 1 }
                    failures.append(
                        DateFieldFailure(
                            line: record.line, column: names[i], value: text, error: error,
                            record: record.bytes,
                            header: header))
                    if job.onError == .empty {
                        out += record.bytes[copied..<range.lowerBound]
                        copied = range.upperBound
                    }
                }
            }
            out += record.bytes[copied...]
        }
    }
}
