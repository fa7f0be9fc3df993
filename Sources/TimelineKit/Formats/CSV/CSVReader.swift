/// A streaming RFC 4180 reader: quoted fields with doubled quotes, delimiters and line
/// breaks inside quotes, CRLF/LF/CR line ends, a UTF-8 BOM. Reads the input in chunks and
/// never holds more than the current record and one chunk.
///
/// Lenient where real files are sloppy and it costs nothing: a quote inside an unquoted
/// field is kept as text. Strict where data would be lost: text after a closing quote, an
/// unterminated quote at the end of the input, and invalid UTF-8 (with its byte offset)
/// make the record invalid.
final class CSVReader {
    let delimiter: UInt8
    private let input: InputReader?
    private var buffer: [UInt8] = []
    private var position = 0
    private var eof = false
    private var line = 1
    private var bytesBefore = 0  // bytes consumed before `buffer` (for offsets in errors)
    private var lastFieldCount = 8  // records of a file have the same width: reserve it
    private var keepsRaw = true
    /// A record's field array handed back by `recycle`, reused (emptied) for the next record.
    private var spareFields: [String]?
    /// Also give each record its exact bytes and field ranges (`TableRow.bytes`), for a
    /// job that writes the file back with some fields changed.
    var keepsBytes = false
    /// Give each ASCII record of a block where its fields lie in the block (`TableRow.cells`)
    /// instead of a string per field: the fields are read in place, and a string is made
    /// only for a value that is kept. A record with other bytes is read into strings, which
    /// checks its UTF-8 field by field.
    var yieldsCells = false
    /// A record's cell array handed back by `recycle`, reused for the next record.
    private var spareCells: [TableCell]?

