import APNSMockCore

/// The `setup:` section of the configuration file (and of expectation files): keys and devices
/// registered before the first push.
///
/// ```yaml
/// setup:
///   keys:
///     - {keyId: ABC123DEFG, teamId: DEF123GHIJ, publicKeyFile: certs/AuthKey_ABC123DEFG.pub.pem}
///   devices:
///     - {token: abab…, topic: com.example.app, environment: sandbox}
///     - {token: cdcd…, state: unregistered, unregisteredAt: 1795331883008}
/// ```
///
/// Each key is a `ProviderKeySpec` (plus `keyId`), each device a `DeviceSpec` (plus `token`).
public struct SetupSection: Sendable {
    public var keys: [ProviderKey]
    public var devices: [DeviceRegistration]
    /// Fault rules, as `POST /v1/faults` bodies (checked when read; ids `f…` are given when
    /// they are installed).
    public var faults: [JSONValue]

    /// The fields of the section.
    public static let fields = ["keys", "devices", "faults"]

    public init(keys: [ProviderKey] = [], devices: [DeviceRegistration] = [], faults: [JSONValue] = []) {
        self.keys = keys
        self.devices = devices
        self.faults = faults
    }

    /// Reads the section at `object` (e.g. the value of `setup`). Key files are read relative
    /// to `baseDirectory`; a device state without a time gets `now` (epoch ms).
    /// - Throws: `SpecError` naming the field by its full key path (`setup.keys[0].teamId`).
    public static func decode(_ object: SpecObject, baseDirectory: String, now: Int64) throws(SpecError)
        -> SetupSection
    {
        try object.rejectUnknownFields(known: fields)
        var section = SetupSection()
        var keyIndex: [String: Int] = [:]
        for (index, element) in (try object.array("keys") ?? []).enumerated() {
            let path = SpecError.join(object.path(of: "keys"), index: index)
            let key = try ProviderKeySpec.decode(setup: SpecObject(element, path: path), baseDirectory: baseDirectory)
            if let first = keyIndex[key.keyID] {
                throw SpecError(
                    path: SpecError.join(path, key: "keyId"),
                    problem: "'\(key.keyID)' is already given by \(object.path(of: "keys"))[\(first)]")
            }
            keyIndex[key.keyID] = index
            section.keys.append(key)
        }
        var deviceIndex: [String: Int] = [:]
        for (index, element) in (try object.array("devices") ?? []).enumerated() {
            let path = SpecError.join(object.path(of: "devices"), index: index)
            let device = try DeviceSpec.decode(setup: SpecObject(element, path: path), now: now)
            if let first = deviceIndex[device.token] {
                throw SpecError(
                    path: SpecError.join(path, key: "token"),
                    problem: "is already given by \(object.path(of: "devices"))[\(first)]")
            }
            deviceIndex[device.token] = index
            section.devices.append(device)
        }
        for (index, element) in (try object.array("faults") ?? []).enumerated() {
            let path = SpecError.join(object.path(of: "faults"), index: index)
            let json = element.json
            do throws(FaultRuleError) {
                _ = try FaultRule.parse(json, id: "check", createdAt: now, defaultSeed: 0)
            } catch {
                throw SpecError(path: path, problem: error.message)
            }
            section.faults.append(json)
        }
        return section
    }
}
