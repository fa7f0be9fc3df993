import Foundation
import Testing

@testable import TimelineKit

/// `BoundedChannel` (as `EventChannel`): a producer thread hands items to one consumer in
/// order, with at most `capacity` waiting; a consumer that leaves stops the producer; an
/// error is kept.
@Suite("BoundedChannel")
struct BoundedChannelTests {
    static func event(_ i: Int) -> Event {
        Event(
            id: "e\(i)", start: TimeValue(date: CivilDate(year: 2024, month: 1, day: 1)!), title: ""
        )
    }

    /// The most items the producer has had waiting at once.
    final class Peak: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var sent = 0

        func add() {
            lock.lock()
            sent += 1
            lock.unlock()
        }

        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return sent
        }
    }

    @Test("items arrive in order; a slow consumer holds the producer to the capacity")
    func orderAndCapacity() {
        let channel = EventChannel(capacity: 8)
        let sent = Peak()
        channel.startProducer { channel throws(TimelineError) in
            for i in 0..<1_000 {
                try channel.send(.event(Self.event(i)))
                sent.add()
            }
        }
        var ids: [String] = []
        var mostAhead = 0
        while let item = channel.next() {
            if case .event(let e) = item { ids.append(e.id) }
            mostAhead = max(mostAhead, sent.value - ids.count)
            if ids.count % 100 == 0 { usleep(2_000) }
        }
        #expect(ids == (0..<1_000).map { "e\($0)" })
        #expect(channel.error == nil)
        // Sent but not taken: at most the capacity, plus the one the consumer holds.
        #expect(mostAhead <= 9)
    }

    @Test("a consumer that stops cancels the producer's next send; a producer's error is kept")
    func cancelAndError() {
        let channel = EventChannel(capacity: 4)
        let done = DispatchSemaphore(value: 0)
        let sent = Peak()
        channel.startProducer { channel throws(TimelineError) in
            defer { done.signal() }
            for i in 0..<1_000_000 {
                try channel.send(.event(Self.event(i)))
                sent.add()
            }
        }
        _ = channel.next()
        channel.cancel()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(sent.value < 100)
        #expect(channel.error == nil)  // cancelling is not an error of the input

        let failing = EventChannel()
        failing.startProducer { channel throws(TimelineError) in
            try channel.send(.event(Self.event(0)))
            throw TimelineError(.data, "invalid JSON")
        }
        var count = 0
        while failing.next() != nil { count += 1 }
        #expect(count == 1)
        #expect(failing.error?.diagnostic.message == "invalid JSON")
    }

    @Test("an awaiting consumer gets every item, suspended while it waits")
    func asyncConsumer() async {
        let channel = EventChannel(capacity: 2)
        channel.startProducer { channel throws(TimelineError) in
            for i in 0..<500 {
                if i % 50 == 0 { usleep(1_000) }
                try channel.send(.event(Self.event(i)))
            }
        }
        var ids: [String] = []
        while let item = await channel.nextAsync() {
            if case .event(let e) = item { ids.append(e.id) }
        }
        #expect(ids == (0..<500).map { "e\($0)" })
    }

    /// An item whose release is seen (through a weak reference).
    final class Payload: Sendable {}

    @Test(
        "an item the consumer took is released when the consumer lets it go, not kept by the channel"
    )
    func takenItemsAreReleased() {
        let channel = BoundedChannel<Payload>(capacity: 2)
        let released = DispatchSemaphore(value: 0)
        channel.startProducer(name: "test") { channel throws(TimelineError) in
            for _ in 0..<10 { try channel.send(Payload()) }
            released.wait()
        }
        weak var first: Payload?
        do {
            let item = channel.next()
            first = item
            #expect(first != nil)
        }
        for _ in 0..<4 { _ = channel.next() }
        // Fewer than 256 items were taken: a channel that keeps taken items until it
        // compacts its storage would still hold the first one here.
        #expect(first == nil)
        released.signal()
        while channel.next() != nil {}
    }

    @Test("waitUntilFinished returns once a cancelled producer has stopped")
    func waitForCancelledProducer() {
        let channel = BoundedChannel<Int>(capacity: 1)
        let stopped = Peak()
        channel.startProducer(name: "test") { channel throws(TimelineError) in
            defer { stopped.add() }
            for i in 0..<1_000_000 {
                try channel.send(i)
                usleep(100)
            }
        }
        #expect(channel.next() == 0)
        channel.cancel()
        channel.waitUntilFinished()
        #expect(stopped.value == 1)
    }
}
