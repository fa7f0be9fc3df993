import Foundation

/// Where events are read from: a file, bytes or text in memory, an open file handle, or
/// standard input. The name is what diagnostics and each event's `source.file` show.
public struct TimelineSource: Sendable {
    enum Kind: Sendable {
        case path(String)
        case bytes([UInt8])
        case fileDescriptor(Int32)
    }

    let kind: Kind
    /// The name diagnostics and provenance use (`orders.csv`, `-` for standard input).
    public let name: String
    /// Where the source begins in the file `name` names when it is a slice of it; nil for a
    /// whole file.
    package private(set) var slice: SourcePosition?
    /// The bytes of a file whose starting lines are read (`ByteRangeInput`); nil for all.
    package private(set) var byteRange: Range<Int>?

    /// A file, named in diagnostics and provenance by its path as given.
    public static func file(path: String) -> TimelineSource {
        TimelineSource(kind: path == "-" ? .fileDescriptor(0) : .path(path), name: path)
    }

    /// A file URL, named by its path.
    public static func file(_ url: URL) -> TimelineSource {
        file(path: url.path)
    }

    /// Bytes in memory; `name` should carry the format's extension when `ReadOptions.format`
    /// is not set (`orders.csv`), or the content is sniffed.
    public static func data(_ data: Data, name: String = "-") -> TimelineSource {
        TimelineSource(kind: .bytes([UInt8](data)), name: name)
    }

    /// Text in memory, as UTF-8.
    public static func string(_ text: String, name: String = "-") -> TimelineSource {
        TimelineSource(kind: .bytes(Array(text.utf8)), name: name)
    }

    /// An open file handle (a pipe, a socket, a file), read to its end and not closed.
    public static func fileHandle(_ handle: FileHandle, name: String) -> TimelineSource {
        TimelineSource(kind: .fileDescriptor(handle.fileDescriptor), name: name)
    }

    /// Standard input, named `-`.
    public static var standardInput: TimelineSource {
        TimelineSource(kind: .fileDescriptor(0), name: "-")
    }

    /// This source read as a slice of the larger file `file` (a partition of a distributed
    /// job, a chunk cut by a script): its events and diagnostics name `file`, its records are
    /// numbered from `firstRecord` and its lines from `firstLine`, so provenance and generated
    /// ids (`orders.csv:1201`) are those a single run over the whole file gives. A CSV slice
    /// has no header line of its own: name its columns with `ReadOptions.columnNames`; and
    /// since a slice cannot tell whether the file goes on after it, a row of another width
    /// at its end is rejected as a bad record, never taken for a footer (a bill's totals).
    public func slice(of file: String, firstRecord: Int = 1, firstLine: Int = 1) -> TimelineSource {
        var slice = TimelineSource(kind: kind, name: file)
        slice.byteRange = byteRange
        slice.slice = SourcePosition(
            recordsBefore: max(0, firstRecord - 1), linesBefore: max(0, firstLine - 1))
        return slice
    }

    /// Only the lines of this file that start in the bytes (`range.lowerBound`,
    /// `range.upperBound`] — from byte 0 when the range starts there — as Hadoop cuts a file
    /// into splits: the tasks of a distributed job each read their own split, and ranges
    /// that tile the file read every line once. Combine with `slice(of:firstRecord:firstLine:)`
    /// to number the records as the whole file's.
    package func lines(startingIn range: Range<Int>) -> TimelineSource {
        var part = self
        part.byteRange = range
        return part
    }

    /// Whether the source can be read once ahead of the run (a file or bytes, not a stream).
    var canBeReadAhead: Bool {
        switch kind {
        case .path, .bytes: return true
        case .fileDescriptor: return false
        }
    }

    /// Throws `.inputUnavailable` when the source is a file that cannot be opened for reading.
    public func checkReadable() throws(TimelineError) {
        if case .path(let path) = kind { _ = try InputReader(path: path) }
    }

    /// Opens the source for reading; throws when a file is missing or unreadable (exit 66).
    /// The source's size in bytes, when it is a regular file or bytes in memory.
    package var byteCount: Int? {
        switch kind {
        case .path(let path):
            if let byteRange { return byteRange.count }
            return path == "-" ? System.regularFileSize(0) : System.regularFileSize(path)
        case .bytes(let bytes): return bytes.count
        case .fileDescriptor(let fd): return System.regularFileSize(fd)
        }
    }

    package func open() throws(TimelineError) -> InputReader {
        let reader: InputReader
        switch kind {
        case .path(let path):
            if let byteRange {
                let range = try ByteRangeInput(path: path, range: byteRange)
                reader = InputReader(name: name, producing: range.next)
            } else {
                reader = try InputReader(path: path)
            }
        case .bytes(let bytes): reader = InputReader(name: name, bytes: bytes)
        case .fileDescriptor(let fd): reader = InputReader(name: name, fileDescriptor: fd)
        }
        reader.name = name
        reader.slice = slice
        return reader
    }
}

/// Where a source begins in the file it belongs to: how many records and lines of that file
/// come before it (none for a whole file).
package struct SourcePosition: Sendable, Hashable {
    /// Records of the file before the source's first record.
    public var recordsBefore = 0
    /// Lines of the file before the source's first line.
    public var linesBefore = 0

    /// The start of a file.
    public init() {}

    /// A position `recordsBefore` records and `linesBefore` lines into a file.
    public init(recordsBefore: Int, linesBefore: Int) {
        self.recordsBefore = recordsBefore
        self.linesBefore = linesBefore
    }
}

/// Where written events go: a file (written atomically: a temporary file renamed into place
/// when writing succeeds), an open file handle, or standard output.
public struct TimelineDestination: Sendable {
    enum Kind: Sendable {
        case path(String)
        case fileDescriptor(Int32)
    }

    let kind: Kind
    /// The name diagnostics use.
    public let name: String

    /// A file at `path`, replaced atomically when writing succeeds; `-` is standard output.
    public static func file(path: String) -> TimelineDestination {
        TimelineDestination(kind: .path(path), name: path)
    }

    /// A file URL, replaced atomically when writing succeeds.
    public static func file(_ url: URL) -> TimelineDestination {
        file(path: url.path)
    }

    /// An open file handle, written as the events come and not closed.
    public static func fileHandle(_ handle: FileHandle, name: String) -> TimelineDestination {
        TimelineDestination(kind: .fileDescriptor(handle.fileDescriptor), name: name)
    }

    /// Standard output.
    public static var standardOutput: TimelineDestination {
        TimelineDestination(kind: .path("-"), name: "-")
    }

    /// Opens the destination; throws when a file cannot be created (exit 73).
    package func open() throws(TimelineError) -> OutputWriter {
        switch kind {
        case .path(let path): return try OutputWriter(path: path)
        case .fileDescriptor(let fd): return OutputWriter(name: name, fileDescriptor: fd)
        }
    }
}
