/// printf-style formats as iOS applies them to `loc-args`: the localized string is the format,
/// the arguments are strings.
public enum LocalizedFormat {
    /// Renders `format` with `arguments`.
    ///
    /// `%@` takes the next argument and `%n$@` argument `n` (1-based); `%%` is a percent sign.
    /// The other conversions (`%d %i %u %f %s`, with flags, width, precision and length modifiers
    /// such as `%ld %lld %.2f`, and their positional forms) insert the argument's text as it is,
    /// like `%@`. A missing argument renders as empty text; a `%` that starts no conversion is
    /// kept. `placeholders` is how many arguments the format uses: the larger of the number of
    /// sequential conversions and the highest position.
    public static func render(_ format: String, arguments: [String]) -> (text: String, placeholders: Int) {
        let scalars = Array(format.unicodeScalars)
        var text = String.UnicodeScalarView()
        var sequential = 0
        var highestPosition = 0
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "%" else {
                text.append(scalar)
                index += 1
                continue
            }
            if index + 1 < scalars.count, scalars[index + 1] == "%" {
                text.append("%")
                index += 2
                continue
            }
            guard let conversion = Conversion(scalars, at: index + 1) else {
                text.append(scalar)
                index += 1
                continue
            }
            let argumentIndex: Int
            if let position = conversion.position {
                highestPosition = max(highestPosition, position)
                argumentIndex = position - 1
            } else {
                argumentIndex = sequential
                sequential += 1
            }
            if argumentIndex < arguments.count { text.append(contentsOf: arguments[argumentIndex].unicodeScalars) }
            index = conversion.end
        }
        return (String(text), max(sequential, highestPosition))
    }

    /// One conversion after a `%`: `[n$][flags][width][.precision][length]type`.
    private struct Conversion {
        /// The 1-based argument position of a `%n$…` conversion.
        var position: Int?
        /// The index just past the conversion.
        var end: Int

        static let flags: Set<Unicode.Scalar> = ["-", "+", " ", "#", "0", "'"]
        static let lengths: Set<Unicode.Scalar> = ["h", "l", "q", "L", "z", "t", "j"]
        static let types: Set<Unicode.Scalar> = [
            "@", "d", "D", "i", "u", "U", "x", "X", "o", "O", "f", "F", "e", "E", "g", "G", "a", "A", "c", "C",
            "s", "S", "p",
        ]

        init?(_ scalars: [Unicode.Scalar], at start: Int) {
            var index = start
            func digits() -> Int? {
                var value: Int?
                while index < scalars.count, ("0"..."9").contains(scalars[index]) {
                    // Clamped: no format has a million arguments.
                    value = min((value ?? 0) * 10 + Int(scalars[index].value - 48), 1_000_000)
                    index += 1
                }
                return value
            }
            // A position is digits followed by `$`; otherwise the digits were a width.
            let afterPercent = index
            if let number = digits(), index < scalars.count, scalars[index] == "$" {
                guard number > 0 else { return nil }
                position = number
                index += 1
            } else {
                position = nil
                index = afterPercent
            }
            while index < scalars.count, Self.flags.contains(scalars[index]) { index += 1 }
            _ = digits()
            if index < scalars.count, scalars[index] == "." {
                index += 1
                _ = digits()
            }
            while index < scalars.count, Self.lengths.contains(scalars[index]) { index += 1 }
            guard index < scalars.count, Self.types.contains(scalars[index]) else { return nil }
            end = index + 1
        }
    }
}
