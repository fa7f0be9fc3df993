/// Numbers strings densely — 0, 1, 2, … in first-seen order — for tallies per id or per
/// series over millions of events. Cheaper than a `[String: Value]` dictionary there: a
/// fast hash of the UTF-8 bytes (not a seeded SipHash), 8-byte slots that keep 32 bits of
/// the hash (so growing never rehashes a string and most probes compare no text), and the
/// values live in plain arrays indexed by the number.
struct StringIndex {
    /// The strings, by number.
    private(set) var strings: [String] = []
    private var slots = HashSlots()
    /// The hashes of the strings, by number (kept for `hash(at:)`).
    private var hashes: [UInt64] = []

    var count: Int { strings.count }

    /// The `hash(_:)` of string number `n`, so another index can take it without rehashing.
    func hash(at n: Int) -> UInt64 { hashes[n] }

    /// The number of `s`, and whether it was first seen now (and numbered `count - 1`).
    mutating func number(of s: String) -> (number: Int, isNew: Bool) {
        number(of: s, hash: Self.hash(s))
    }

    /// As `number(of:)`, with the string's `hash(_:)` computed beforehand (on another thread).
    mutating func number(of s: String, hash: UInt64) -> (number: Int, isNew: Bool) {
        let found = slots.number(hash: hash, count: strings.count) { strings[$0] == s }
        if found.isNew {
            strings.append(s)
            hashes.append(hash)
        }
        return found
    }

    /// A fast 64-bit hash of the UTF-8 bytes (multiply-xorshift over 8-byte words). Not
    /// for untrusted keys against an adversary; equal strings always hash equal.
    static func hash(_ s: String) -> UInt64 {
        s.withByteView { hash(bytes: $0) }
    }

    @inline(__always)
    static func hash(bytes p: ByteView) -> UInt64 {
        let n = p.count
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(n)
        var i = 0
        while i + 8 <= n {
            h = (h ^ p.word(at: i)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 32
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(p[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 29
        h = h &* 0xFF51_AFD7_ED55_8CCD
        return h ^ (h >> 32)
    }
}

/// Numbers byte strings densely as `StringIndex` does strings, keeping their bytes back to
/// back in one buffer: for a million ids, no string object per id to allocate, retain and
/// free.
struct ByteStringIndex {
    private var bytes: [UInt8] = []
    /// Where each byte string ends in `bytes`, by number.
    private var ends: [Int] = []
    private var slots = HashSlots()

    var count: Int { ends.count }

    /// The byte string number `n`, as text.
    subscript(_ n: Int) -> String {
        String(decoding: bytes[(n == 0 ? 0 : ends[n - 1])..<ends[n]], as: UTF8.self)
    }

    /// Calls `body` with the bytes of string number `n`.
    func withBytes<R>(_ n: Int, _ body: (ByteView) -> R) -> R {
        bytes.withByteView { body($0[(n == 0 ? 0 : ends[n - 1])..<ends[n]]) }
    }

    /// The number of `s` (whose `StringIndex.hash(bytes:)` is `hash`), and whether it was
    /// first seen now (and numbered `count - 1`).
    mutating func number(of s: ByteView, hash: UInt64) -> (number: Int, isNew: Bool) {
        let found = slots.number(hash: hash, count: ends.count) { n in
            let start = n == 0 ? 0 : ends[n - 1]
            return ends[n] - start == s.count
                && bytes.withByteView { $0[start..<ends[n]].hasPrefix(s) }
        }
        if found.isNew {
            s.append(to: &bytes)
            ends.append(bytes.count)
        }
        return found
    }
}

/// The open-addressing table behind `StringIndex` and `ByteStringIndex`: linear probing over
/// 8-byte slots holding `hash32 << 32 | (number + 1)` (0 is empty), so growing never
/// rehashes a string and most probes compare no text.
struct HashSlots {
    private var slots: [UInt64] = Array(repeating: 0, count: 64)

    /// The number of the string whose full hash is `fullHash`, comparing candidates with
    /// `equals(number)`; if none is, `count` (the caller then stores the string as that number).
    mutating func number(hash fullHash: UInt64, count: Int, equals: (Int) -> Bool) -> (
        number: Int, isNew: Bool
    ) {
        let hash = fullHash >> 32
        var mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[i]
            if slot == 0 { break }
            if slot >> 32 == hash {
                let n = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                if equals(n) { return (n, false) }
            }
            i = (i + 1) & mask
        }
        if (count + 1) * 2 > slots.count {
            grow()
            mask = slots.count - 1
            i = Int(truncatingIfNeeded: hash) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
        }
        slots[i] = hash << 32 | UInt64(count + 1)
        return (count, true)
    }

    private mutating func grow() {
        var larger = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = larger.count - 1
        for slot in slots where slot != 0 {
            var i = Int(truncatingIfNeeded: slot >> 32) & mask
            while larger[i] != 0 { i = (i + 1) & mask }
            larger[i] = slot
        }
        slots = larger
    }
}
