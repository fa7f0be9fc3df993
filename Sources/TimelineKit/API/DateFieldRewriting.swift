/// What a run of `CSVDateColumns`, `NDJSONDateFields` or `TextDateRewriter` did.
package struct DateFieldSummary: Hashable, Sendable {
    /// Records (rows after a CSV header, NDJSON lines, text lines), and values rewritten.
    package var records = 0
    package var rewritten = 0
    /// Values that could not be read (left or emptied), and of them those with no zone.
    package var failed = 0
    package var naive = 0
}

/// What to do with a value that cannot be read.
package enum DateFieldOnError: String, Sendable, CaseIterable {
    /// Leave it as it was.
    case keep
    /// Write the field empty.
    case empty
}

/// A value that could not be read: where, what, why.
package struct DateFieldFailure: Sendable {
    /// The line its record starts on.
    package var line: Int
    /// The column's header name.
    package var column: String
    /// The value as read.
    package var value: String
    /// Why it could not be read.
    package var error: DateParseError
    /// The record's bytes as read, and the header line's (for a rejects file).
    package var record: [UInt8]
    package var header: [UInt8]
}

/// A run of lines or records rewritten by one of the in-place date jobs: its bytes, its counts
/// and what to report, with line numbers from the block's start.
struct DateRewriteBlock: Sendable {
    var bytes: [UInt8] = []
    var summary = DateFieldSummary()
    var notices: [(line: Int, notice: DateNotice)] = []
    var failures: [DateFieldFailure] = []
    /// Physical lines the block holds.
    var lines = 0
}

extension DateFieldSummary {
    /// Adds the counts of a later part of the input.
    mutating func add(_ later: DateFieldSummary) {
        records += later.records
        rewritten += later.rewritten
        failed += later.failed
        naive += later.naive
    }
}

/// What the in-place date jobs (`CSVDateColumns`, `NDJSONDateFields`, `TextDateRewriter`)
/// share: opening and committing the files, and cutting an input of lines into blocks that
/// are rewritten on every core and written and reported in order.
enum DateFieldRewriting {
    /// `body` over `source` into `destination`, which is replaced only once `body` is done.
    static func run<Summary>(
        _ source: TimelineSource, to destination: TimelineDestination,
        _ body: (InputReader, OutputWriter) throws(TimelineError) -> Summary
    ) throws(TimelineError) -> Summary {
        let output = try destination.open()
        do throws(TimelineError) {
            let summary = try body(try source.open(), output)
            try output.commit()
            return summary
        } catch {
            output.discard()
            throw error
        }
    }

    /// Blocks of whole lines of `input` through `rewrite` (on worker threads), their bytes
    /// written to `output` and their notices and failures reported, in input order.
    static func rewriteLines(
        _ input: InputReader, to output: OutputWriter, onNotice: (Int, DateNotice) -> Void,
        onFailure: (DateFieldFailure) -> Void,
        onProgress: (Int) -> Void, rewrite: @escaping @Sendable ([UInt8]) -> DateRewriteBlock
    ) throws(TimelineError) -> DateFieldSummary {
        var summary = DateFieldSummary()
        try ExactLines.map(
            input,
            transform: { bytes in
                let block = rewrite(bytes)
                return (block, block.lines)
            }
        ) { (block: DateRewriteBlock, linesBefore: Int) throws(TimelineError) in
            try output.write(block.bytes)
            deliver(block, linesBefore: linesBefore, onNotice: onNotice, onFailure: onFailure)
            summary.add(block.summary)
            onProgress(linesBefore + block.lines)
        }
        return summary
    }

    /// Reports a block's notices and failures with their lines in the file.
    static func deliver(
        _ block: DateRewriteBlock, linesBefore: Int, onNotice: (Int, DateNotice) -> Void,
        onFailure: (DateFieldFailure) -> Void
    ) {
        for (line, notice) in block.notices { onNotice(linesBefore + line, notice) }
        for var failure in block.failures {
            failure.line += linesBefore
            onFailure(failure)
        }
    }
}
