/// A fault-injection rule: which requests (`matcher`, `connectionID`), which of those
/// (`selection`), and what to do to them (`action`).
///
/// JSON (the body of `POST /v1/faults`, and an entry of an expectation file's faults):
/// ```json
/// {"id": "gone", "match": {"token": "…", "connectionId": 3}, "select": {"first": 2},
///  "action": {"respond": {"status": 410, "reason": "Unregistered"}}}
/// ```
/// `match` and `select` may be omitted (every request; every match). A rule is a plain value;
/// its running counts live in a `FaultSelector` (`makeSelector()`).
public struct FaultRule: Sendable, Hashable {
    /// The rule's name: 1 to 64 characters from `A-Z a-z 0-9 . _ -`.
    public var id: String
    /// Which pushes the rule is about.
    public var matcher: DeliveryMatcher
    /// The only connection the rule applies to (the transport's connection id); `nil`: any.
    public var connectionID: UInt64?
    /// Which of the matching requests the rule acts on.
    public var selection: FaultSelection
    /// The seed of the rule's generator (`probability` draws, delay ranges): `select.seed` when
    /// given, else derived from the server's default seed and the rule's id, so that rules
    /// without a seed draw different, yet reproducible, sequences.
    public var seed: UInt64
    /// What the rule does to a selected request.
    public var action: FaultAction
    /// When the rule was created (epoch milliseconds); a `for` window starts then.
    public var createdAt: Int64

    /// The fields a rule object may have. `createdAt`, `hits` and `matches` are the read-only
    /// fields of a listing: accepted (so a listed rule can be posted back) and ignored.
    public static let fieldNames = ["id", "match", "select", "action", "createdAt", "hits", "matches"]

    /// The longest rule id.
    public static let idLengthLimit = 64

    public init(
        id: String, matcher: DeliveryMatcher = DeliveryMatcher(), connectionID: UInt64? = nil,
        selection: FaultSelection = .always, seed: UInt64 = 0, action: FaultAction, createdAt: Int64
    ) {
        self.id = id
        self.matcher = matcher
        self.connectionID = connectionID
        self.selection = selection
        self.seed = seed
        self.action = action
        self.createdAt = createdAt
    }

    /// Whether `id` is a valid rule id: 1 to 64 characters from `A-Z a-z 0-9 . _ -`.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= idLengthLimit
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
    }

    /// Reads a rule object.
    /// - Parameters:
    ///   - id: the rule's id unless the object has one.
    ///   - createdAt: the time of creation (epoch milliseconds), passed in: the rules read no clock.
    ///   - defaultSeed: the server's seed (`serve --seed`), from which a rule without
    ///     `select.seed` derives its own.
    /// - Throws: `FaultRuleError` whose message names the offending field by key path
    ///   (`'action.respond.status' must be an integer from 200 to 599`); unknown fields too.
    public static func parse(_ json: JSONValue, id: String, createdAt: Int64, defaultSeed: UInt64)
        throws(FaultRuleError) -> FaultRule
    {
        let fields = try FaultFieldReader(
            json, at: "", known: fieldNames,
            shape: #"an object such as {"match": {…}, "select": {…}, "action": {…}}"#)
        for field in ["createdAt", "hits", "matches"] {
            _ = try fields.integer(field, in: 0...Int64.max)
        }
        var ruleID = id
        if let value = fields["id"] {
            guard case .string(let text) = value, isValidID(text) else {
                throw FaultRuleError(
                    "'id' must be a string of 1 to \(idLengthLimit) characters from A-Z, a-z, 0-9, '.', '_' and '-'")
            }
            ruleID = text
        }
        let (matcher, connectionID) = try readMatch(fields["match"] ?? .object([]))
        let (selection, seed) = try FaultSelection.parse(fields["select"] ?? .object([]), at: "select")
        let action = try FaultAction(json: try fields.required("action"), at: "action")
        return FaultRule(
            id: ruleID, matcher: matcher, connectionID: connectionID, selection: selection,
            seed: seed ?? derivedSeed(defaultSeed: defaultSeed, id: ruleID), action: action, createdAt: createdAt)
    }

    /// The matcher of a `match` object, and its `connectionId` (a fault rule's own field).
    private static func readMatch(_ json: JSONValue) throws(FaultRuleError) -> (DeliveryMatcher, UInt64?) {
        // connectionId is a matcher field already (records have it); a rule reads it itself.
        let known = DeliveryMatcher.fieldNames
        guard case .object(let members) = json else {
            throw FaultRuleError(#"'match' must be an object of matcher fields such as {"token": "…"}"#)
        }
        var connectionID: UInt64?
        var seenConnectionID = false
        for member in members {
            guard known.contains(member.key) else {
                throw FaultRuleError(
                    "unknown matcher field 'match.\(member.key)'\(NameSuggestion.didYouMean(member.key, among: known)); known: \(known.joined(separator: ", "))"
                )
            }
            if member.key == "delivery" || member.key == "deliveryReason" {
                throw FaultRuleError(
                    "'match.\(member.key)' cannot pick the requests a rule acts on: what reaches the device is decided after the answer, which the rule changes; match the push by token, topic, collapseId or headers instead"
                )
            }
            guard member.key == "connectionId" else { continue }
            guard !seenConnectionID else { throw FaultRuleError("'match.connectionId' is given more than once") }
            seenConnectionID = true
            guard let value = FaultFieldReader.unsignedInteger(member.value) else {
                throw FaultRuleError("'match.connectionId' must be an integer from 0 to \(UInt64.max)")
            }
            connectionID = value
        }
        do {
            return (
                try DeliveryMatcher(json: .object(members.filter { $0.key != "connectionId" }), at: "match"),
                connectionID
            )
        } catch {
            throw FaultRuleError(error.message)
        }
    }

    /// The seed of a rule without `select.seed`: `defaultSeed` mixed with the FNV-1a hash of
    /// `id`, so the same server seed and id always give the same sequence.
    public static func derivedSeed(defaultSeed: UInt64, id: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        var generator = SplitMix64(seed: defaultSeed ^ hash)
        return generator.next()
    }

    /// Whether the rule is about a request: on connection `connectionID` when the rule names
    /// one, with every matcher condition holding for `facts`.
    public func matches(_ facts: some DeliveryFacts, connectionID: UInt64) -> Bool {
        if let ruleConnection = self.connectionID, ruleConnection != connectionID { return false }
        return matcher.matches(facts)
    }

    /// A selector for this rule, with no match counted yet.
    public func makeSelector() -> FaultSelector {
        FaultSelector(selection: selection, createdAt: createdAt, seed: seed)
    }

    /// The rule's `match` object: the matcher's fields, then `connectionId`.
    public var matchJSON: JSONValue {
        guard let connectionID, case .object(var members) = matcher.json else { return matcher.json }
        members.append(("connectionId", .number(Double(connectionID), text: String(connectionID))))
        return .object(members)
    }

    /// Writes the rule in the shape `parse` reads (every part written out, durations with a
    /// unit, the seed of a `probability`), plus its `createdAt` and the counts `hits` and
    /// `matches` of its selector.
    public func write(to json: inout JSONWriter, hits: Int, matches: Int) {
        json.beginObject()
        json.key("id")
        json.string(id)
        json.key("match")
        matchJSON.write(to: &json)
        json.key("select")
        selection.json(seed: seed).write(to: &json)
        json.key("action")
        action.json.write(to: &json)
        json.key("createdAt")
        json.number(createdAt)
        json.key("hits")
        json.number(hits)
        json.key("matches")
        json.number(matches)
        json.endObject()
    }
}
