/// `timeline dates --ndjson --field a.b`: NDJSON written back exactly as read, with the dates
/// of the named fields (dotted paths into nested objects) rewritten by the date engine in one
/// form and zone. A string stays a string; a number (epoch) stays a number when the new value
/// is one. A line that is not JSON, or has no such field, goes through as it was.
package struct NDJSONDateFields {
    let paths: [[String]]
    let options: DateParsingOptions
    let format: DateOutputFormat
    let zone: ZoneRules
    let onError: DateFieldOnError

    /// - Parameters:
    ///   - fields: dotted paths (`order.created_at`).
    ///   - options: how dates are read (the fallback chain, `--assume-zone`, DST policies).
    ///   - format: how they are written.
    ///   - zone: the zone they are written in.
    ///   - onError: what becomes of a value that cannot be read.
    package init(
        fields: [String], options: DateParsingOptions, format: DateOutputFormat, zone: ZoneRules,
        onError: DateFieldOnError = .keep
    ) {
        paths = fields.map {
            $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
        self.options = options
        self.format = format
        self.zone = zone
        self.onError = onError
    }

    /// Rewrites `source` into `destination` (a file is replaced once every line is written).
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
    /// in order. Each field's day/month order, unless the options set one, is decided from
    /// its own values in the first lines (up to 1,000, in the first MiB) before any is written.
    package func run(
        _ input: InputReader, to output: OutputWriter, onNotice: (Int, DateNotice) -> Void,
        onFailure: (DateFieldFailure) -> Void,
        onProgress: (Int) -> Void = { _ in }
    ) throws(TimelineError) -> DateFieldSummary {
        let job = self
        let orders = try fieldOrders(input)
        return try DateFieldRewriting.rewriteLines(
            input, to: output, onNotice: onNotice, onFailure: onFailure, onProgress: onProgress,
            rewrite: { job.rewrite($0, orders: orders) })
    }

    /// Each field's day/month order: the options', else what its values in the input's first
    /// lines show (read ahead, not consumed).
    private func fieldOrders(_ input: InputReader) throws(TimelineError) -> [FieldOrder?] {
        guard options.fieldOrder == nil else { return paths.map { _ in options.fieldOrder } }
        var detectors = [FieldOrderDetector](repeating: FieldOrderDetector(), count: paths.count)
        var seen = 0
        let head = Array(try input.peek(1 << 20))
        head.withByteView { all in
            ExactLines.forEach(in: all) { _, content, end in
                guard seen < FieldOrderDetector.defaultWindow, end.count > 0 else { return }
                seen += 1
                let line = content.array
                for (k, path) in paths.enumerated() {
                    if let (_, value) = Self.locate(path, in: line), case .string(let text) = value
                    {
                        detectors[k].observe(text)
                    }
                }
            }
        }
        return detectors.map(\.decided)
    }

    /// One block of whole lines rewritten (on a worker thread: its own parsers).
    private func rewrite(_ bytes: [UInt8], orders: [FieldOrder?]) -> DateRewriteBlock {
        var rewriters = paths.indices.map { k in
            let parser = DateParser(options: options)
            parser.setFieldOrder(orders[k])
            return DateRewriter(parser: parser, format: format, zone: zone)
        }
        var block = DateRewriteBlock()
        var value: [UInt8] = []
        bytes.withByteView { all in
            ExactLines.forEach(in: all) { index, content, end in
                block.lines += 1
                let number = index + 1
                let line = content.array
                var edits: [(range: Range<Int>, bytes: [UInt8])] = []
                if content.count > 0 { block.summary.records += 1 }
                for (k, path) in paths.enumerated() {
                    guard let (range, found) = Self.locate(path, in: line) else { continue }
                    let text: String
                    switch found {
                    case .string(let s) where !s.isEmpty: text = s
                    case .number(let n): text = n
                    default: continue
                    }
                    value.removeAll(keepingCapacity: true)
                    switch text.withByteView({ rewriters[k].append($0, to: &value) }) {
                    case .success(let notice):
                        block.summary.rewritten += 1
                        if let notice { block.notices.append((number, notice)) }
                        var isNumber = false
                        if case .number = found { isNumber = true }
                        var w = JSONWriter()
                        if isNumber
                            && value.allSatisfy({ $0 == 0x2D || (0x30...0x39).contains($0) })
                        {
                            w.bytes = value
                        } else {
                            w.string(String(decoding: value, as: UTF8.self))
                        }
                        edits.append((range, w.bytes))
                    case .failure(let error):
                        block.summary.failed += 1
                        if error == .naive { block.summary.naive += 1 }
                        block.failures.append(
                            DateFieldFailure(
                                line: number, column: path.joined(separator: "."), value: text,
                                error: error,
                                record: line + end.array, header: []))
                        if onError == .empty { edits.append((range, Array("\"\"".utf8))) }
                    }
                }
                var copied = 0
                for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound })
                where edit.range.lowerBound >= copied {
                    block.bytes += line[copied..<edit.range.lowerBound]
                    block.bytes += edit.bytes
                    copied = edit.range.upperBound
                }
                block.bytes += line[copied...]
                end.append(to: &block.bytes)
            }
        }
        return block
    }

    /// Where the value at `path` lies in one JSON line, and the value; nil when the line is
    /// not a JSON object or has no such field.
    static func locate(_ path: [String], in line: [UInt8]) -> (Range<Int>, JSONValue)? {
        var parser = JSONParser(bytes: line)
        var depth = 0
        do throws(JSONSyntaxError) {
            while true {
                guard parser.consume(UInt8(ascii: "{")), !parser.consume(UInt8(ascii: "}")) else {
                    return nil
                }
                var descended = false
                repeat {
                    guard parser.peek() == UInt8(ascii: "\"") else { return nil }
                    let key = try parser.parseString()
                    try parser.expect(UInt8(ascii: ":"), "':'")
                    parser.skipWhitespace()
                    let start = parser.offset
                    guard key == path[depth] else {
                        _ = try parser.parseValue()
                        continue
                    }
                    if depth == path.count - 1 {
                        let value = try parser.parseValue()
                        return (start..<parser.offset, value)
                    }
                    guard parser.peek() == UInt8(ascii: "{") else { return nil }
                    depth += 1
                    descended = true
                    break
                } while parser.consume(UInt8(ascii: ","))
                if !descended { return nil }
            }
        } catch {
            return nil
        }
    }
}
