import Foundation

/// What a reading thread hands to the reader of a sequence (`EventChannel`).
enum ReadItem {
    case event(Event)
    case rejected(RejectedRecord)
    case diagnostic(Diagnostic)
}

/// A reading thread's events, rejected records and diagnostics, in the order read.
typealias EventChannel = BoundedChannel<ReadItem>

/// Hands what a thread produces (what it read, a merge's chunks of output) to one consumer,
/// in the order produced, with at most `capacity` items waiting: the producer blocks when
/// the consumer falls behind, so producing any amount takes bounded memory. The consumer
/// pulls by blocking (`next()`) or by awaiting (`nextAsync()`). A consumer that stops early
/// cancels: the producer's next `send` throws, which ends the producing.
///
/// `@unchecked Sendable`: every stored property is read and written under `condition`.
final class BoundedChannel<Item>: @unchecked Sendable {
    /// Thrown to the producer once the consumer has gone.
    static var cancelled: TimelineError { TimelineError(.data, "reading was cancelled") }

    private let condition = NSCondition()
    /// What was sent; a taken item's place is emptied at once, so the channel never keeps
    /// what its consumer has let go of (a merge's chunks are a megabyte each).
    private var items: [Item?] = []
    private var head = 0
    private let capacity: Int
    private var finished = false
    private var failure: TimelineError?
    private var isCancelled = false
    /// An awaiting consumer, resumed when an item arrives or the producer finishes.
    private var waiter: CheckedContinuation<Void, Never>?

    init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    // MARK: Producer

    /// Adds an item, waiting while `capacity` items are waiting; throws `cancelled` once
    /// the consumer has gone.
    func send(_ item: Item) throws(TimelineError) {
        condition.lock()
        while items.count - head >= capacity && !isCancelled { condition.wait() }
        if isCancelled {
            condition.unlock()
            throw Self.cancelled
        }
        items.append(item)
        let resumed = waiter
        waiter = nil
        condition.broadcast()
        condition.unlock()
        resumed?.resume()
    }

    /// Ends the stream; `error` is what stopped it early, if anything.
    func finish(_ error: TimelineError?) {
        condition.lock()
        finished = true
        if let error, error != Self.cancelled { failure = error }
        let resumed = waiter
        waiter = nil
        condition.broadcast()
        condition.unlock()
        resumed?.resume()
    }

    // MARK: Consumer

    /// The next item, waiting for the producer; nil once the stream has ended (then
    /// `error` says whether it ended early).
    func next() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !finished { condition.wait() }
        return takeLocked()
    }

    /// The next item, suspending (not blocking a thread) until one arrives; nil once the
    /// stream has ended.
    func nextAsync() async -> Item? {
        while true {
            if let ready = takeIfReady() { return ready }
            await withCheckedContinuation { wait(with: $0) }
        }
    }

    /// `.some(item)` when an item is waiting or the stream has ended (`.some(nil)`); nil
    /// when the consumer has to wait.
    private func takeIfReady() -> Item?? {
        condition.lock()
        defer { condition.unlock() }
        return head < items.count || finished ? .some(takeLocked()) : nil
    }

    /// Resumes `continuation` when an item arrives or the stream ends (at once if so now).
    private func wait(with continuation: CheckedContinuation<Void, Never>) {
        condition.lock()
        if head < items.count || finished {
            condition.unlock()
            continuation.resume()
        } else {
            waiter = continuation
            condition.unlock()
        }
    }

    /// What stopped the producer before the end of its input, once the stream has ended.
    var error: TimelineError? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    /// Waits until the producer has finished (after `cancel`, until it has stopped).
    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Stops the producer at its next `send` and drops what is waiting.
    func cancel() {
        condition.lock()
        isCancelled = true
        items.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }

    private func takeLocked() -> Item? {
        guard head < items.count else { return nil }
        let item = items[head].take()
        head += 1
        // Drop what was taken once it is most of the array, so it does not grow for ever.
        if head >= 256 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item
    }

    /// Runs `produce` on a thread of its own named `name` (it blocks on input, output and on
    /// this channel, so it must not take a thread of the shared pools) and finishes the
    /// channel with its outcome. `produce` is not `@Sendable`: what it captures is handed to
    /// the producer thread, and the caller leaves it alone until the channel has finished.
    func startProducer(
        name: String = "timeline.read",
        _ produce: @escaping (BoundedChannel) throws(TimelineError) -> Void
    ) {
        let producer = UncheckedSendable(produce)
        let thread = Thread { [self] in
            do throws(TimelineError) {
                try producer.value(self)
                finish(nil)
            } catch {
                finish(error)
            }
        }
        thread.name = name
        thread.start()
    }
}
