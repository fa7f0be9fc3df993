import Synchronization

/// Counts the input bytes a run has read, for its progress: added to by the thread that
/// reads, read by the one that reports.
package final class ReadMeter: Sendable {
    private let count = Atomic<Int>(0)

    package init() {}

    /// Bytes read so far.
    package var bytes: Int { count.load(ordering: .relaxed) }

    func add(_ n: Int) { count.wrappingAdd(n, ordering: .relaxed) }
}
