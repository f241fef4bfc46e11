/// What a fault rule does to a request it selects: an optional delay, then an effect; a delay
/// alone is followed by the normal answer.
///
/// JSON: an object holding `delay` and at most one other action, or one action alone:
/// `{"delay": {"duration": "2s"}, "respond": {"status": 503, "reason": "ServiceUnavailable"}}`.
public struct FaultAction: Sendable, Hashable {
    /// How long to hold the stream first; `nil`: no delay.
    public var delay: FaultDelay?
    /// What to do then; `nil`: answer normally (after `delay`).
    public var effect: FaultEffect?

    /// - Precondition: `delay` or `effect` is set.
    public init(delay: FaultDelay? = nil, effect: FaultEffect?) {
        precondition(delay != nil || effect != nil, "a fault action needs a delay or an effect")
        self.delay = delay
        self.effect = effect
    }

    /// An action that only does `effect`.
    public init(_ effect: FaultEffect) { self.init(delay: nil, effect: effect) }

    /// Reads an `action` object.
    /// - Parameter location: its key path, for messages (`action`).
    /// - Throws: `FaultRuleError` naming the field.
    public init(json: JSONValue, at location: String) throws(FaultRuleError) {
        let names = ["delay"] + FaultEffect.names
        let fields = try FaultFieldReader(
            json, at: location, known: names,
            shape: #"an object such as {"respond": {"status": 410, "reason": "Unregistered"}}"#)
        let effects = fields.keys.filter { $0 != "delay" }
        guard effects.count <= 1 else {
            throw FaultRuleError(
                "'\(location)' holds both '\(effects[0])' and '\(effects[1])': "
                    + "an action is 'delay' and at most one other of \(FaultEffect.names.joined(separator: ", "))")
        }
        let delay = try fields["delay"].map { value throws(FaultRuleError) in
            try FaultDelay(json: value, at: fields.path("delay"))
        }
        let effect = try effects.first.map { name throws(FaultRuleError) in
            try FaultEffect(name: name, json: fields[name]!, at: fields.path(name))
        }
        guard delay != nil || effect != nil else {
            throw FaultRuleError("'\(location)' names no action; use one of \(names.joined(separator: ", "))")
        }
        self.init(delay: delay, effect: effect)
    }

    /// As a fault rule writes it: `delay` first, then the effect.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let delay { members.append(("delay", delay.json)) }
        if let effect { members.append((effect.name, effect.json)) }
        return .object(members)
    }
}
