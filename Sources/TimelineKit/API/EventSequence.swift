import Synchronization

/// Events read while they are iterated (`Timeline.events(in:options:)`), in bounded memory.
/// A single-pass sequence: iterate it, or its `async` view in a task, once. When iteration ends, `error` says whether
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

    /// The same events for an app's task: reading runs on a thread of its own and the
    /// iterating task suspends (never blocks) while it waits. Iterate either this or the
    /// sequence itself, once. `next()` throws the `TimelineError` that stopped reading early,
    /// or `CancellationError` when the task was cancelled; cancelling the task, or leaving the
    /// loop, stops the reading. Rejected records and diagnostics are collected on this
    /// sequence (`rejects`, `diagnostics`) as they come.
    public var async: some AsyncSequence<Event, any Error> { AsyncEvents(sequence: self) }

    /// The event in `item`, after keeping what is not an event.
    fileprivate func take(_ item: ReadItem) -> Event? {
        switch item {
        case .event(let e): return e
        case .rejected(let r): collected.withLock { $0.rejects.append(r) }
        case .diagnostic(let d): collected.withLock { $0.diagnostics.append(d) }
        }
        return nil
    }

    /// `async`: the sequence's events, awaited.
    private struct AsyncEvents: AsyncSequence {
        let sequence: EventSequence

        func makeAsyncIterator() -> Reader { Reader(sequence: sequence) }

        struct Reader: AsyncIteratorProtocol {
            let sequence: EventSequence

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
                    if let event = sequence.take(item) { return event }
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
