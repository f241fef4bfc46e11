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
///
/// What becomes of accepted pushes (`DeliveryModel`) follows the device's conditions:
///
/// ```json
/// {"presence": "offline", "for": "10m", "notifications": "enabled", "installed": true,
///  "backgroundPushesPerHour": 3}
/// ```
///
/// `presence` is `online` (default), `offline` or `lowPower`; with `until` (epoch ms) or `for`
/// (a duration) it holds from now until then, and the device is online after. `periods` lists
/// scheduled presence instead (`[{"presence": "offline", "from": ms, "until": ms}]`, `for` in
/// place of `until`), outside which the device has `presence`; periods may not overlap.
/// `notifications` is `enabled` (default) or `disabled`. `installed: false` (with
/// `uninstalledAt`, default now) accepts pushes and discards them until `uninstallGrace`
/// (default `5m`) has passed, then answers 410 `Unregistered`.
public enum DeviceSpec {
    /// The fields of a `PUT /v1/devices/{token}` body.
    public static let bodyFields = [
        "token", "topic", "environment", "state", "unregisteredAt", "expiredAt", "locale", "presence", "until", "for",
        "periods", "notifications", "installed", "uninstalledAt", "uninstallGrace", "backgroundPushesPerHour",
    ]
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

    /// Reads a list of devices (`setup.devices`, or the body of `POST /v1/devices`), each entry
    /// as a `setup.devices` entry (its `token` required) at `path[index]`; a token given twice is
    /// refused, naming both entries.
    /// - Throws: `SpecError` naming the entry and field (`devices[3].presence`).
    public static func decodeList(_ elements: [SpecValue], path: String, now: Int64) throws(SpecError)
        -> [DeviceRegistration]
    {
        var devices: [DeviceRegistration] = []
        devices.reserveCapacity(elements.count)
        var indexByToken: [String: Int] = [:]
        indexByToken.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let entry = try SpecObject(element, listPath: path, index: index)
            let device = try decode(setup: entry, now: now)
            if let first = indexByToken.updateValue(index, forKey: device.token) {
                throw entry.error("token", "is already given by \(path)[\(first)]")
            }
            devices.append(device)
        }
        return devices
    }

    /// Reads the body of `POST /v1/devices`: `{"devices": [{"token": …, "presence": "offline"}, …]}`,
    /// every entry checked as one `PUT /v1/devices/{token}` body with its `token`; one bad entry
    /// refuses the whole body.
    /// - Throws: `SpecError` naming the entry and field (`devices[3].presence`).
    public static func decodeBulk(json body: some Collection<UInt8>, now: Int64) throws(SpecError)
        -> [DeviceRegistration]
    {
        let object = try SpecObject(SpecValue.parse(json: body), path: "")
        try object.rejectUnknownFields(known: ["devices"])
        guard let list = try object.array("devices") else {
            throw object.error("devices", "is required: a list of devices, each with its token")
        }
        return try decodeList(list, path: "devices", now: now)
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
        return DeviceRegistration(
            token: token, topic: topic, environment: environment, state: state, locale: locale,
            conditions: try conditions(object, now: now))
    }

    private static let presences: KeyValuePairs<String, DevicePresence> = [
        "online": .online, "offline": .offline, "lowPower": .lowPower,
    ]

    /// Reads presence, its schedule, notifications, installation and the background budget.
    static func conditions(_ object: SpecObject, now: Int64) throws(SpecError) -> DeviceConditions {
        var presence = try object.choice("presence", presences) ?? .online
        var periods: [DeviceConditions.Period] = []
        if let end = try end(of: object, from: now, what: "presence") {
            if object.has("periods") { throw object.error("periods", "cannot be given with until or for") }
            guard presence != .online else {
                throw object.error(
                    object.has("until") ? "until" : "for",
                    "needs presence offline or lowPower (the device is online after it)")
            }
            periods = [DeviceConditions.Period(presence: presence, from: now, until: end)]
            presence = .online
        }
        if let list = try object.array("periods") {
            for (index, value) in list.enumerated() {
                let period = try SpecObject(value, path: SpecError.join(object.path(of: "periods"), index: index))
                try period.rejectUnknownFields(known: ["presence", "from", "until", "for"])
                guard let periodPresence = try period.choice("presence", presences) else {
                    throw period.error("presence", "is required: online, offline or lowPower")
                }
                let from = try period.integer("from", in: 0...Int64.max) ?? now
                guard let until = try end(of: period, from: from, what: "the period") else {
                    throw period.error("until", "is required (or for): when the period ends, epoch ms")
                }
                periods.append(DeviceConditions.Period(presence: periodPresence, from: from, until: until))
            }
            let sorted = periods.sorted { $0.from < $1.from }
            for (earlier, later) in zip(sorted, sorted.dropFirst()) where later.from < earlier.until {
                throw object.error(
                    "periods",
                    "overlap: the period from \(later.from) starts before the one from \(earlier.from) ends at \(earlier.until)"
                )
            }
        }
        let notifications = try object.choice("notifications", ["enabled": true, "disabled": false]) ?? true
        let installed = try object.bool("installed") ?? true
        var uninstalledAt = try object.integer("uninstalledAt", in: 0...Int64.max)
        if installed {
            if uninstalledAt != nil { throw object.error("uninstalledAt", "is only for installed: false") }
        } else {
            uninstalledAt = uninstalledAt ?? now
        }
        var grace = DeviceConditions.defaultUninstallGrace
        if let text = try object.string("uninstallGrace") {
            guard let seconds = DurationText.seconds(text), seconds <= 366 * 86_400 else {
                throw object.error("uninstallGrace", "must be a duration such as 5m or 30s; got '\(text)'")
            }
            grace = Int64((seconds * 1000).rounded())
        }
        let perHour = try object.integer("backgroundPushesPerHour", in: 0...1_000_000).map { Int($0) }
        return DeviceConditions(
            presence: presence, notificationsEnabled: notifications, installed: installed,
            uninstalledAt: uninstalledAt, uninstallGrace: grace, periods: periods, backgroundPushesPerHour: perHour)
    }

    /// `until` (epoch ms, after `from`) or `for` (a duration after `from`), if either is given.
    private static func end(of object: SpecObject, from: Int64, what: String) throws(SpecError) -> Int64? {
        let until = try object.integer("until", in: 0...Int64.max)
        let length = try object.string("for")
        if until != nil && length != nil { throw object.error("for", "cannot be given with until") }
        if let until {
            guard until > from else { throw object.error("until", "must be after \(from), when \(what) starts") }
            return until
        }
        guard let length else { return nil }
        guard let seconds = DurationText.seconds(length), seconds > 0, seconds <= 366 * 86_400 else {
            throw object.error("for", "must be a duration such as 10m or 90s, at most 366 days; got '\(length)'")
        }
        return from + Int64((seconds * 1000).rounded())
    }

    /// Writes the members `presence`, `periods` (each `presence`, `from`, `until`) and
    /// `notifications` of `conditions`, into the object being written.
    package static func writePresence(_ conditions: DeviceConditions, to json: inout JSONWriter) {
        json.key("presence")
        json.string(conditions.presence.rawValue)
        json.key("periods")
        json.beginArray()
        for period in conditions.periods {
            json.beginObject()
            json.key("presence")
            json.string(period.presence.rawValue)
            json.key("from")
            json.number(period.from)
            json.key("until")
            json.number(period.until)
            json.endObject()
        }
        json.endArray()
        json.key("notifications")
        json.string(conditions.notificationsEnabled ? "enabled" : "disabled")
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
        let conditions = device.conditions
        writePresence(conditions, to: &json)
        json.key("installed")
        json.bool(conditions.installed)
        json.key("uninstalledAt")
        json.number(conditions.uninstalledAt)
        json.key("uninstallGrace")
        json.string(DurationText.format(seconds: Double(conditions.uninstallGrace) / 1000))
        json.key("backgroundPushesPerHour")
        json.number(conditions.backgroundPushesPerHour)
        json.endObject()
    }
}
