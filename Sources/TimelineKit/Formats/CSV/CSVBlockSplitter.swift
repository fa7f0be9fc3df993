/// A run of whole CSV records cut from the input, with where it sits in the file, so it can
/// be split into fields and mapped on any thread.
struct CSVBlock: TableBlock {
    var bytes: [UInt8]
    var delimiter: UInt8
    /// 1-based physical line of the first byte.
    var firstLine: Int
    /// Number of records (not counting blank lines) before this block.
    var recordsBefore: Int
    /// Bytes of the input before this block (for byte offsets in errors).
    var byteOffset: Int

    func makeRows(inPlace: Bool) -> CSVBlockRows {
        let reader = CSVReader(
            block: bytes, delimiter: delimiter, firstLine: firstLine, byteOffset: byteOffset)
        reader.yieldsCells = inPlace
        return CSVBlockRows(reader: reader)
    }

    var cellBytes: [UInt8] { bytes }

    /// The row's bytes in the block: a block reader leaves `raw` empty.
    func raw(of row: TableRow) -> String {
        row.raw.isEmpty && !row.span.isEmpty
            ? String(decoding: bytes[row.span], as: UTF8.self) : row.raw
    }
}

/// A block's records, split into fields as they are read.
struct CSVBlockRows: TableBlockRows {
    let reader: CSVReader

    mutating func next() -> Result<TableRow, TableRowError>? {
        // A block reader reads no input: it cannot fail, only find a record invalid.
        (try? reader.next()) ?? nil
    }

    mutating func recycle(_ row: consuming TableRow) { reader.recycle(row) }
}

/// Cuts a CSV stream into blocks of whole records, about `targetSize` bytes each, by
/// scanning record boundaries the way `CSVReader` reads them: a `"` opens quoting only at
/// the start of a field, `""` inside quotes is a quote, text after a closing quote runs to
/// the next delimiter or line end, and LF, CRLF or CR ends a record. It neither splits
/// fields nor decodes text; that happens per block, on worker threads.
struct CSVBlockSplitter {
    private let targetSize: Int
    private let input: InputReader?
    private let delimiter: UInt8
    private var buffer: [UInt8]
    private var eof: Bool
    private var line: Int
    private var records = 0
    private var offset: Int
    /// The buffer is scanned for whole records once it holds this much: the target size,
    /// or twice what held no whole record (a record longer than a chunk is scanned a
    /// bounded number of times over, not once per chunk).
    private var scanAt: Int
    /// The longest record; a longer one stops the run.
    private let maxRecord: Int

    /// Continues where `reader` stopped (after the header line).
    init(
        continuing reader: CSVReader, input: InputReader, targetSize: Int = RecordBlocks.targetSize,
        maxRecord: Int = ReadOptions.defaultMaxRecordSize
    ) {
        let rest = reader.takeRemainder()
        self.targetSize = targetSize
        scanAt = targetSize
        self.maxRecord = maxRecord
        self.input = input
        delimiter = reader.delimiter
        buffer = Array(rest.bytes)
        eof = rest.eof
        line = rest.line
        offset = rest.offset
    }

    /// The next block, or nil at the end of the input.
    mutating func next() throws(TimelineError) -> CSVBlock? {
        while true {
            if buffer.count >= scanAt || eof {
                let scan = Self.scan(buffer, delimiter: delimiter, eof: eof)
                if scan.cut > 0 {
                    let block = CSVBlock(
                        bytes: Array(buffer[..<scan.cut]), delimiter: delimiter, firstLine: line,
                        recordsBefore: records,
                        byteOffset: offset)
                    buffer.removeFirst(scan.cut)
                    line += scan.lines
                    records += scan.records
                    offset += scan.cut
                    scanAt = targetSize
                    return block
                }
                if eof { return nil }
                guard buffer.count <= maxRecord else {
                    throw CSVReader.tooLong(maxRecord, line: line, file: input?.name ?? "")
                }
                scanAt = min(2 * buffer.count, maxRecord + 1)
            }
            guard let chunk = try input?.nextChunk() else {
                eof = true
                continue
            }
            buffer.append(contentsOf: chunk)
        }
    }

    /// The end of the last complete record in `bytes` (0 if none is complete), how many
    /// physical lines and how many non-blank records lie before it.
    static func scan(_ bytes: [UInt8], delimiter: UInt8, eof: Bool) -> (
        cut: Int, lines: Int, records: Int
    ) {
        bytes.withByteView { p in
            let n = p.count
            var cut = 0
            var cutLines = 0
            var cutRecords = 0
            var lines = 0
            var records = 0
            var i = 0
            record: while i < n {
                let recordStart = i
                // Only quotes and line ends matter here: delimiters are passed over, and a
                // quote is looked at only to see whether it opens a quoted field (it does
                // at the start of a field: the record's first byte or after a delimiter).
                scan: while true {
                    i = p.firstIndex(of: 0x22, 0x0A, 0x0D, from: i)
                    if i == n {
                        if !eof { break record }
                        break scan
                    }
                    if p[i] != 0x22 { break scan }
                    guard i == recordStart || p[i - 1] == delimiter else {
                        i += 1  // a quote inside unquoted text is text
                        continue scan
                    }
                    switch CSVReader.scanQuoted(p, from: i + 1, eof: eof, lines: &lines) {
                    case .needsMore: break record
                    case .unterminated: i = n
                    case .closed(let end, _): i = end + 1
                    }
                }
                let contentEnd = i
                if i < n {
                    guard let length = CSVReader.lineEndLength(p, at: i, eof: eof) else {
                        break record
                    }
                    i += length
                    lines += 1
                }
                let length = contentEnd - recordStart
                let blank =
                    length == 0
                    || (length == 2 && p[recordStart] == 0x22 && p[recordStart + 1] == 0x22)
                if !blank { records += 1 }
                cut = i
                cutLines = lines
                cutRecords = records
            }
            return (cut, cutLines, cutRecords)
        }
    }
}
