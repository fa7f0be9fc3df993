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
    public static var standardInput: TimelineSource { TimelineSource(kind: .fileDescriptor(0), name: "-") }

    /// Throws `.inputUnavailable` when the source is a file that cannot be opened for reading.
    public func checkReadable() throws(TimelineError) {
        if case .path(let path) = kind { _ = try InputReader(path: path) }
    }

    /// Opens the source for reading; throws when a file is missing or unreadable (exit 66).
    package func open() throws(TimelineError) -> InputReader {
        switch kind {
        case .path(let path): return try InputReader(path: path)
        case .bytes(let bytes): return InputReader(name: name, bytes: bytes)
        case .fileDescriptor(let fd): return InputReader(name: name, fileDescriptor: fd)
        }
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
    public static var standardOutput: TimelineDestination { TimelineDestination(kind: .path("-"), name: "-") }

    /// Opens the destination; throws when a file cannot be created (exit 73).
    package func open() throws(TimelineError) -> OutputWriter {
        switch kind {
        case .path(let path): return try OutputWriter(path: path)
        case .fileDescriptor(let fd): return OutputWriter(name: name, fileDescriptor: fd)
        }
    }
}
