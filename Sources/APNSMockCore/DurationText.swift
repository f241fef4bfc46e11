/// Durations as the public interfaces write them: a number with a unit (`500ms`, `5s`, `2m`,
/// `1h`), or a bare number of seconds (query strings and flags).
public enum DurationText {
    /// The duration in seconds; `nil` when `text` is not a duration.
    public static func seconds(_ text: String) -> Double? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            // "5m" must not be read as "5" + "m" of "ms": the longer suffix is tried first.
            guard let value = Double(number), value >= 0, value.isFinite, !number.hasPrefix("+") else { return nil }
            return value * unit.seconds
        }
        guard let value = Double(text), value >= 0, value.isFinite, !text.hasPrefix("+") else { return nil }
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
