import Synchronization

/// Events read while they are iterated (`Timeline.events(in:options:)`), in bounded memory.
/// A single-pass sequence: iterate it once. When iteration ends, `error` says whether
/// reading stopped early; `rejects` and `diagnostics` hold what reading reported.
/// Stopping the iteration early (a `break`) stops the reading.
public final class EventSequence: Sequence, Sendable {
    private let channel: EventChannel
    private let collected = Mutex(Reported())

    init(channel: EventChannel) {
        self.channel = channel
    }

    deinit { channel.cancel() }

    /// Records that could not be read, so far (all of them once iteration has ended).
    public var rejects: [RejectedRecord] { collected.withLock { $0.rejects } }
    /// Warnings and notes from reading, so far.
    public var diagnostics: [Diagnostic] { collected.withLock { $0.diagnostics } }
    /// What stopped reading before the end of the input (an unreadable file, malformed
    /// input), once iteration has ended; nil when every input was read.
    public var error: TimelineError? { channel.error }

    public func makeIterator() -> some IteratorProtocol<Event> { Reader(sequence: self) }

    struct Reader: IteratorProtocol {
        let sequence: EventSequence

        mutating func next() -> Event? {
            while let item = sequence.channel.next() {
                if let event = sequence.take(item) { return event }
            }
            return nil
        }
    }

    /// The event in `item`, after keeping what is not an event.
    fileprivate func take(_ item: ReadItem) -> Event? {
        switch item {
        case .event(let e): return e
        case .rejected(let r): collected.withLock { $0.rejects.append(r) }
        case .diagnostic(let d): collected.withLock { $0.diagnostics.append(d) }
        }
        return nil
    }
}

/// Events read on a thread of their own and awaited by the iterating task
/// (`Timeline.asyncEvents(in:options:)`). Iterate it once; `next()` throws the
/// `TimelineError` that stopped reading early. Rejected records and diagnostics are
/// collected as they come (`rejects`, `diagnostics`). Cancelling the task, or leaving the
/// loop, stops the reading.
public final class AsyncEventSequence: AsyncSequence, Sendable {
    private let channel: EventChannel
    private let collected = Mutex(Reported())

    init(channel: EventChannel) {
        self.channel = channel
    }

    deinit { channel.cancel() }

    /// Records that could not be read, so far (all of them once iteration has ended).
    public var rejects: [RejectedRecord] { collected.withLock { $0.rejects } }
    /// Warnings and notes from reading, so far.
    public var diagnostics: [Diagnostic] { collected.withLock { $0.diagnostics } }

    /// An iterator whose `next()` gives the next event, nil at the end of the input, and
    /// throws the `TimelineError` that stopped reading early, or `CancellationError` when
    /// the task was cancelled.
    public func makeAsyncIterator() -> some AsyncIteratorProtocol<Event, any Error> {
        AsyncReader(sequence: self)
    }

    struct AsyncReader: AsyncIteratorProtocol {
        let sequence: AsyncEventSequence

        mutating func next() async throws -> Event? {
            while true {
                if Task.isCancelled {
                    sequence.channel.cancel()
                    throw CancellationError()
                }
                guard let item = await sequence.channel.nextAsync() else {
                    if let error = sequence.channel.error { throw error }
                    return nil
                }
                switch item {
                case .event(let e): return e
                case .rejected(let r): sequence.collected.withLock { $0.rejects.append(r) }
                case .diagnostic(let d): sequence.collected.withLock { $0.diagnostics.append(d) }
                }
            }
        }
    }
}

/// What reading reported besides events.
private struct Reported {
    var rejects: [RejectedRecord] = []
    var diagnostics: [Diagnostic] = []
}
