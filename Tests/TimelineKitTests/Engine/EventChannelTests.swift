import Foundation
import Testing

@testable import TimelineKit

/// `EventChannel`: a producer thread hands items to one consumer in order, with at most
/// `capacity` waiting; a consumer that leaves stops the producer; an error is kept.
@Suite("EventChannel")
struct EventChannelTests {
    static func event(_ i: Int) -> Event {
        Event(id: "e\(i)", start: TimeValue(date: CivilDate(year: 2024, month: 1, day: 1)!), title: "")
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
}
