import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes the atomic outputs' temporary files when the process is ended by a signal it can
/// catch whose default is to end it (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM,
/// SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM), so that an interrupted run leaves nothing behind
/// (a sort's run files need nothing: they never have a name). A signal the process was
/// started ignoring (`nohup`, a `trap ''`) stays ignored.
///
/// The library only records the paths, and only once a program has asked for the handlers:
/// a library must not take over an app's signals, so an app that never calls
/// `installHandlers()` pays nothing. The command line installs them at start.
///
/// A signal handler may only make async-signal-safe calls: the paths are kept as C strings
/// in a fixed table allocated up front, which the handler reads without a lock and passes
/// to `unlink`; then the signal's default action is restored and the signal raised again,
/// so the process ends as it would have (a shell sees 130 or 143).
package enum TerminationCleanup {
    private static let capacity = 16
    private static let installed = Atomic<Bool>(false)
    /// Slot `i` holds a path to remove (a C string's address), or 0; taken by a
    /// compare-and-exchange from 0, so no lock is needed, and read by the handler.
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<Atomic<Int>> = {
        let table = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for i in 0..<capacity { (table + i).initialize(to: Atomic(0)) }
        return table
    }()
    package static let signals: [Int32] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM,
    ]

    /// Installs the handlers and lets the signals through on this thread (a parent may have
    /// started the process with them blocked; threads started later inherit the mask).
    package static func installHandlers() {
        // Made now: a handler must not be the first to touch a lazily made global.
        _ = table
        installed.store(true, ordering: .releasing)
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals {
            // SIG_IGN is the handler whose address is 1 (C compares it so too).
            if let previous = signal(s, handle), unsafeBitCast(previous, to: Int.self) == 1 {
                signal(s, SIG_IGN)
                continue
            }
            sigaddset(&set, s)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Records `path` for removal on a signal; returns its slot for `forget`, or nil when no
    /// handler is installed or the table is full (the file is then still removed on every
    /// end of the run but a signal).
    package static func remember(_ path: String) -> Int? {
        guard installed.load(ordering: .acquiring), let copy = strdup(path) else { return nil }
        let address = Int(bitPattern: copy)
        for i in 0..<capacity
        where table[i].compareExchange(
            expected: 0, desired: address, ordering: .acquiringAndReleasing
        ).exchanged {
            return i
        }
        free(copy)
        return nil
    }

    /// The file of `slot` no longer needs removing (it was renamed into place or removed).
    package static func forget(_ slot: Int) {
        // The string is not freed: a handler running now on another thread may still read
        // it (a few bytes per output, in a process that installed the handlers).
        table[slot].store(0, ordering: .releasing)
    }

    private static let handle: @convention(c) (Int32) -> Void = { sig in
        for i in 0..<TerminationCleanup.capacity {
            let value = TerminationCleanup.table[i].load(ordering: .acquiring)
            if value != 0, let path = UnsafePointer<CChar>(bitPattern: value) { unlink(path) }
        }
        signal(sig, SIG_DFL)
        raise(sig)
    }
}
