/// `csv` and `tsv`: one event per record, read as a table (`TableImporter`). The input is
/// read record by record while the header is looked for, then cut into blocks of whole
/// records (`CSVBlockSplitter`), each split into fields on a worker thread.
struct CSVImporter: TimelineImporter {
    var defaultDelimiter: UInt8?
    /// About how many bytes of records each worker thread maps at a time.
    var blockSize = RecordBlocks.targetSize

    init(defaultDelimiter: UInt8? = nil) {
        self.defaultDelimiter = defaultDelimiter
    }

    func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        let options = context.options
        guard options.csv.delimiter?.isASCII ?? true else {
            throw TimelineError(
                .usage, "the CSV delimiter '\(options.csv.delimiter!)' is not an ASCII character")
        }
        var delimiter = options.csv.delimiter?.asciiValue ?? defaultDelimiter
        let named = try options.csv.columns.map { columns throws(TimelineError) in
            try columns.names(delimiter: &delimiter)
        }
        let reader = try CSVReader(input: input, delimiter: delimiter)
        reader.maxRecord = options.maxRecordSize
        var source = CSVRowSource(
            reader: reader, input: input, blockSize: blockSize, maxRecord: options.maxRecordSize)
        try TableImporter.read(&source, columns: named, input: input, context: context)
    }
}

/// A CSV input's records: one at a time from the reader, then blocks from a splitter that
/// continues where the reader stopped.
struct CSVRowSource: TableRowSource {
    private let reader: CSVReader
    private let input: InputReader
    private let blockSize: Int
    private let maxRecord: Int
    private var splitter: CSVBlockSplitter?

    init(reader: CSVReader, input: InputReader, blockSize: Int, maxRecord: Int) {
        self.reader = reader
        self.input = input
        self.blockSize = blockSize
        self.maxRecord = maxRecord
    }

    var rowsEndAtLastCell: Bool { false }

    mutating func nextRow() throws(TimelineError) -> Result<TableRow, TableRowError>? {
        precondition(splitter == nil, "a row read after the first block")
        return try reader.next()
    }

    mutating func nextBlock() throws(TimelineError) -> CSVBlock? {
        if splitter == nil {
            splitter = CSVBlockSplitter(
                continuing: reader, input: input, targetSize: blockSize, maxRecord: maxRecord)
        }
        return try splitter!.next()
    }
}

extension CSVColumns {
    /// The column names given; a header file read without a delimiter sets the one it shows
    /// for the input too (the two are parts of one file).
    func names(delimiter: inout UInt8?) throws(TimelineError) -> [String] {
        switch self {
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
                    .data, "\(.headerFrom) '\(path)': the file's first line names no columns",
                    at: SourceLocation(file: path, line: 1))
            }
        }
    }
}
