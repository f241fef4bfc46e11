import APNSMockCore

/// The `setup:` section of the configuration file (and of expectation files): keys, devices,
/// fault rules and broadcast channels set up before the first push, and again by `POST /v1/reset`.
///
/// ```yaml
/// setup:
///   keys:
///     - {keyId: ABC123DEFG, teamId: DEF123GHIJ, publicKeyFile: certs/AuthKey_ABC123DEFG.pub.pem}
///   devices:
///     - {token: abab…, topic: com.example.app, environment: sandbox}
///     - {token: cdcd…, state: unregistered, unregisteredAt: 1795331883008}
///   channels:
///     - {channelId: dGVzdC1jaGFubmVsLTE=, bundleId: com.example.app, environment: sandbox,
///        messageStoragePolicy: 1, subscribers: [abab…]}
///   broadcastDisabled: [com.example.legacy]
/// ```
///
/// Each key is a `ProviderKeySpec` (plus `keyId`), each device a `DeviceSpec` (plus `token`),
/// each channel a `ChannelSpec` (plus `subscribers`). `broadcastDisabled` lists the apps whose
/// broadcast capability is off (channel requests and broadcasts get `FeatureNotEnabled`); such
/// an app can have no channel in `channels`.
public struct SetupSection: Sendable {
    public var keys: [ProviderKey]
    public var devices: [DeviceRegistration]
    /// Fault rules, as `POST /v1/faults` bodies (checked when read; ids `f…` are given when
    /// they are installed).
    public var faults: [JSONValue]
    /// Broadcast channels, created in order (fixed ids are unique).
    public var channels: [ChannelSpec]
    /// Bundle IDs whose broadcast capability is off.
    public var broadcastDisabled: [String]

    /// The fields of the section.
    public static let fields = ["keys", "devices", "faults", "channels", "broadcastDisabled"]

    public init(
        keys: [ProviderKey] = [], devices: [DeviceRegistration] = [], faults: [JSONValue] = [],
        channels: [ChannelSpec] = [], broadcastDisabled: [String] = []
    ) {
        self.keys = keys
        self.devices = devices
        self.faults = faults
        self.channels = channels
        self.broadcastDisabled = broadcastDisabled
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
        section.devices += try DeviceSpec.decodeList(
            object.array("devices") ?? [], path: object.path(of: "devices"), now: now)
        for (index, element) in (try object.array("faults") ?? []).enumerated() {
            let path = SpecError.join(object.path(of: "faults"), index: index)
            let json = element.json(textKeys: SpecValue.tokenKeys)
            do throws(FaultRuleError) {
                _ = try FaultRule.parse(json, id: "check", createdAt: now, defaultSeed: 0)
            } catch {
                throw SpecError(path: path, problem: error.message)
            }
            section.faults.append(json)
        }
        try decodeChannels(object, into: &section)
        return section
    }

    /// `channels` and `broadcastDisabled`.
    private static func decodeChannels(_ object: SpecObject, into section: inout SetupSection) throws(SpecError) {
        var disabledIndex: [String: Int] = [:]
        for (index, bundleID) in (try object.strings("broadcastDisabled") ?? []).enumerated() {
            let path = SpecError.join(object.path(of: "broadcastDisabled"), index: index)
            if let problem = ChannelSpec.bundleIDProblem(bundleID) { throw SpecError(path: path, problem: problem) }
            if disabledIndex[bundleID] == nil {
                disabledIndex[bundleID] = index
                section.broadcastDisabled.append(bundleID)
            }
        }
        var idIndex: [String: Int] = [:]
        for (index, element) in (try object.array("channels") ?? []).enumerated() {
            let path = SpecError.join(object.path(of: "channels"), index: index)
            let channel = try ChannelSpec.decode(setup: SpecObject(element, path: path))
            if let id = channel.id {
                if let first = idIndex[id] {
                    throw SpecError(
                        path: SpecError.join(path, key: "channelId"),
                        problem: "'\(id)' is already given by \(object.path(of: "channels"))[\(first)]")
                }
                idIndex[id] = index
            }
            if let disabled = disabledIndex[channel.scope.bundleID] {
                throw SpecError(
                    path: SpecError.join(path, key: "bundleId"),
                    problem:
                        "'\(channel.scope.bundleID)' has its broadcast capability turned off by \(object.path(of: "broadcastDisabled"))[\(disabled)], so it can have no channel"
                )
            }
            section.channels.append(channel)
        }
    }
}
