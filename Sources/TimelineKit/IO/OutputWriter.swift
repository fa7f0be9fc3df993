/// A buffered byte output to standard output or to a file written atomically: bytes go to
/// a temporary file in the destination's directory, which `commit()` renames into place.
/// Without `commit()` (a failed run) the temporary file is removed and the destination is
/// never touched.
package final class OutputWriter {
    package let name: String
    private var fd: Int32
    private let temporaryPath: String?
    private let destinationPath: String?
    private var buffer: [UInt8] = []
    private var committed = false
    private var discarded = false
    private var closesDescriptor = false
    /// The temporary file's slot in `TerminationCleanup`, when it records one.
    private var cleanupSlot: Int?
    package static let flushThreshold = 1 << 16

    /// Standard output.
    package static func standardOutput() -> OutputWriter { OutputWriter(standardOutput: ()) }

    private init(standardOutput: Void) {
        name = "<stdout>"
        fd = 1
        temporaryPath = nil
        destinationPath = nil
    }

    /// Collects bytes in memory only (tests): `bytes` holds everything written.
    package init(inMemory name: String) {
        self.name = name
        fd = -1
        temporaryPath = nil
        destinationPath = nil
    }

    /// Writes to an open file descriptor the caller owns (it is not closed); nothing is
    /// atomic about it.
    package init(name: String, fileDescriptor: Int32) {
        self.name = name
        fd = fileDescriptor
        temporaryPath = nil
        destinationPath = nil
    }

    /// An atomic writer for `path`; `-` means standard output.
    ///
    /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` write to that
    /// descriptor (never replacing the name, which may stand for a redirected file). A FIFO,
    /// device or socket is written as it is only when it is the user's own and not in a
    /// directory anyone may write to (where another user could have planted it). A new
    /// file gets the mode the umask gives; a replaced file keeps its mode; until the run
    /// commits, the temporary file is no more readable than the file it becomes.
    package init(path: String) throws(TimelineError) {
        name = path
        if path == "-" {
            fd = 1
            temporaryPath = nil
            destinationPath = nil
            return
        }
        if let descriptor = Self.namedDescriptor(path) {
            fd = descriptor
            temporaryPath = nil
            destinationPath = nil
            return
        }
        switch System.kind(of: path) {
        case .directory:
            throw TimelineError(.cannotCreateOutput, "cannot create '\(path)': it is a directory")
        case .special:
            guard System.isOwnSpecialFile(path) else {
                throw TimelineError(
                    .cannotCreateOutput,
                    "refusing to write to '\(path)': a FIFO or device that is not yours, or in a directory anyone may write to",
                    notes: ["write to a regular file, or to standard output and redirect it"])
            }
            switch System.openSpecialForWriting(path) {
            case .success(let descriptor): fd = descriptor
            case .failure(let failure):
                throw TimelineError(
                    .cannotCreateOutput, "cannot open '\(path)': \(failure.reason)",
                    notes: ["a FIFO needs a process reading it first"])
            }
            temporaryPath = nil
            destinationPath = nil
            closesDescriptor = true
            return
        case .regular, nil:
            break
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !(path.hasPrefix("/dev/") || path.hasPrefix("/proc/") || path.hasPrefix("/sys/"))
        else {
            throw TimelineError(
                .cannotCreateOutput,
                "cannot create '\(path)': files are not made in /dev, /proc or /sys")
        }
        keptPermissions = System.permissions(of: path)
        switch System.createTemporaryFile(
            in: directory.isEmpty ? "/" : directory, prefix: ".\(base).tmp-",
            shared: keptPermissions == nil)
        {
        case .success(let created):
            fd = created.descriptor
            temporaryPath = created.path
            cleanupSlot = TerminationCleanup.remember(created.path)
        case .failure(let failure):
            throw TimelineError(
                .cannotCreateOutput, "cannot create '\(path)': \(failure.reason)",
                notes: ["check that the directory '\(directory)' exists and is writable"])
        }
        destinationPath = path
    }

    /// The mode of the file an output replaces, given to the new file when it commits.
    private var keptPermissions: UInt32?

    /// The descriptor a path names: standard output and error, `/dev/fd/N`,
    /// `/proc/self/fd/N`.
    static func namedDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let n = Int32(path.dropFirst(prefix.count)), n >= 0 { return n }
            }
            return nil
        }
    }

    deinit {
        discard()
    }

    /// Gives up a file not committed: its temporary file is removed and nothing replaces
    /// the destination. Call when the run fails: a writer still referenced elsewhere (by a
    /// worker thread's finished job, say) would otherwise leave its file behind until then,
    /// or for good when the process exits first. Does nothing after `commit` or a first call.
    package func discard() {
        if let cleanupSlot {
            TerminationCleanup.forget(cleanupSlot)
            self.cleanupSlot = nil
        }
        guard !discarded else { return }
        discarded = true
        if let temporaryPath, !committed {
            System.closeQuietly(fd)
            System.removeQuietly(temporaryPath)
        } else if closesDescriptor && !committed {
            System.closeQuietly(fd)
        }
    }

    /// Whether the output is a file replaced only by `commit()` (nothing is there before).
    package var replacesAtomically: Bool { temporaryPath != nil }

    /// What an in-memory writer collected.
    package var bytes: [UInt8] { buffer }

    @inline(__always)
    package func write(_ bytes: [UInt8]) throws(TimelineError) {
        if bytes.count >= OutputWriter.flushThreshold && fd >= 0 {
            // A large block (a batch of encoded events) goes out as it is, not via the buffer.
            try flush()
            try writeAll(bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= OutputWriter.flushThreshold && fd >= 0 { try flush() }
    }

    package func write(_ text: String) throws(TimelineError) {
        try write(Array(text.utf8))
    }

    package func flush() throws(TimelineError) {
        guard fd >= 0 else { return }
        try writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: [UInt8]) throws(TimelineError) {
        if case .failure(let failure) = System.writeAll(bytes, to: fd) {
            throw TimelineError(.ioError, "cannot write '\(name)': \(failure.reason)")
        }
    }

    /// Flushes and, for a file, moves it into place. Call once, after a successful run.
    package func commit() throws(TimelineError) {
        try flush()
        guard let temporaryPath, let destinationPath else { return }
        // The descriptor is closed either way: the deinitializer must not close it again.
        committed = true
        if let cleanupSlot {
            TerminationCleanup.forget(cleanupSlot)
            self.cleanupSlot = nil
        }
        // Not fsync'd: the rename makes the output atomic for readers and for a failed run, and
        // waiting for a large output to reach the disk would leave every run idle at its end
        // (sort, DuckDB and polars do not wait either).
        if let keptPermissions { System.setPermissions(fd, keptPermissions) }
        if case .failure(let failure) = System.closeReporting(fd) {
            System.removeQuietly(temporaryPath)
            throw TimelineError(.ioError, "cannot write '\(destinationPath)': \(failure.reason)")
        }
        if case .failure(let failure) = System.moveReplacing(temporaryPath, to: destinationPath) {
            System.removeQuietly(temporaryPath)
            throw TimelineError(
                .cannotCreateOutput, "cannot create '\(destinationPath)': \(failure.reason)")
        }
    }
}
