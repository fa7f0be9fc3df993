#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    private var closesDescriptor = false
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
    package init(path: String) throws(TimelineError) {
        name = path
        if path == "-" {
            fd = 1
            temporaryPath = nil
            destinationPath = nil
            return
        }
        var st = stat()
        if stat(path, &st) == 0 {
            let type = st.st_mode & S_IFMT
            if type == S_IFDIR {
                throw TimelineError(.cannotCreateOutput, "cannot create '\(path)': it is a directory")
            }
            if type != S_IFREG {
                // A device, FIFO or terminal (`/dev/stdout`, a named pipe): write to it as it
                // is; there is nothing to replace atomically.
                let opened = open(path, O_WRONLY)
                guard opened >= 0 else {
                    let reason = String(cString: strerror(errno))
                    throw TimelineError(.cannotCreateOutput, "cannot open '\(path)': \(reason)")
                }
                fd = opened
                temporaryPath = nil
                destinationPath = nil
                closesDescriptor = true
                return
            }
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(base).tmp-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard created >= 0 else {
            let reason = String(cString: strerror(errno))
            throw TimelineError(.cannotCreateOutput, "cannot create '\(path)': \(reason)", notes: ["check that the directory '\(directory)' exists and is writable"])
        }
        fchmod(created, 0o644)
        fd = created
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        destinationPath = path
    }

    deinit {
        if let temporaryPath, !committed {
            close(fd)
            unlink(temporaryPath)
        } else if closesDescriptor {
            close(fd)
        }
    }

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
        var failure: TimelineError?
        bytes.withUnsafeBytes { p in
            do throws(TimelineError) { try writeAll(p) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(TimelineError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                throw TimelineError(.ioError, "cannot write '\(name)': \(reason)")
            }
            offset += n
        }
    }

    /// Flushes and, for a file, moves it into place. Call once, after a successful run.
    package func commit() throws(TimelineError) {
        try flush()
        guard let temporaryPath, let destinationPath else { return }
        if fsync(fd) != 0 || close(fd) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            committed = true
            throw TimelineError(.ioError, "cannot write '\(destinationPath)': \(reason)")
        }
        committed = true
        if rename(temporaryPath, destinationPath) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw TimelineError(.cannotCreateOutput, "cannot create '\(destinationPath)': \(reason)")
        }
    }
}
