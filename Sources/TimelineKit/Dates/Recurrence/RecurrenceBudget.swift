/// Work that recurrence expansion may still do: one unit per day of a rule's periods
/// examined, per excluded day, hour or minute stepped over, and per candidate occurrence. One budget is shared by every series and VTIMEZONE of a file,
/// another by every file of a run, so a hostile calendar (thousands of `FREQ=SECONDLY`
/// series, a rule whose BY parts never match) is stopped in well under a second, with a
/// warning naming the series, while a real calendar never comes near it.
package final class RecurrenceBudget {
    package private(set) var remaining: Int
    /// The budget above this one (the run's, above a file's), charged the same.
    private let parent: RecurrenceBudget?

    /// Units a file may spend (about 0.3 s of work): a ten-year expansion of a thousand
    /// weekly series is about 4 million, the VTIMEZONEs of a calendar a few thousand.
    package static let perFile = 10_000_000
    /// Units a run may spend, over all its files.
    package static let perRun = 50_000_000

    /// Occurrences that expanded series may still add to the run (`maxTotalOccurrences`).
    package var occurrencesLeft: Int { parent?.occurrencesLeft ?? ownOccurrencesLeft }
    private var ownOccurrencesLeft: Int

    /// A budget of `units`, charged to `parent` too; `occurrences` caps the occurrences a
    /// run's series add in all (ignored below the run's budget: a file charges its run).
    package init(_ units: Int, occurrences: Int = .max, within parent: RecurrenceBudget? = nil) {
        remaining = units
        ownOccurrencesLeft = occurrences
        self.parent = parent
    }

    /// Of `count` occurrences, how many the run still takes (and takes them).
    package func takeOccurrences(_ count: Int) -> Int {
        if let parent { return parent.takeOccurrences(count) }
        let taken = min(count, ownOccurrencesLeft)
        ownOccurrencesLeft -= taken
        return taken
    }

    /// Charges `units`; false (and nothing charged) when this budget or one above it has
    /// not that much left.
    package func spend(_ units: Int = 1) -> Bool {
        guard remaining >= units, parent?.spend(units) ?? true else { return false }
        remaining -= units
        return true
    }

    /// Whether nothing is left here or above.
    package var isExhausted: Bool { remaining <= 0 || parent?.isExhausted == true }
}
