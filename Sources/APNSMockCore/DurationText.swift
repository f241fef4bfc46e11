/// Durations as the public interfaces write them: a number with a unit (`500ms`, `5s`, `2m`,
/// `1h`), or a bare number of seconds (query strings and flags).
public enum DurationText {
    /// The duration in seconds; `nil` when `text` is not a duration. The number is decimal
    /// digits with an optional fraction (`1.5s`): no sign, exponent, hex or `inf`.
    public static func seconds(_ text: String) -> Double? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where text.hasSuffix(unit.suffix) {
            // "5m" must not be read as "5" + "m" of "ms": the longer suffix is tried first.
            guard let value = number(text.dropLast(unit.suffix.count)) else { return nil }
            return value * unit.seconds
        }
        return number(text[...])
    }

    /// `digits` or `digits.digits` as a finite number.
    private static func number(_ text: Substring) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// `seconds` written back with the unit that reads best (`500ms`, `5s`, `2m`).
    public static func format(seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded()))ms" }
        if seconds < 120 || seconds.truncatingRemainder(dividingBy: 60) != 0 {
            return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
        }
        return "\(Int(seconds / 60))m"
    }
}
