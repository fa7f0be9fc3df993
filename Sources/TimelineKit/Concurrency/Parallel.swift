import Dispatch

/// Work spread over every core and joined before returning.
enum Parallel {
    /// `body(0)`, …, `body(count - 1)` run on all cores at once, their results in index
    /// order.
    ///
    /// `body` is not `@Sendable`: the callers' work reads shared state that nothing changes
    /// while this runs (a finished conversion's rules, an exporter's events). Each result is
    /// written to its own slot of the array, so the slots need no lock; every slot is
    /// written before `concurrentPerform` returns.
    static func map<R>(_ count: Int, _ body: (Int) -> R) -> [R] {
        guard count > 0 else { return [] }
        return withoutActuallyEscaping(body) { body in
            let work = UncheckedSendable(body)
            var results = [R?](repeating: nil, count: count)
            results.withUnsafeMutableBufferPointer { slots in
                let out = UncheckedSendable(slots)
                DispatchQueue.concurrentPerform(iterations: count) { i in
                    out.value[i] = work.value(i)
                }
            }
            return results.map { $0! }
        }
    }
}

/// One job run on a serial background queue, waited for once.
///
/// `@unchecked Sendable` holds because the job is touched by the queue's thread alone, and
/// its result is stored before `done` is signalled and read only after `wait` returns.
final class BackgroundJob<Result>: @unchecked Sendable {
    private var job: (() -> Result)?
    private var result: Result?
    private let done = DispatchSemaphore(value: 0)

    /// Starts `job` on `queue`; what it captures is handed to it and not used by the caller
    /// until `wait` returns.
    init(on queue: DispatchQueue, _ job: @escaping () -> Result) {
        self.job = job
        queue.async { [self] in
            result = self.job!()
            self.job = nil
            done.signal()
        }
    }

    /// Waits for the job (call once) and gives its result.
    func wait() -> Result {
        done.wait()
        return result!
    }
}
