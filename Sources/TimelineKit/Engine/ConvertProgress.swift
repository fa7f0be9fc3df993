/// Where a conversion is, for a progress display (`ConvertOptions.onProgress`).
package struct ConvertProgress: Sendable, Hashable {
    /// What the conversion is doing.
    package enum Phase: Sendable, Hashable {
        /// Reading the inputs and converting their records.
        case reading
        /// Merging the sorted runs spilled to disk into the output.
        case merging
        /// Running the checks over the whole timeline (`ConvertOptions.validate`).
        case validating
    }

    /// The current phase.
    package var phase: Phase = .reading
    /// Records read so far.
    package var recordsRead = 0
    /// Input bytes read so far.
    package var bytesRead = 0
    /// The inputs' size in bytes; nil when one is a pipe or a terminal.
    package var totalBytes: Int?
    /// Sorted runs written to disk so far, by a sort that outgrew its memory.
    package var runsOnDisk = 0
    /// Events written so far while merging.
    package var eventsWritten = 0
    /// Events the merge writes in all.
    package var eventsToWrite: Int?

    /// Nothing read yet.
    package init() {}

    /// How much of the phase is done, from 0 to 1: the bytes read of the inputs' size while
    /// reading, the events written while merging; nil when that cannot be known.
    package var fractionDone: Double? {
        switch phase {
        case .reading:
            guard let totalBytes, totalBytes > 0 else { return nil }
            return min(1, Double(bytesRead) / Double(totalBytes))
        case .merging:
            guard let eventsToWrite, eventsToWrite > 0 else { return nil }
            return min(1, Double(eventsWritten) / Double(eventsToWrite))
        case .validating:
            return nil
        }
    }
}
