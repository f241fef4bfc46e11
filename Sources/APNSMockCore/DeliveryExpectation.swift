/// One thing that must (or must not) have been delivered: an entry of an expectation file's
/// `expect:` list, checked by `apns-mock verify` and `POST /v1/verify`.
public struct DeliveryExpectation: Sendable, Hashable {
    /// How many matching records an expectation wants.
    public enum Count: Sendable, Hashable, CustomStringConvertible {
        case exactly(Int)
        case atLeast(Int)
        case atMost(Int)
        /// No matching record at all.
        case none

        /// Whether `matched` records satisfy the count.
        public func holds(_ matched: Int) -> Bool {
            switch self {
            case .exactly(let n): matched == n
            case .atLeast(let n): matched >= n
            case .atMost(let n): matched <= n
            case .none: matched == 0
            }
        }

        /// Whether the count has an upper bound (`exactly`, `atMost`, `none`): such an expectation
        /// watches its whole `within` window, since a later record can still break it (a
        /// duplicate of an `exactly 1` push arriving after the first).
        public var isUpperBound: Bool { maximum != nil }

        /// The most matches that satisfy the count; `nil`: no upper bound (`atLeast`).
        public var maximum: Int? {
            switch self {
            case .exactly(let n), .atMost(let n): n
            case .none: 0
            case .atLeast: nil
            }
        }

        /// The fewest matches that satisfy the count.
        public var minimum: Int {
            switch self {
            case .exactly(let n), .atLeast(let n): n
            case .atMost, .none: 0
            }
        }

        /// `exactly 1`, `at least 2`, `at most 0`, `none`.
        public var description: String {
            switch self {
            case .exactly(let n): "exactly \(n)"
            case .atLeast(let n): "at least \(n)"
            case .atMost(let n): "at most \(n)"
            case .none: "none"
            }
        }

        /// As an expectation file writes it.
        public var json: JSONValue {
            switch self {
            case .exactly(let n): .object([("exactly", .integer(Int64(n)))])
            case .atLeast(let n): .object([("atLeast", .integer(Int64(n)))])
            case .atMost(let n): .object([("atMost", .integer(Int64(n)))])
            case .none: .object([("none", .bool(true))])
            }
        }
    }

    public var name: String
    /// Which records count (unused when `steps` is set).
    public var match: DeliveryMatcher
    public var count: Count
    /// How long to wait for the expectation to hold (seconds); `nil`: judged at once.
    public var within: Double?
    /// `deliveredWithin`: a matching record counts only once it was delivered to the device at
    /// most this long (milliseconds, the mock clock) after it was received (issue 32: "the
    /// alert reaches the phone within 15 minutes", whatever it was stored for meanwhile).
    public var deliveredWithin: Int64?
    /// `inOrder: true`: these expectations must be met one after the other. Each step counts
    /// only the records after the record that satisfied the step before it (its `minimum`-th
    /// match); a step with no minimum (`none`, `atMost`) moves nothing.
    public var steps: [DeliveryExpectation]?

    public init(
        name: String, match: DeliveryMatcher = DeliveryMatcher(), count: Count = .atLeast(1), within: Double? = nil,
        steps: [DeliveryExpectation]? = nil, deliveredWithin: Int64? = nil
    ) {
        self.name = name
        self.match = match
        self.count = count
        self.within = within
        self.steps = steps
        self.deliveredWithin = deliveredWithin
    }

    /// What the expectation's records must match: `match`, and `delivery: delivered` when it
    /// has a `deliveredWithin` (a follower of it is then woken when a held push is delivered).
    public var followedMatcher: DeliveryMatcher {
        guard deliveredWithin != nil else { return match }
        var matcher = match
        matcher.append(.delivery(.delivered))
        return matcher
    }

    /// Whether `record` counts: it matched `followedMatcher`, and, with `deliveredWithin`, was
    /// delivered at most that long after it was received.
    public func counts(_ record: some DeliveryFacts, receivedAt: Int64) -> Bool {
        guard let deliveredWithin else { return true }
        guard let delivery = record.matchDelivery, delivery.state == .delivered else { return false }
        return delivery.at - receivedAt <= deliveredWithin
    }

    /// The fields an expectation object may have.
    public static let fieldNames = ["name", "match", "count", "within", "deliveredWithin", "inOrder", "steps"]

