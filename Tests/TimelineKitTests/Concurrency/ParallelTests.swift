import Dispatch
import Testing

@testable import TimelineKit

/// `Parallel.map`, `ObjectPool` and `BackgroundJob`: the hand-offs the importers, the
/// validator and the sort use.
@Suite("Parallel work")
struct ParallelTests {
    @Test("Parallel.map gives each index's result in index order, and none for no work")
    func mapOrder() {
        let squares = Parallel.map(10_000) { $0 * $0 }
        #expect(squares.count == 10_000)
        #expect(squares.enumerated().allSatisfy { $0.element == $0.offset * $0.offset })
        #expect(Parallel.map(0) { $0 }.isEmpty)
    }

    /// A reference type that is not `Sendable`, as the record mappers are.
    final class Mapper {
        var uses = 0
    }

    @Test("an ObjectPool lends an object to one borrower at a time and reuses it")
    func poolReuses() {
        var made = 0
        let pool = ObjectPool<Mapper> {
            made += 1
            return Mapper()
        }
        let first = pool.take()
        let second = pool.take()  // the first is still lent: a new one
        #expect(first !== second && made == 2)
        pool.put(first)
        pool.borrow { $0.uses += 1 }
        #expect(first.uses == 1 && made == 2)
    }

    @Test("a BackgroundJob runs on its queue and gives its result to wait")
    func backgroundJob() {
        let queue = DispatchQueue(label: "test.background")
        let job = BackgroundJob(on: queue) { (1...100).reduce(0, +) }
        #expect(job.wait() == 5050)
    }
}
