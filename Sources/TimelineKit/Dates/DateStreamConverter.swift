/// `timeline dates` as a library function: one value per line in, one line out, in order.
///
/// A value that cannot be read gives an empty line and a failure report with its line
/// number. Day-first/month-first, when not set, is decided from the first
/// `FieldOrderDetector.defaultWindow` lines before any is converted. Lines end with LF, CRLF
/// or a lone CR. The loop keeps its state in locals, so a line costs the parse and the
/// formatting and little else.
package struct DateStreamConverter {
    /// What a run did.
    package struct Summary: Hashable, Sendable {
        /// Lines read.
        package var lines = 0
        /// Lines that could not be read (written as empty lines).
        package var failed = 0
        /// Failures for want of an offset or zone (TZ101).
        package var naive = 0
    }

    package let parser: DateParser
    package let format: DateOutputFormat
    package let zone: ZoneRules

    /// A converter that reads with `parser` and writes `format` in `zone`.
    package init(parser: DateParser, format: DateOutputFormat, zone: ZoneRules) {
        self.parser = parser
        self.format = format
        self.zone = zone
    }

    /// Converts every line of `source` into `destination` (a file is replaced atomically
    /// once every line is written).
    /// - Parameters:
    ///   - source: the values, one per line.
    ///   - destination: where the converted lines go, one per input line.
    ///   - onNotice: a value was read but something was decided (DST gap/overlap, …).
    ///   - onFailure: a value could not be read: its line, its text and why.
    /// - Returns: how many lines were read, and how many could not be or had no zone.
    package func run(
        _ source: TimelineSource, to destination: TimelineDestination,
        onNotice: (Int, DateNotice) -> Void,
        onFailure: (Int, String, DateParseError) -> Void
    ) throws(TimelineError) -> Summary {
        try DateFieldRewriting.run(source, to: destination) { input, output throws(TimelineError) in
            try run(input, to: output, onNotice: onNotice, onFailure: onFailure)
        }
    }

    /// Converts every line of `input` into `output` (not committed).
    package func run(
        _ input: InputReader, to output: OutputWriter, onNotice: (Int, DateNotice) -> Void,
        onFailure: (Int, String, DateParseError) -> Void, onProgress: (Int) -> Void = { _ in }
    ) throws(TimelineError) -> Summary {
        var state = State(converter: self)
        var splitter = LineSplitter()
        if parser.options.fieldOrder == nil {
            // Look ahead: decide the field order before converting anything.
            var window: [[UInt8]] = []
            var detector = FieldOrderDetector()
            while window.count < FieldOrderDetector.defaultWindow, let chunk = try input.nextChunk()
            {
                splitter.split(chunk) { line in window.append(line.array) }
            }
            for line in window {
                line.withByteView { detector.observe(bytes: $0) }
            }
            parser.setFieldOrder(detector.decided)
            for line in window {
                line.withByteView { state.convert($0, onNotice, onFailure) }
            }
        }
        while let chunk = try input.nextChunk() {
            splitter.split(chunk) { line in state.convert(line, onNotice, onFailure) }
            if state.out.count >= 1 << 16 {
                try output.write(state.out)
                state.out.removeAll(keepingCapacity: true)
                onProgress(state.summary.lines)
            }
        }
        splitter.finish { line in state.convert(line, onNotice, onFailure) }
        try output.write(state.out)
        return state.summary
    }

    private struct State {
        var rewriter: DateRewriter
        var out: [UInt8] = []
        var summary = Summary()

        init(converter: DateStreamConverter) {
            rewriter = DateRewriter(
                parser: converter.parser, format: converter.format, zone: converter.zone)
            out.reserveCapacity(1 << 17)
        }

        mutating func convert(
            _ line: ByteView, _ onNotice: (Int, DateNotice) -> Void,
            _ onFailure: (Int, String, DateParseError) -> Void
        ) {
            summary.lines += 1
            switch rewriter.append(line, to: &out) {
            case .success(let notice):
                if let notice { onNotice(summary.lines, notice) }
            case .failure(let error):
                summary.failed += 1
                if error == .naive { summary.naive += 1 }
                onFailure(summary.lines, line.string, error)
            }
            out.append(0x0A)
        }
    }
}
