import Synchronization

/// Objects that are costly to make and not thread-safe (a record mapper with its date
/// parser's caches), lent to one thread at a time.
///
/// `@unchecked Sendable` holds because an object is either in the pool or with exactly one
/// borrower: `take` removes it under the lock, `put` returns it under the lock, and a
/// borrower keeps it to itself in between. `make` runs on the borrowing thread and captures
/// only values that are copied into each new object.
final class ObjectPool<Object>: @unchecked Sendable {
    private let make: () -> Object
    private let idle = Mutex<[UncheckedSendable<Object>]>([])

    init(make: @escaping () -> Object) { self.make = make }

    /// An idle object, or a new one.
    func take() -> Object { idle.withLock { $0.popLast() }?.value ?? make() }

    /// Returns an object taken from this pool; its borrower no longer uses it.
    func put(_ object: Object) {
        let lent = UncheckedSendable(object)
        idle.withLock { $0.append(lent) }
    }

    /// Runs `body` with an object lent for its duration.
    func borrow<R>(_ body: (Object) -> R) -> R {
        let object = take()
        defer { put(object) }
        return body(object)
    }
}
