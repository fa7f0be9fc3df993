/// A small deterministic random generator for property tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// `line` with 1 to `edits` random bytes removed, inserted or replaced, the new bytes
    /// drawn from `alphabet`: the mutations the fast readers' tests compare with the tree.
    mutating func mutated(_ line: [UInt8], edits: Int, alphabet: [UInt8]) -> [UInt8] {
        var line = line
        for _ in 0...Int(next() % UInt64(edits)) {
            guard !line.isEmpty else { break }
            let at = Int(next() % UInt64(line.count))
            switch next() % 3 {
            case 0: line.remove(at: at)
            case 1: line.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: at)
            default: line[at] = alphabet[Int(next() % UInt64(alphabet.count))]
            }
        }
        return line
    }
}
