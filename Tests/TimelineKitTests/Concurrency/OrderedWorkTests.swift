import Dispatch
import Foundation
import Testing

@testable import TimelineKit

/// `OrderedWork`: jobs run on worker threads, results come back on the submitting thread in
/// submission order, at most `limit` in flight, and a failing delivery stops the run.
@Suite("OrderedWork")
struct OrderedWorkTests {
    /// Counts jobs started and not yet delivered, and the most seen at once.
    final class InFlight: @unchecked Sendable {
        private let lock = NSLock()
        private var now = 0
        private(set) var most = 0

        func started() {
            lock.lock()
            now += 1
            most = max(most, now)
            lock.unlock()
        }

        func delivered() {
            lock.lock()
            now -= 1
            lock.unlock()
        }
    }

    @Test(
        "results arrive in submission order whatever the jobs' sizes and delays",
        arguments: [1, 2, 3, 6, 16])
    func order(limit: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let sizes = (0..<300).map { _ in Int.random(in: 0...40, using: &generator) }
        let delays = (0..<300).map { _ in useconds_t.random(in: 0...300, using: &generator) }
        let work = OrderedWork<[Int]>(limit: limit)
        var received: [[Int]] = []
        let deliver = { (result: consuming [Int]) throws(TimelineError) in received.append(result) }
        for (i, size) in sizes.enumerated() {
            let delay = delays[i]
            try work.submit(
                {
                    usleep(delay)
                    return (0..<size).map { i * 1000 + $0 }
                }, deliver: deliver)
        }
        try work.finish(deliver: deliver)
        #expect(received == sizes.enumerated().map { i, size in (0..<size).map { i * 1000 + $0 } })
    }

    @Test("at most `limit` jobs are in flight: submit waits for the oldest", arguments: [1, 2, 4])
    func backPressure(limit: Int) throws {
        let inFlight = InFlight()
        let work = OrderedWork<Int>(limit: limit)
        var count = 0
        let deliver = { (n: consuming Int) throws(TimelineError) in
            inFlight.delivered()
            count += 1
        }
        for i in 0..<100 {
            try work.submit(
                {
                    usleep(UInt32(i % 5) * 100)
                    return i
                }, deliver: deliver)
            // Counted once submitted (deliveries happen on this thread only, inside
            // `submit`), so a job still waiting for a worker thread counts too.
            inFlight.started()
        }
        try work.finish(deliver: deliver)
        #expect(count == 100)
        #expect(inFlight.most <= limit)
    }

    @Test(
        "a delivery that throws stops the run: the error comes out, nothing later is delivered, every job is waited for"
    )
    func failingDelivery() {
        let work = OrderedWork<Int>(limit: 4)
        let finished = InFlight()
        var submitted = 0
        var delivered: [Int] = []
        let deliver = { (n: consuming Int) throws(TimelineError) in
            if n == 10 { throw TimelineError(.ioError, "disk full at \(n)") }
            delivered.append(n)
        }
        var caught: TimelineError?
        do throws(TimelineError) {
            for i in 0..<50 {
                try work.submit(
                    {
                        usleep(200)
                        finished.started()
                        return i
                    }, deliver: deliver)
                submitted += 1
            }
            try work.finish(deliver: deliver)
        } catch {
            caught = error
        }
        #expect(caught?.diagnostic.message == "disk full at 10")
        #expect(delivered == Array(0..<10))
        // Every job submitted had run to its end before the error came out: none is left
        // running against state the caller goes on to free.
        #expect(submitted >= 11 && submitted <= 14)
        #expect(finished.most == submitted)
    }
}
