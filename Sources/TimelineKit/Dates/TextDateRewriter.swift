/// `timeline dates --in-text`: every line written back as read, with the timestamps
/// `TextDateScanner` finds in it rewritten by the date engine in one form and zone. A
/// timestamp the engine cannot read is left as it was and reported.
package struct TextDateRewriter {
    let scanner: TextDateScanner
    let options: DateParsingOptions
    let format: DateOutputFormat
    let zone: ZoneRules
    let onlyFirst: Bool

    /// - Parameters:
    ///   - options: how dates are read (the fallback chain, `--assume-zone`, DST policies).
    ///   - format: how they are written.
    ///   - zone: the zone they are written in.
    ///   - syslogYear: the year of syslog's `Jun 12 08:11:17` times (nil: they are not looked for).
    ///   - epochs: also rewrite epoch numbers (10 or 13 digits).
    ///   - onlyFirst: rewrite the first timestamp of each line only.
    package init(
        options: DateParsingOptions, format: DateOutputFormat, zone: ZoneRules,
        syslogYear: Int? = nil,
        epochs: Bool = false,
        onlyFirst: Bool = false
    ) {
        scanner = TextDateScanner(
            syslogYear: syslogYear, epochs: epochs, patterns: options.patterns)
        var options = options
        options.patterns += TextDateScanner.extraPatterns
        self.options = options
        self.format = format
        self.zone = zone
        self.onlyFirst = onlyFirst
    }

    /// Rewrites `source` into `destination` (a file is replaced once every line is written).
    /// The summary's `records` are lines; `rewritten` and `failed` count timestamps.
    package func run(
        _ source: TimelineSource, to destination: TimelineDestination,
        onNotice: (Int, DateNotice) -> Void = { _, _ in },
        onFailure: (DateFieldFailure) -> Void
    ) throws(TimelineError) -> DateFieldSummary {
        try DateFieldRewriting.run(source, to: destination) { input, output throws(TimelineError) in
            try run(input, to: output, onNotice: onNotice, onFailure: onFailure)
        }
    }

    /// Rewrites `input` into `output` (not committed): blocks of lines on every core, written
    /// in order.
    package func run(
        _ input: InputReader, to output: OutputWriter, onNotice: (Int, DateNotice) -> Void,
        onFailure: (DateFieldFailure) -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws(TimelineError) -> DateFieldSummary {
        let job = self
        return try DateFieldRewriting.rewriteLines(
            input, to: output, onNotice: onNotice, onFailure: onFailure, onProgress: onProgress,
            rewrite: { job.rewrite($0) })
    }

    /// One block of whole lines rewritten (on a worker thread: its own parser).
    private func rewrite(_ bytes: [UInt8]) -> DateRewriteBlock {
        var rewriter = DateRewriter(
            parser: DateParser(options: options), format: format, zone: zone)
        var block = DateRewriteBlock()
        block.bytes.reserveCapacity(bytes.count + bytes.count / 8)
        bytes.withByteView { all in
            ExactLines.forEach(in: all) { index, line, end in
                block.summary.records += 1
                block.lines += 1
                var copied = 0
                var done = false
                scanner.forEachMatch(in: line) { range, shape in
                    guard !done else { return }
                    line[copied..<range.lowerBound].append(to: &block.bytes)
                    let mark = block.bytes.count
                    let pattern = scanner.pattern(for: shape)
                    func read(_ bytes: ByteView) -> Result<DateNotice?, DateParseError> {
                        pattern.map { rewriter.append(bytes, pattern: $0, to: &block.bytes) }
                            ?? rewriter.append(bytes, to: &block.bytes)
                    }
                    // Only a syslog time is given to the engine other than as found (its year put in).
                    let result =
                        shape == .syslog
                        ? scanner.engineText(line, range, shape).withByteView(read)
                        : read(line[range])
                    switch result {
                    case .success(let notice):
                        block.summary.rewritten += 1
                        if let notice { block.notices.append((index + 1, notice)) }
                    case .failure(let error):
                        block.bytes.removeSubrange(mark...)
                        line[range].append(to: &block.bytes)
                        block.summary.failed += 1
                        if error == .naive { block.summary.naive += 1 }
                        block.failures.append(
                            DateFieldFailure(
                                line: index + 1, column: "", value: line[range].string,
                                error: error,
                                record: line.array, header: []))
                    }
                    copied = range.upperBound
                    done = onlyFirst
                }
                line[copied..<line.count].append(to: &block.bytes)
                end.append(to: &block.bytes)
            }
        }
        return block
    }
}
