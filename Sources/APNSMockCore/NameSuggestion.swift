/// "Did you mean …?" for a name that is not a known one (a configuration key, a matcher
/// field, a fault rule's field): the known name closest to it, when one is close enough to be a
/// typo of it.
public enum NameSuggestion {
    /// The known name in `candidates` closest to `name` (ignoring case), when its edit distance
    /// (insertions, deletions, substitutions and swaps of neighbours) is at most a third of
    /// `name`'s length, 1 at least and 3 at most; the first such candidate on a tie.
    public static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased().utf8)
        guard !typed.isEmpty else { return nil }
        let limit = max(1, min(3, typed.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(typed, Array(candidate.lowercased().utf8))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The words that follow the words naming unknown `name`: ` (did you mean 'recordCapacity'?)`,
    /// or an empty string when no known name is close.
    public static func didYouMean(_ name: String, among candidates: some Sequence<String>) -> String {
        closest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The optimal-string-alignment distance between `a` and `b`: the fewest single-byte
    /// insertions, deletions, substitutions and swaps of adjacent bytes that turn one into the
    /// other.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the table: the one before the previous (for swaps), the previous, the current.
        var older = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, older[j - 2] + 1)
                }
                current[j] = value
            }
            (older, previous, current) = (previous, current, older)
        }
        return previous[b.count]
    }
}
