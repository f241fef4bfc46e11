import APNSMockCore

/// A device registration as written in `PUT /v1/devices/{token}` bodies and in
/// `setup.devices` of the configuration file, read into a `DeviceRegistration`.
///
/// ```json
/// {"topic": "com.example.app", "environment": "sandbox", "state": "unregistered",
///  "unregisteredAt": 1795331883008, "locale": "fr"}
/// ```
///
/// Every field is optional in a body (the token is in the path); `setup.devices` entries add
/// `token`. No `topic` accepts any topic, no `environment` either environment. `state` is
/// `active` (default), `unregistered` or `expired`; the time of the last two
/// (`unregisteredAt`, `expiredAt`, epoch milliseconds) defaults to now, and giving the time
/// alone implies the state.
public enum DeviceSpec {
    /// The fields of a `PUT /v1/devices/{token}` body.
    public static let bodyFields = ["token", "topic", "environment", "state", "unregisteredAt", "expiredAt", "locale"]
    /// The fields of a `setup.devices` entry.
    public static let setupFields = bodyFields

    /// Reads the body of `PUT /v1/devices/{token}` (`token` is already normalized; a `token`
    /// field, if any, must match it). An empty body registers an active device for any topic.
    /// - Throws: `SpecError` naming the field (the path is empty when the body itself is wrong).
    public static func decode(json body: some Collection<UInt8>, token: String, now: Int64) throws(SpecError)
        -> DeviceRegistration
    {
        let object = try SpecObject(body.isEmpty ? .object([]) : SpecValue.parse(json: body), path: "")
        try object.rejectUnknownFields(known: bodyFields)
        return try decode(object, token: token, now: now)
    }

    /// Reads one entry of `setup.devices`.
    /// - Throws: `SpecError` naming the field by its full key path.
    public static func decode(setup object: SpecObject, now: Int64) throws(SpecError) -> DeviceRegistration {
        try object.rejectUnknownFields(known: setupFields)
        return try decode(object, token: nil, now: now)
    }

    /// Reads the optional body of `POST /v1/devices/{token}/unregister` (`{"unregisteredAt": ms}`)
    /// or `…/expire` (`{"expiredAt": ms}`): the time given, else `now`.
    public static func decodeTime(json body: some Collection<UInt8>, field: String, now: Int64) throws(SpecError)
        -> Int64
    {
        guard !body.isEmpty else { return now }
        let object = try SpecObject(SpecValue.parse(json: body), path: "")
        try object.rejectUnknownFields(known: [field])
        return try object.integer(field, in: 0...Int64.max) ?? now
    }

    private static func decode(_ object: SpecObject, token pathToken: String?, now: Int64) throws(SpecError)
        -> DeviceRegistration
    {
        let token: String
        if let pathToken {
            if let bodyToken = try object.string("token"), bodyToken.lowercased() != pathToken {
                throw object.error("token", "'\(bodyToken)' does not match the token in the path")
            }
            token = pathToken
        } else {
            let written = try object.requiredString("token")
            guard let normalized = DeviceToken.normalized(written) else {
                throw object.error("token", DeviceToken.problem(written))
            }
            token = normalized
        }
        let topic = try object.string("topic")
        if topic == "" { throw object.error("topic", "must not be empty (leave it out to accept any topic)") }
        let environment: APNSEnvironment?
        if try object.string("environment") == "both" {
            throw object.error(
                "environment", "must be sandbox or production; got 'both' (leave it out to accept either)")
        }
        environment = try object.choice("environment", ["sandbox": APNSEnvironment.sandbox, "production": .production])
        let unregisteredAt = try object.integer("unregisteredAt", in: 0...Int64.max)
        let expiredAt = try object.integer("expiredAt", in: 0...Int64.max)
        enum StateName { case active, unregistered, expired }
        var stateName = try object.choice(
            "state", ["active": StateName.active, "unregistered": .unregistered, "expired": .expired])
        if unregisteredAt != nil && expiredAt != nil {
            throw object.error("expiredAt", "cannot be given with unregisteredAt; a device is one or the other")
        }
        if stateName == nil {
            stateName = unregisteredAt != nil ? .unregistered : expiredAt != nil ? .expired : .active
        }
        let state: DeviceRegistration.State
        switch stateName ?? .active {
        case .active:
            if unregisteredAt != nil { throw object.error("unregisteredAt", "is only for state unregistered") }
            if expiredAt != nil { throw object.error("expiredAt", "is only for state expired") }
            state = .active
        case .unregistered:
            if expiredAt != nil { throw object.error("expiredAt", "is only for state expired") }
            state = .unregistered(at: unregisteredAt ?? now)
        case .expired:
            if unregisteredAt != nil { throw object.error("unregisteredAt", "is only for state unregistered") }
            state = .expired(at: expiredAt ?? now)
        }
        let locale = try object.string("locale")
        if let locale, !PayloadAnalysisOptions.isValidLocale(locale) {
            throw object.error("locale", "must be a locale such as en, fr or pt-BR; got '\(locale)'")
        }
        return DeviceRegistration(token: token, topic: topic, environment: environment, state: state, locale: locale)
    }

    /// Writes `{"token","topic","environment","state"}`, `unregisteredAt` or `expiredAt`, and
    /// `locale`.
    package static func write(_ device: DeviceRegistration, to json: inout JSONWriter) {
        json.beginObject()
        json.key("token")
        json.string(device.token)
        json.key("topic")
        json.string(device.topic)
        json.key("environment")
        json.string(device.environment?.rawValue)
        json.key("state")
        switch device.state {
        case .active:
            json.string("active")
        case .unregistered(let at):
            json.string("unregistered")
            json.key("unregisteredAt")
            json.number(at)
        case .expired(let at):
            json.string("expired")
            json.key("expiredAt")
            json.number(at)
        }
        json.key("locale")
        json.string(device.locale)
        json.endObject()
    }
}