    /// Reads an expectation object.
    /// - Parameter location: its key path, for messages (`expect[2]`).
    /// - Throws: `MatcherError` whose message starts with the offending key path.
    public init(json: JSONValue, at location: String, defaultName: String? = nil) throws(MatcherError) {
        guard case .object(let members) = json else {
            throw MatcherError(
                .invalidValue, field: "\(location)", naming: .path, "must be an object with name, match and count")
        }
        for member in members where !Self.fieldNames.contains(member.key) {
            throw MatcherError(
                .unknownField, field: "\(location).\(member.key)", naming: .path,
                "is not an expectation field\(NameSuggestion.didYouMean(member.key, among: Self.fieldNames)); known: \(Self.fieldNames.joined(separator: ", "))"
            )
        }
        if let name = json["name"] {
            guard case .string(let text) = name, !text.isEmpty else {
                throw MatcherError(
                    .invalidValue, field: "\(location).name", naming: .path, "must be a non-empty string")
            }
            self.name = text
        } else if let defaultName {
            self.name = defaultName
        } else {
            throw MatcherError(
                .missingField, field: "\(location).name", naming: .path, "is missing: every expectation needs a name")
        }
        if let within = json["within"] {
            let seconds: Double?
            if case .number(let value, _) = within {
                // A JSON number is seconds, whichever way it is written (`1e-3`).
                seconds = value >= 0 && value.isFinite ? value : nil
            } else if case .string(let text) = within {
                seconds = DurationText.seconds(text)
            } else {
                seconds = nil
            }
            guard let seconds else {
                throw MatcherError(
                    .invalidValue, field: "\(location).within", naming: .path,
                    "must be a duration such as 500ms, 5s or 2m")
            }
            self.within = seconds
        }
        if let limit = json["deliveredWithin"] {
            guard case .string(let text) = limit, let seconds = DurationText.seconds(text), seconds <= 366 * 86_400
            else {
                throw MatcherError(
                    .invalidValue, field: "\(location).deliveredWithin", naming: .path,
                    "must be a duration such as 30s or 15m: how long after it was sent a push must reach the device")
            }
            deliveredWithin = Int64((seconds * 1000).rounded())
        }
        count =
            try json["count"].map { value throws(MatcherError) in try Self.count(value, at: "\(location).count") }
            ?? .atLeast(1)
        match = DeliveryMatcher()
        let inOrder = json["inOrder"]
        if let inOrder, inOrder != .bool(true), inOrder != .bool(false) {
            throw MatcherError(.invalidValue, field: "\(location).inOrder", naming: .path, "must be true or false")
        }
        if inOrder == .bool(true) {
            guard case .array(let elements) = json["steps"] ?? .null, !elements.isEmpty else {
                throw MatcherError(
                    .invalidValue, field: "\(location).steps", naming: .path,
                    "must be a list of expectations when inOrder is true")
            }
            guard json["match"] == nil, json["count"] == nil else {
                throw MatcherError(
                    .invalidValue, field: "\(location)", naming: .path,
                    "has inOrder: true, so its match and count go in each of its steps, not beside them")
            }
            var steps: [DeliveryExpectation] = []
            guard deliveredWithin == nil else {
                throw MatcherError(
                    .invalidValue, field: "\(location).deliveredWithin", naming: .path,
                    "goes in each step of an inOrder group, not beside its steps")
            }
            for (index, element) in elements.enumerated() {
                var step = try DeliveryExpectation(
                    json: element, at: "\(location).steps[\(index)]", defaultName: "step \(index + 1)")
                guard step.steps == nil else {
                    throw MatcherError(
                        .invalidValue, field: "\(location).steps[\(index)]", naming: .path, "cannot itself be inOrder")
                }
                if step.within == nil { step.within = within }
                steps.append(step)
            }
            self.steps = steps
        } else {
            guard json["steps"] == nil else {
                throw MatcherError(
                    .invalidValue, field: "\(location).steps", naming: .path, "needs inOrder: true beside it")
            }
            guard let match = json["match"] else {
                throw MatcherError(
                    .missingField, field: "\(location).match", naming: .path,
                    "is missing: say which pushes count (token, topic, payload, …)")
            }
            self.match = try DeliveryMatcher(json: match, at: "\(location).match")
        }
    }

    private static func count(_ value: JSONValue, at location: String) throws(MatcherError) -> Count {
        guard case .object(let members) = value, members.count == 1, let member = members.first else {
            throw MatcherError(
                .invalidValue, field: "\(location)", naming: .path,
                "must be one of {exactly: N}, {atLeast: N}, {atMost: N} or {none: true}")
        }
        if member.key == "none" {
            guard member.value == .bool(true) || member.value.scalarText == "true" else {
                throw MatcherError(.invalidValue, field: "\(location).none", naming: .path, "must be true")
            }
            return .none
        }
        var parsed = member.value.scalarText.flatMap { Int($0) }
        if parsed == nil, case .number(let value, _) = member.value {
            // Written with a fraction or exponent: read by value (2.0 is 2, as JSON Schema's `integer` says).
            parsed = Int(exactly: value)
        }
        guard let n = parsed, n >= 0 else {
            throw MatcherError(
                .invalidValue, field: "\(location).\(member.key)", naming: .path, "must be a whole number, 0 or more")
        }
        switch member.key {
        case "exactly": return .exactly(n)
        case "atLeast": return .atLeast(n)
        case "atMost": return .atMost(n)
        default:
            throw MatcherError(
                .unknownField, field: "\(location).\(member.key)", naming: .path,
                "is not a count\(NameSuggestion.didYouMean(member.key, among: ["exactly", "atLeast", "atMost", "none"])); use exactly, atLeast, atMost or none"
            )
        }
    }

    /// As an expectation file writes it (JSON).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("name", .string(name))]
        if let steps {
            members.append(("inOrder", .bool(true)))
            members.append(("steps", .array(steps.map(\.json))))
        } else {
            members.append(("match", match.json))
            members.append(("count", count.json))
        }
        if let within { members.append(("within", .string(DurationText.format(seconds: within)))) }
        if let deliveredWithin {
            members.append(("deliveredWithin", .string(DurationText.format(seconds: Double(deliveredWithin) / 1000))))
        }
        return .object(members)
    }

    /// Reads the `expect` list of an expectation document (`{"expect": [...]}` or a bare list).
    /// - Throws: `MatcherError` naming the key path.
    public static func list(_ json: JSONValue, at location: String = "expect") throws(MatcherError)
        -> [DeliveryExpectation]
    {
        guard case .array(let elements) = json else {
            throw MatcherError(.invalidValue, field: "\(location)", naming: .path, "must be a list of expectations")
        }
        var result: [DeliveryExpectation] = []
        for (index, element) in elements.enumerated() {
            result.append(try DeliveryExpectation(json: element, at: "\(location)[\(index)]"))
        }
        return result
    }
}
