#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operating system calls the library and the command make: files by descriptor,
/// atomic replacement, terminals. The rest of the code states what it wants in these terms
/// and never sees a C pointer, `errno` or a platform module; an interrupted call (`EINTR`)
/// is retried here.
package enum System {
    /// A call that failed, with the system's reason (`strerror`).
    package struct Failure: Error, Sendable {
        package let reason: String

        fileprivate static var current: Failure {
            Failure(reason: String(cString: strerror(errno)))
        }
    }

    /// What is at a path.
    package enum FileKind: Sendable {
        case regular, directory
        /// A device, FIFO, socket or terminal (`/dev/stdout`, a named pipe).
        case special
    }

    /// What is at `path`; nil when nothing is (or it cannot be looked at).
    package static func kind(of path: String) -> FileKind? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        default: return .special
        }
    }

    /// The size of the regular file at `path`, or open as `fd`; nil for anything else (a
    /// pipe, a terminal) or when it cannot be looked at.
    package static func regularFileSize(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    package static func regularFileSize(_ fd: Int32) -> Int? {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    /// Opens `path` to read.
    package static func openForReading(_ path: String) -> Result<Int32, Failure> {
        let fd = open(path, O_RDONLY)
        return fd >= 0 ? .success(fd) : .failure(.current)
    }

    /// Opens an existing special file (a FIFO, a device, a socket) to write, without
    /// creating or truncating it, and without waiting: a FIFO no process reads is a
    /// failure at once, not a hang. Writes then block as usual.
    package static func openSpecialForWriting(_ path: String) -> Result<Int32, Failure> {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(.current) }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        return .success(fd)
    }

    /// Whether writing to the special file at `path` is safe from other users: it is this
    /// process's user's (and so is a link to it), in a directory that is not shared
    /// (sticky and writable by all, as `/tmp` is, where anyone may plant a FIFO).
    package static func isOwnSpecialFile(_ path: String) -> Bool {
        var link = stat()
        var target = stat()
        guard lstat(path, &link) == 0, stat(path, &target) == 0 else { return false }
        let me = geteuid()
        guard link.st_uid == me, target.st_uid == me else { return false }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var dir = stat()
        guard stat(directory, &dir) == 0 else { return false }
        return !(dir.st_mode & S_ISVTX != 0 && dir.st_mode & S_IWOTH != 0)
    }

    /// The permission bits of the file at `path`, nil when there is none.
    package static func permissions(of path: String) -> UInt32? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return UInt32(st.st_mode) & 0o777
    }

    /// Sets the permission bits of the open file `fd`.
    package static func setPermissions(_ fd: Int32, _ mode: UInt32) {
        _ = fchmod(fd, mode_t(mode))
    }

    /// Creates a new, empty file with a unique name that starts with `prefix` in
    /// `directory`, open to read and write: only its owner may open it (0600) unless `shared`, when it
    /// gets what the process's umask gives a new file (0666 less the mask) — never more.
    package static func createTemporaryFile(
        in directory: String, prefix: String, shared: Bool = false
    ) -> Result<
        (descriptor: Int32, path: String), Failure
    > {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        for _ in 0..<100 {
            let suffix = String(
                decoding: (0..<10).map { _ in letters[Int(generator.next() % UInt64(letters.count))]
                }, as: UTF8.self)
            let path = "\(directory)/\(prefix)\(suffix)"
            let fd = open(
                path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, shared ? 0o666 : 0o600)
            if fd >= 0 { return .success((fd, path)) }
            if errno != EEXIST { return .failure(.current) }
        }
        return .failure(Failure(reason: "no unused temporary name"))
    }

    /// Creates a file in `directory` that has no name and never had one (`O_TMPFILE` on
    /// Linux), open to read and write, gone when its descriptor is closed: no other process
    /// can open it by name, however it watches the directory. Where the system or the file
    /// system cannot, a 0600 file is created and unlinked at once.
    package static func createAnonymousFile(in directory: String) -> Result<Int32, Failure> {
        #if os(Linux)
            // O_TMPFILE (__O_TMPFILE | O_DIRECTORY)
            let tmpfile: Int32 = 0o20_000_000 | O_DIRECTORY
            let anonymous = open(directory, O_RDWR | O_CLOEXEC | tmpfile, 0o600)
            if anonymous >= 0 { return .success(anonymous) }
        // ENOENT is a missing directory (reported by the fallback, as it would be);
        // EOPNOTSUPP and EISDIR a file system or kernel without O_TMPFILE.
        #endif
        var template = Array("\(directory)/timeline-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(.current) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return .success(fd)
    }

    /// Moves `fd`'s position to byte `offset` of its file.
    package static func seek(_ fd: Int32, to offset: Int) -> Result<Void, Failure> {
        lseek(fd, off_t(offset), SEEK_SET) < 0 ? .failure(.current) : .success(())
    }

    /// Moves `fd`'s position back to the start of its file.
    package static func rewind(_ fd: Int32) -> Result<Void, Failure> {
        lseek(fd, 0, SEEK_SET) < 0 ? .failure(.current) : .success(())
    }

    /// Gives back the storage of the first `length` bytes of the file `fd` (a temporary file
    /// read through once) without changing its size: on Linux the range is punched out of
    /// the file, its cached pages freed at once rather than when the file is closed; elsewhere,
    /// and where the file system cannot, nothing happens. Best effort: it never fails, and
    /// says whether it was done.
    @discardableResult
    package static func discardStart(of fd: Int32, length: Int) -> Bool {
        #if os(Linux)
            let punchHole: Int32 = 0x02
            let keepSize: Int32 = 0x01  // FALLOC_FL_PUNCH_HOLE, FALLOC_FL_KEEP_SIZE
            return linuxFallocate(fd, punchHole | keepSize, 0, Int64(length)) == 0
        #else
            return false
        #endif
    }

    #if os(Linux)
        /// glibc's `fallocate(2)`, which Glibc leaves out of Swift (it is declared only under
        /// `_GNU_SOURCE`): `int fallocate(int fd, int mode, off_t offset, off_t len)`, with
        /// the 64-bit `off_t` of every platform this builds for.
        @_silgen_name("fallocate")
        private static func linuxFallocate(
            _ fd: Int32, _ mode: Int32, _ offset: Int64, _ length: Int64
        ) -> Int32
    #endif

    /// Reads at most `count` bytes from `fd` onto the end of `buffer`; 0 at the end of input.
    package static func readChunk(
        from fd: Int32, appendingTo buffer: inout [UInt8], upTo count: Int
    ) -> Result<Int, Failure> {
        let old = buffer.count
        appendZeros(count, to: &buffer)
        while true {
            let got = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + old, count)
            }
            if got >= 0 {
                buffer.removeLast(count - got)
                return .success(got)
            }
            if errno == EINTR { continue }
            let failure = Failure.current
            buffer.removeLast(count)
            return .failure(failure)
        }
    }

    /// Appends `count` zeros to `bytes`, copied from a block of zeros: appending
    /// `repeatElement(0, count:)` goes element by element where the standard library's
    /// generics are not specialized (a debug build), seconds for a record of tens of megabytes.
    private static func appendZeros(_ count: Int, to bytes: inout [UInt8]) {
        var left = count
        while left > 0 {
            let n = min(left, zeros.count)
            zeros.withUnsafeBufferPointer {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n]))
            }
            left -= n
        }
    }

    private static let zeros = [UInt8](repeating: 0, count: 1 << 16)

    /// Writes all of `bytes` to `fd`.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Result<Void, Failure> {
        bytes.withUnsafeBytes { p in
            var offset = 0
            while offset < p.count {
                let n = write(fd, p.baseAddress! + offset, p.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return .failure(.current)
                }
                offset += n
            }
            return .success(())
        }
    }

    /// Writes `text` as UTF-8 to `fd`.
    package static func writeAll(_ text: String, to fd: Int32) -> Result<Void, Failure> {
        writeAll(Array(text.utf8), to: fd)
    }

    /// Closes `fd`, reporting a failure (a write error the kernel deferred to the close).
    package static func closeReporting(_ fd: Int32) -> Result<Void, Failure> {
        close(fd) == 0 ? .success(()) : .failure(.current)
    }

    /// Closes `fd`, ignoring failure (a descriptor given up on).
    package static func closeQuietly(_ fd: Int32) {
        _ = close(fd)
    }

    /// Moves `source` to `destination`, replacing it atomically: a reader of `destination`
    /// sees the old file or the new one, never part of one.
    package static func moveReplacing(_ source: String, to destination: String) -> Result<
        Void, Failure
    > {
        #if os(Linux)
            // ext4 (`auto_da_alloc`, on by default) writes a file back before `rename` returns
            // when the rename replaces another, leaving the run idle meanwhile. Swapping the
            // two names (`RENAME_EXCHANGE`, which ext4 does not flush on) and then removing
            // the old file, now at `source`, replaces it as atomically without that wait.
            // Only a file or link is swapped: a directory must stay where it is, and `rename`
            // reports it.
            var st = stat()
            if lstat(destination, &st) == 0, st.st_mode & S_IFMT != S_IFDIR,
                let exchange = renameExchange,
                exchange(AT_FDCWD, source, AT_FDCWD, destination, renameExchangeFlag) == 0
            {
                removeQuietly(source)
                return .success(())
            }
        #endif
        return rename(source, destination) == 0 ? .success(()) : .failure(.current)
    }

    #if os(Linux)
        /// `RENAME_EXCHANGE` from `<linux/fs.h>`, which the Glibc module does not import.
        private static let renameExchangeFlag: UInt32 = 2

        private typealias RenameAt2 =
            @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) ->
            Int32

        /// glibc's `renameat2` (2.28 and later), which the Glibc module does not import
        /// either; nil where the C library has none (then `rename` alone replaces).
        private static let renameExchange: RenameAt2? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
                return nil
            }
            return unsafeBitCast(symbol, to: RenameAt2.self)
        }()
    #endif

    /// Removes the file at `path`, ignoring failure (a temporary file given up on).
    package static func removeQuietly(_ path: String) {
        _ = unlink(path)
    }

    /// Whether `fd` is a terminal.
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }
}
