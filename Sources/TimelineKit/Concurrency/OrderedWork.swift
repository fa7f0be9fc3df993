import Dispatch

/// Runs jobs on worker threads and hands their results back on the submitting thread in
/// the order the jobs were submitted. At most `limit` jobs are in flight: `submit` blocks
/// (delivering finished results) until a slot is free, which bounds memory.
///
/// Used where records are independent (a CSV block maps to events with no state carried
/// between blocks) but output order must be the input order. Jobs are not `@Sendable`: a
/// job owns what it alone captures (its block), and reads but never changes what jobs share
/// (the importer's settings); a result passes to the submitting thread only after the job's
/// slot is signalled.
final class OrderedWork<Result> {
    private final class Slot: @unchecked Sendable {
        /// The job until it has run: released before `done` is signalled, so that nothing it
        /// holds (an import context, its output) outlives the wait for it.
        var job: (() -> Result)?
        var result: Result?
        let done = DispatchSemaphore(value: 0)
    }

    private let limit: Int
    private var pending: [Slot] = []
    private var next = 0  // index in `pending` of the oldest undelivered slot

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Starts `job` on a worker thread; before that, waits for and delivers the oldest
    /// results while `limit` jobs are already in flight.
    func submit(
        _ job: @escaping () -> Result, deliver: (consuming Result) throws(TimelineError) -> Void
    ) throws(TimelineError) {
        while pending.count - next >= limit { try deliverOldest(deliver) }
        let slot = Slot()
        slot.job = job
        pending.append(slot)
        DispatchQueue.global().async {
            slot.result = slot.job!()
            slot.job = nil
            slot.done.signal()
        }
    }

    /// Waits for every submitted job and delivers the remaining results in order.
    func finish(deliver: (consuming Result) throws(TimelineError) -> Void) throws(TimelineError) {
        while next < pending.count { try deliverOldest(deliver) }
    }

    /// Waits for outstanding jobs without delivering them (after an error stopped the run).
    func abandon() {
        while next < pending.count {
            pending[next].done.wait()
            next += 1
        }
    }

    private func deliverOldest(_ deliver: (consuming Result) throws(TimelineError) -> Void)
        throws(TimelineError)
    {
        let slot = pending[next]
        slot.done.wait()
        next += 1
        if next > 64 {
            pending.removeFirst(next)
            next = 0
        }
        guard let result = slot.result.take() else { return }
        do {
            try deliver(result)
        } catch {
            abandon()
            throw error
        }
    }
}