    /// Candidate delimiters for detection, in order of preference on ties.
    static let candidateDelimiters: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]  // , ; tab |

    /// - Parameter delimiter: nil to detect from the first lines (`,` `;` tab `|`).
    init(input: InputReader, delimiter: UInt8?) throws(TimelineError) {
        self.input = input
        line = 1 + input.position.linesBefore
        if let delimiter {
            self.delimiter = delimiter
        } else {
            self.delimiter = CSVReader.detectDelimiter(try input.peek(8192))
        }
    }

    /// Reads records from `block`, whole records cut from a file by `CSVBlockSplitter`;
    /// `firstLine` and `byteOffset` place it in the file for line numbers and errors.
    /// Its records leave `raw` empty: most are never rejected, and the block keeps the bytes.
    init(block: [UInt8], delimiter: UInt8, firstLine: Int, byteOffset: Int) {
        input = nil
        keepsRaw = false
        self.delimiter = delimiter
        buffer = block
        eof = true
        line = firstLine
        bytesBefore = byteOffset
    }

    /// The bytes read from the input but not yet parsed, with the line and byte offset they
    /// start at; the reader gives them up (it is not to be used afterwards).
    func takeRemainder() -> (bytes: ArraySlice<UInt8>, line: Int, offset: Int, eof: Bool) {
        let rest = buffer[position...]
        buffer = []
        return (rest, line, bytesBefore + position, eof)
    }

    /// The delimiter that splits the most of the first lines (up to 32) into the same
    /// number of fields, outside quotes; of those that do equally, the one that splits them
    /// into more, then the first candidate (`,` if none occurs). A preamble above the table
    /// (`Conta ;41883920`, a title line) and decimal commas in its values do not outvote the
    /// table's own delimiter.
    static func detectDelimiter(_ head: ArraySlice<UInt8>) -> UInt8 {
        var lines: [[UInt8: Int]] = []
        var counts: [UInt8: Int] = [:]
        var quoted = false
        var content = false
        for b in head {
            if b == 0x22 { quoted.toggle() }
            if !quoted && (b == 0x0A || b == 0x0D) {
                if content { lines.append(counts) }
                counts = [:]
                content = false
                if lines.count == 32 { break }
                continue
            }
            content = true
            if !quoted && candidateDelimiters.contains(b) { counts[b, default: 0] += 1 }
        }
        // A last line cut by the end of the head may miss fields; a lone line counts whole.
        if content && lines.isEmpty { lines.append(counts) }
        func score(_ d: UInt8) -> (lines: Int, fields: Int) {
            var byCount: [Int: Int] = [:]
            for line in lines { if let n = line[d], n > 0 { byCount[n, default: 0] += 1 } }
            guard let mode = byCount.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else {
                return (0, 0)
            }
            return (mode.value, mode.key)
        }
        var best: (delimiter: UInt8, score: (lines: Int, fields: Int))?
        for d in candidateDelimiters {
            let s = score(d)
            guard s.lines > 0 else { continue }
            if best.map({
                s.lines > $0.score.lines
                    || (s.lines == $0.score.lines && s.fields > $0.score.fields)
            }) ?? true {
                best = (d, s)
            }
        }
        return best?.delimiter ?? 0x2C
    }

    /// Takes back a record the caller is done with, so the next record reuses its field
    /// array (and writes over its strings) instead of allocating one.
    func recycle(_ record: consuming TableRow) {
        spareFields = record.fields
        spareCells = record.cells
        record.fields = []  // the only reference left: the next record writes over it
        record.cells = []
    }

    /// The next record, a record-level error, or nil at the end of the input.
    func next() throws(TimelineError) -> Result<TableRow, TableRowError>? {
        while true {
            if let result = parseRecord() { return result }
            if eof { return nil }
            if position > 0 {
                bytesBefore += position
                buffer.removeFirst(position)
                position = 0
            }
            guard buffer.count <= maxRecord else {
                throw Self.tooLong(maxRecord, line: line, file: input?.name ?? "")
            }
            // At least as much again as the record so far: a record longer than a chunk is
            // parsed a bounded number of times over, not once per chunk.
            let held = buffer.count
            while buffer.count < min(2 * held, maxRecord + 1) || buffer.count == 0 {
                guard let chunk = try input?.nextChunk() else {
                    eof = true
                    break
                }
                buffer.append(contentsOf: chunk)
            }
        }
    }

    /// The longest record read; a longer one stops the run.
    var maxRecord = ReadOptions.defaultMaxRecordSize

    static func tooLong(_ limit: Int, line: Int, file: String) -> TimelineError {
        TimelineError(
            .data, "the record on line \(line) is longer than \(ByteCount.text(limit))",
            at: SourceLocation(file: file, line: line),
            notes: ["a larger \(.maxRecordSize) reads it"])
    }

    /// Parses one record starting at `position`; nil when more input is needed.
    private func parseRecord() -> Result<TableRow, TableRowError>? {
        let n = buffer.count
        guard position < n else { return nil }
        if yieldsCells, let record = parseCells() { return record }
        return buffer.withByteView { p -> Result<TableRow, TableRowError>? in
            var fields = ReusedFields(reusing: spareFields.take() ?? [], reserving: lastFieldCount)
            var i = position
            let startLine = line
            var lines = 0
            var problem: (message: String, encoding: Bool)?
            var ranges: [Range<Int>] = []
            fieldLoop: while true {
                let fieldStart = i
                if i < n && p[i] == 0x22 {
                    // Quoted field.
                    let openLine = startLine + lines
                    let contentStart = i + 1
                    let contentEnd: Int
                    var doubled = true  // until known otherwise: read with `""` as `"`
                    switch CSVReader.scanQuoted(p, from: contentStart, eof: eof, lines: &lines) {
                    case .needsMore:
                        return nil
                    case .unterminated:
                        problem =
                            problem ?? (
                                "unterminated quoted field (a '\"' opened on line \(openLine) is never closed)",
                                false
                            )
                        contentEnd = n
                        i = n
                    case .closed(let end, let hasDoubledQuotes):
                        contentEnd = end
                        doubled = hasDoubledQuotes
                        i = end + 1
                        if i < n, p[i] != delimiter, p[i] != 0x0A, p[i] != 0x0D {
                            // Text after the closing quote: the record is malformed (and
                            // reported with its raw text, so the field's content is moot).
                            problem =
                                problem ?? (
                                    "text after a closing quote in field \(fields.count + 1)", false
                                )
                            while i < n, p[i] != delimiter, p[i] != 0x0A, p[i] != 0x0D { i += 1 }
                        }
                    }
                    guard i < n || eof else { return nil }
                    let content = p[contentStart..<contentEnd]
                    if !doubled, problem == nil, let s = CSVReader.string(content) {
                        fields.append(s)  // no doubled quotes: straight from the buffer
                    } else {
                        appendField(
                            doubled ? CSVReader.unescapingQuotes(content) : content.array,
                            raw: content, offset: contentStart, to: &fields,
                            problem: &problem)
                    }
                } else {
                    i = p.firstIndex(of: delimiter, 0x0A, 0x0D, from: i)
                    guard i < n || eof else { return nil }
                    // Unquoted: the string is made straight from the buffer.
                    let slice = p[fieldStart..<i]
                    if let s = CSVReader.string(slice) {
                        fields.append(s)
                    } else {
                        appendField(
                            slice.array, raw: slice, offset: fieldStart, to: &fields,
                            problem: &problem)
                    }
                }
                if keepsBytes { ranges.append((fieldStart - position)..<(i - position)) }
                if i < n && p[i] == delimiter {
                    i += 1
                    if i == n && !eof { return nil }
                    continue fieldLoop
                }
                break
            }
            if i < n {
                guard let length = Self.lineEndLength(p, at: i, eof: eof) else { return nil }
                i += length
                lines += 1
            }
            var rawEnd = i
            while rawEnd > position, p[rawEnd - 1] == 0x0A || p[rawEnd - 1] == 0x0D { rawEnd -= 1 }
            let span = position..<rawEnd
            position = i
            line += lines
            lastFieldCount = fields.count
            let bytes = keepsBytes ? p[span.lowerBound..<i].array : []
            if let problem {
                return .failure(
                    TableRowError(
                        line: startLine, raw: p[span].string, message: problem.message,
                        isEncoding: problem.encoding, bytes: bytes))
            }
            let raw = keepsRaw ? p[span].string : ""
            return .success(
                TableRow(
                    fields: fields.finished(), line: startLine, raw: raw, span: span, bytes: bytes,
                    fieldRanges: ranges))
        }
    }

    /// Parses one record of a block starting at `position` into cells; nil (and `position`
    /// unchanged) when the record holds a byte that is not ASCII or is malformed, which the
    /// string reader then reads (checking its UTF-8) and reports.
    private func parseCells() -> Result<TableRow, TableRowError>? {
        buffer.withByteView { p -> Result<TableRow, TableRowError>? in
            let n = p.count
            var cells = spareCells.take() ?? []
            cells.removeAll(keepingCapacity: true)
            var i = position
            var lines = 0
            while true {
                if i < n && p[i] == 0x22 {
                    let contentStart = i + 1
                    guard
                        case .closed(let end, let doubled) = CSVReader.scanQuoted(
                            p, from: contentStart, eof: true, lines: &lines)
                    else { return nil }
                    guard p[contentStart..<end].isASCII else {
                        spareCells = cells
                        return nil
                    }
                    i = end + 1
                    guard i == n || p[i] == delimiter || p[i] == 0x0A || p[i] == 0x0D else {
                        return nil
                    }
                    cells.append(TableCell(range: contentStart..<end, hasDoubledQuotes: doubled))
                } else {
                    let start = i
                    i = p.firstIndex(of: delimiter, 0x0A, 0x0D, orNonASCII: true, from: i)
                    if i < n && p[i] >= 0x80 {
                        spareCells = cells
                        return nil
                    }
                    cells.append(TableCell(range: start..<i, hasDoubledQuotes: false))
                }
                if i < n && p[i] == delimiter {
                    i += 1
                    continue
                }
                break
            }
            let span = position..<i  // the record without its line end
            if i < n {
                i += Self.lineEndLength(p, at: i, eof: true)!
                lines += 1
            }
            let startLine = line
            position = i
            line += lines
            return .success(
                TableRow(fields: [], line: startLine, raw: "", span: span, cells: cells))
        }
    }

    /// The length of the line end (LF, CRLF or CR) at `p[i]`; nil for a CR at the edge of a
    /// chunk with more input to come (a LF may follow). Shared with `CSVBlockSplitter`.
    @inline(__always)
    static func lineEndLength(_ p: ByteView, at i: Int, eof: Bool) -> Int? {
        guard p[i] == 0x0D else { return 1 }
        if i + 1 == p.count { return eof ? 1 : nil }
        return p[i + 1] == 0x0A ? 2 : 1
    }

    /// Adds a field from its bytes; invalid UTF-8 marks the record, with the byte offset
    /// of the first invalid byte in the file (`raw`, the field as it is there, starts at
    /// `offset`; `""` in a quoted field does not change which byte that is).
    private func appendField(
        _ bytes: [UInt8], raw: ByteView, offset: Int, to fields: inout ReusedFields,
        problem: inout (message: String, encoding: Bool)?
    ) {
        if let s = String(validating: bytes, as: UTF8.self) {
            fields.append(s)
            return
        }
        let bad = CSVReader.firstInvalidUTF8(raw.array)
        problem =
            problem ?? (
                "invalid UTF-8 at byte offset \(bytesBefore + offset + bad) (field \(fields.count + 1)); pass \(.encoding) if the file is not UTF-8",
                true
            )
        fields.append(String(decoding: bytes, as: UTF8.self))
    }

    /// How the content of a quoted field ends (`scanQuoted`).
    enum QuotedContent {
        /// At the closing quote at `end`; `doubled` when a `""` occurs before it.
        case closed(end: Int, doubled: Bool)
        /// The input ends inside the quotes.
        case unterminated
        /// The bytes end before that is known: more input may follow.
        case needsMore
    }

    /// Scans the content of a quoted field from `start` (just after the opening quote) to its
    /// closing quote: `""` is a quote, and each line break inside adds one to `lines`. The
    /// one scan both this reader (splitting fields) and `CSVBlockSplitter` (cutting blocks
    /// of whole records) make.
    @inline(__always)
    static func scanQuoted(_ p: ByteView, from start: Int, eof: Bool, lines: inout Int)
        -> QuotedContent
    {
        let n = p.count
        var i = start
        var doubled = false
        while i < n {
            i = p.firstIndex(of: 0x22, 0x0A, 0x0D, from: i)
            guard i < n else { break }
            if p[i] == 0x22 {
                if i + 1 < n && p[i + 1] == 0x22 {
                    doubled = true
                    i += 2
                    continue
                }
                if i + 1 == n && !eof { return .needsMore }  // is it "" across the chunk edge?
                return .closed(end: i, doubled: doubled)
            }
            if p[i] == 0x0A || (p[i] == 0x0D && !(i + 1 < n && p[i + 1] == 0x0A)) { lines += 1 }
            i += 1
        }
        return eof ? .unterminated : .needsMore
    }

    /// The content of a quoted field with each `""` read as one `"`.
    static func unescapingQuotes(_ content: ByteView) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(content.count)
        var i = 0
        while i < content.count {
            out.append(content[i])
            i += content[i] == 0x22 && i + 1 < content.count && content[i + 1] == 0x22 ? 2 : 1
        }
        return out
    }

    /// The text of valid UTF-8 bytes, or nil (see `ByteView.validatedString`).
    @inline(__always)
    static func string(_ bytes: ByteView) -> String? { bytes.validatedString }

    /// The comma-separated fields of `line` (RFC 4180 quoting), spaces around each trimmed;
    /// empty when it is not one well-formed record.
    static func fields(ofLine line: String) -> [String] {
        let reader = CSVReader(
            block: Array(line.utf8), delimiter: UInt8(ascii: ","), firstLine: 1, byteOffset: 0)
        guard case .success(let record)? = try? reader.next(), case .none = try? reader.next()
        else { return [] }
        return record.fields.map(\.trimmingSpaces)
    }

    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length =
                b < 0x80
                ? 1 : b >> 5 == 0b110 ? 2 : b >> 4 == 0b1110 ? 3 : b >> 3 == 0b11110 ? 4 : 0
            guard length > 0, i + length <= bytes.count,
                String(validating: bytes[i..<i + length], as: UTF8.self) != nil
            else { return i }
            i += length
        }
        return bytes.count
    }
}

/// A record's fields written over those of a record the reader got back (`recycle`):
/// assigning over a string releases it in place, where emptying the array first would have
/// the runtime destroy the strings one by one through its generic path.
struct ReusedFields {
    private var strings: [String]
    private(set) var count = 0

    init(reusing strings: [String], reserving capacity: Int) {
        self.strings = strings
        self.strings.reserveCapacity(capacity)
    }

    mutating func append(_ s: String) {
        if count < strings.count {
            strings[count] = s
        } else {
            strings.append(s)
        }
        count += 1
    }

    /// The fields of this record (any left from the longer record before are dropped).
    consuming func finished() -> [String] {
        if strings.count > count { strings.removeLast(strings.count - count) }
        return strings
    }
}
