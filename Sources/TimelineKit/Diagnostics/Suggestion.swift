/// "Did you mean …?" for a mistyped name: a command, an option, a field path, a zone.
package enum Suggestion {
    /// The candidate within `maxDistance` edits of `word` (the nearest; the first of
    /// equals), if any.
    package static func closest(
        _ word: String, among candidates: [String], maxDistance: Int = 2
    ) -> String? {
        var best: (String, Int)?
        let w = Array(word)
        for c in candidates {
            let d = editDistance(w, Array(c))
            if d <= maxDistance, best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(
                    min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
