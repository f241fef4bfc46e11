/// Which of the requests a fault rule matches it acts on, counted in match order.
///
/// JSON (`select`): `{}`, `{"first": N}`, `{"nth": N}`, `{"every": K}`,
/// `{"probability": P, "seed": S}` or `{"for": "30s"}`. The seed lives on the rule
/// (`FaultRule.seed`), since its generator also draws delays.
public enum FaultSelection: Sendable, Hashable {
    /// Every match.
    case always
    /// Matches 1 through N.
    case first(Int)
    /// Match N only.
    case nth(Int)
    /// Matches K, 2K, 3K, ….
    case everyKth(Int)
    /// Each match with probability P (0...1), drawn from the rule's seeded generator.
    case probability(Double)
    /// Every match until this many milliseconds after the rule was created.
    case window(milliseconds: Int64)

    /// The longest `for` window: one day, in milliseconds.
    public static let windowLimitMilliseconds: Int64 = 86_400_000

    /// The fields a `select` object may have.
    public static let fieldNames = ["first", "nth", "every", "probability", "seed", "for"]

    /// Reads a `select` object, and its `seed` (only allowed with `probability`).
    /// - Parameter location: its key path, for messages (`select`).
    /// - Throws: `FaultRuleError` naming the field.
    public static func parse(_ json: JSONValue, at location: String) throws(FaultRuleError)
        -> (selection: FaultSelection, seed: UInt64?)
    {
        let fields = try FaultFieldReader(
            json, at: location, known: fieldNames,
            shape: #"an object such as {"first": 3}, {"probability": 0.5} or {"for": "30s"}, or {} for every match"#)
        var seed: UInt64?
        if let value = fields["seed"] {
            guard fields["probability"] != nil else {
                throw FaultRuleError("'\(fields.path("seed"))' only goes with '\(fields.path("probability"))'")
            }
            guard let parsed = FaultFieldReader.unsignedInteger(value) else {
                throw FaultRuleError("'\(fields.path("seed"))' must be an integer from 0 to \(UInt64.max)")
            }
            seed = parsed
        }
        let kinds = fields.keys.filter { $0 != "seed" }
        guard kinds.count <= 1 else {
            throw FaultRuleError(
                "'\(location)' holds both '\(kinds[0])' and '\(kinds[1])'; use one of first, nth, every, probability, for"
            )
        }
        let selection: FaultSelection
        switch kinds.first {
        case nil:
            selection = .always
        case "first":
            selection = .first(Int(try fields.integer("first", in: 1...Int64(Int.max))!))
        case "nth":
            selection = .nth(Int(try fields.integer("nth", in: 1...Int64(Int.max))!))
        case "every":
            selection = .everyKth(Int(try fields.integer("every", in: 1...Int64(Int.max))!))
        case "probability":
            guard case .number(let probability, _) = fields["probability"]!, (0...1).contains(probability) else {
                throw FaultRuleError("'\(fields.path("probability"))' must be a number from 0 to 1")
            }
            selection = .probability(probability)
        default:
            let window = try fields.duration("for", in: 1...windowLimitMilliseconds, rangeText: "from 1ms to 24h")
            selection = .window(milliseconds: window!)
        }
        return (selection, seed)
    }

    /// As a fault rule writes it; `seed` is added for `probability`.
    public func json(seed: UInt64) -> JSONValue {
        switch self {
        case .always: .object([])
        case .first(let n): .object([("first", .integer(Int64(n)))])
        case .nth(let n): .object([("nth", .integer(Int64(n)))])
        case .everyKth(let k): .object([("every", .integer(Int64(k)))])
        case .probability(let p):
            .object([("probability", .number(p, text: "\(p)")), ("seed", .number(Double(seed), text: String(seed)))])
        case .window(let milliseconds): .object([("for", .string(FaultDelay.format(milliseconds)))])
        }
    }
}
