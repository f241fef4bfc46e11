import APNSMockCore
import Foundation
import Testing

@testable import APNSMockRegistry

/// `POST /v1/channels` bodies and `setup.channels` entries read into `ChannelSpec`s, the
/// setup section's `channels` and `broadcastDisabled`, and the checks made at start.
@Suite struct ChannelSpecTests {
    static let token = String(repeating: "ab", count: 32)
    static let fixedID = "dGVzdC1jaGFubmVsLTE="
    static let sandbox = ChannelScope(bundleID: "com.example.app", environment: .sandbox)

    static func body(_ json: String) throws(SpecError) -> ChannelSpec {
        try ChannelSpec.decode(json: Array(json.utf8))
    }

    static func setup(_ yaml: String) throws -> SetupSection {
        try SetupSection.decode(SpecObject(SpecValue.parse(yaml: yaml), path: "setup"), baseDirectory: "/", now: 0)
    }

    @Test func aBodyNeedsOnlyTheAppAndEnvironment() throws {
        let spec = try Self.body(#"{"bundleId":"com.example.app","environment":"sandbox"}"#)
        #expect(spec == ChannelSpec(scope: Self.sandbox))
        #expect(spec.id == nil && spec.storagePolicy == .mostRecentMessageStored && spec.pushType == "LiveActivity")
        #expect(spec.subscribers.isEmpty)
    }

    @Test func everyBodyField() throws {
        let spec = try Self.body(
            #"{"bundleId":"com.example.app","environment":"production","messageStoragePolicy":0,"pushType":"liveactivity","channelId":"\#(Self.fixedID)"}"#
        )
        #expect(spec.id == Self.fixedID)
        #expect(spec.scope == ChannelScope(bundleID: "com.example.app", environment: .production))
        #expect(spec.storagePolicy == .noMessageStored)
        #expect(spec.pushType == "liveactivity")
    }

    /// A field given as null is left out, as in every admin body.
    @Test func nullFieldsTakeTheirDefault() throws {
        let spec = try Self.body(
            #"{"bundleId":"com.example.app","environment":"sandbox","messageStoragePolicy":null,"pushType":null,"channelId":null}"#
        )
        #expect(spec == ChannelSpec(scope: Self.sandbox))
    }

    @Test(arguments: [
        ("", "bundleId is required"),
        (#"{"environment":"sandbox"}"#, "bundleId is required"),
        (#"{"bundleId":"","environment":"sandbox"}"#, "bundleId must not be empty"),
        (#"{"bundleId":"com example","environment":"sandbox"}"#, "bundleId must be a bundle ID (ASCII letters"),
        (
            #"{"bundleId":"com.example.app.push-type.liveactivity","environment":"sandbox"}"#,
            "bundleId must be the app's bundle ID, not a topic ending in '.push-type.liveactivity'"
        ),
        (#"{"bundleId":"com.example.app"}"#, "environment is required: sandbox or production"),
        (
            #"{"bundleId":"com.example.app","environment":"both"}"#,
            "environment must be sandbox or production; got 'both'"
        ),
        (
            #"{"bundleId":"com.example.app","environment":"sandbox","messageStoragePolicy":2}"#,
            "messageStoragePolicy must be 0–1; got 2"
        ),
        (
            #"{"bundleId":"com.example.app","environment":"sandbox","messageStoragePolicy":"1"}"#,
            "messageStoragePolicy must be a whole number; got a string"
        ),
        (
            #"{"bundleId":"com.example.app","environment":"sandbox","pushType":"alert"}"#,
            "pushType must be LiveActivity (in any letter case); got 'alert'"
        ),
        (
            #"{"bundleId":"com.example.app","environment":"sandbox","channelId":"not base64!"}"#,
            "channelId must be base64"
        ),
        (
            #"{"bundleId":"com.example.app","environment":"sandbox","subscribers":[]}"#,
            "subscribers is not a known field; known fields: channelId, bundleId"
        ),
        ("[]", "must be an object of named fields; got a list"),
        ("{", "is not valid JSON"),
    ])
    func badBodiesNameTheField(_ body: String, _ message: String) {
        let error = #expect(throws: SpecError.self) { _ = try Self.body(body) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test func setupEntriesAddSubscribers() throws {
        let object = try SpecObject(
            SpecValue.parse(
                yaml: """
                    channelId: \(Self.fixedID)
                    bundleId: com.example.app
                    environment: sandbox
                    messageStoragePolicy: 0
                    subscribers: [\(Self.token.uppercased()), \(Self.token), cdcdcdcdcdcdcdcd]
                    """), path: "setup.channels[0]")
        let spec = try ChannelSpec.decode(setup: object)
        #expect(spec.id == Self.fixedID)
        #expect(spec.storagePolicy == .noMessageStored)
        #expect(spec.subscribers == [Self.token, "cdcdcdcdcdcdcdcd"])
    }

    @Test(arguments: [
        (
            "{bundleId: com.example.app, environment: sandbox, subscribers: [abc]}",
            "setup.channels[2].subscribers[0] must be an even number of hex digits"
        ),
        (
            "{bundleId: com.example.app, environment: sandbox, subscribers: abab}",
            "setup.channels[2].subscribers must be a list"
        ),
        (
            "{bundleId: com.example.app, environment: sandbox, token: abab}",
            "setup.channels[2].token is not a known field"
        ),
        (
            "{bundleId: com.example.app, environment: prod}",
            "setup.channels[2].environment must be sandbox or production; got 'prod'"
        ),
        ("{environment: sandbox}", "setup.channels[2].bundleId is required"),
        (
            "{bundleId: com.example.app, environment: sandbox, channelId: abc}",
            "setup.channels[2].channelId must be base64"
        ),
    ])
    func badSetupEntriesNameTheField(_ yaml: String, _ message: String) throws {
        let object = try SpecObject(SpecValue.parse(yaml: yaml), path: "setup.channels[2]")
        let error = #expect(throws: SpecError.self) { _ = try ChannelSpec.decode(setup: object) }
        #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
    }

    @Test func theSetupSectionReadsChannelsAndDisabledApps() throws {
        let section = try Self.setup(
            """
            channels:
              - {channelId: \(Self.fixedID), bundleId: com.example.app, environment: sandbox, subscribers: [\(Self.token)]}
              - {bundleId: com.example.app, environment: production}
            broadcastDisabled: [com.example.legacy, com.example.legacy, com.example.old]
            """)
        #expect(section.channels.count == 2)
        #expect(section.channels[0].id == Self.fixedID && section.channels[0].subscribers == [Self.token])
        #expect(section.channels[1].id == nil && section.channels[1].scope.environment == .production)
        #expect(section.broadcastDisabled == ["com.example.legacy", "com.example.old"])
    }

    @Test(arguments: [
        (
            "channels:\n  - {channelId: \(fixedID), bundleId: a.b, environment: sandbox}\n  - {channelId: \(fixedID), bundleId: c.d, environment: production}",
            "setup.channels[1].channelId '\(fixedID)' is already given by setup.channels[0]"
        ),
        (
            "broadcastDisabled: [a.b]\nchannels:\n  - {bundleId: x.y, environment: sandbox}\n  - {bundleId: a.b, environment: sandbox}",
            "setup.channels[1].bundleId 'a.b' has its broadcast capability turned off by setup.broadcastDisabled[0], so it can have no channel"
        ),
        ("broadcastDisabled: [ok.app, 'bad app']", "setup.broadcastDisabled[1] must be a bundle ID"),
        ("broadcastDisabled: com.example.app", "setup.broadcastDisabled must be a list; got 'com.example.app'"),
        ("channels: {bundleId: a.b}", "setup.channels must be a list; got an object"),
        (
            "chanels: []",
            "setup.chanels is not a known field (did you mean 'channels'?); known fields: keys, devices, faults, channels, broadcastDisabled"
        ),
    ])
    func badSetupSectionsNameTheField(_ yaml: String, _ message: String) {
        let error = #expect(throws: SpecError.self) { _ = try Self.setup(yaml) }
        #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
    }

    /// What the configuration file and expectation files set up together is checked at start.
    @Test func theCombinedSetupIsCheckedAgainstTheLimit() throws {
        let two = [ChannelSpec(scope: Self.sandbox), ChannelSpec(scope: Self.sandbox)]
        try ChannelSpec.checkSetup(two, broadcastDisabled: [], limit: 2)
        let overLimit = #expect(throws: SpecError.self) {
            try ChannelSpec.checkSetup(two, broadcastDisabled: [], limit: 1)
        }
        #expect(
            overLimit?.description
                == "setup.channels has 2 channels of 'com.example.app' in sandbox, more than the channel limit (1; channelLimit, --channel-limit)"
        )
        let production = ChannelSpec(scope: ChannelScope(bundleID: "com.example.app", environment: .production))
        try ChannelSpec.checkSetup([two[0], production], broadcastDisabled: [], limit: 1)
        let twice = #expect(throws: SpecError.self) {
            try ChannelSpec.checkSetup(
                [
                    ChannelSpec(id: Self.fixedID, scope: Self.sandbox),
                    ChannelSpec(id: Self.fixedID, scope: Self.sandbox),
                ],
                broadcastDisabled: [], limit: 10)
        }
        #expect(twice?.description == "setup.channels has channelId '\(Self.fixedID)' twice")
        let disabled = #expect(throws: SpecError.self) {
            try ChannelSpec.checkSetup(two, broadcastDisabled: ["com.example.app"], limit: 10)
        }
        #expect(disabled?.path == "setup.broadcastDisabled")
    }

    /// The configuration file's `setup` has channels (its `channelLimit` is a setting:
    /// `ServeSettingTests`).
    @Test func theConfigurationFileHasChannelSetup() throws {
        let document = try ConfigurationDocument.parse(
            yaml: """
                channelLimit: 3
                setup:
                  channels: [{channelId: \(Self.fixedID), bundleId: com.example.app, environment: sandbox}]
                  broadcastDisabled: [com.example.legacy]
                """, file: "a.yaml", baseDirectory: "/", settingKeys: ["channelLimit"], now: 0)
        #expect(document.settings.map(\.key) == ["channelLimit"])
        #expect(document.setup.channels.map(\.id) == [Self.fixedID])
        #expect(document.setup.broadcastDisabled == ["com.example.legacy"])
    }

    @Test func expectationFilesSetUpChannelsToo() throws {
        let file = try ExpectationFile.parse(
            yaml: """
                setup:
                  channels:
                    - {channelId: \(Self.fixedID), bundleId: com.example.app, environment: sandbox, subscribers: [\(Self.token)]}
                expect: []
                """, file: "flow.yaml", baseDirectory: "/", now: 0)
        #expect(file.setup.channels == [ChannelSpec(id: Self.fixedID, scope: Self.sandbox, subscribers: [Self.token])])
        let error = #expect(throws: ExpectationFileError.self) {
            _ = try ExpectationFile.parse(
                yaml: "setup:\n  channels:\n    - {bundleId: com.example.app}\n", file: "flow.yaml",
                baseDirectory: "/", now: 0)
        }
        #expect(error?.message.contains("setup.channels[0].environment is required") == true)
        #expect(error?.line == 3)
    }

    @Test func channelJSON() throws {
        let channel = BroadcastChannel(
            id: Self.fixedID, scope: Self.sandbox, storagePolicy: .noMessageStored, pushType: "liveActivity",
            createdAt: 1_700_000_000_000)
        var json = JSONWriter()
        ChannelSpec.write(channel, subscribers: 2, tokens: ([Self.token, "cdcdcdcdcdcdcdcd"], false), to: &json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(Set(object.keys) == Set(ChannelSpec.jsonKeys + ["tokens"]))
        #expect(object["channelId"] as? String == Self.fixedID)
        #expect(object["bundleId"] as? String == "com.example.app")
        #expect(object["environment"] as? String == "sandbox")
        #expect(object["messageStoragePolicy"] as? Int == 0)
        #expect(object["pushType"] as? String == "liveActivity")
        #expect(object["createdAt"] as? Int64 == 1_700_000_000_000)
        #expect(object["subscribers"] as? Int == 2)
        #expect(object["tokens"] as? [String] == [Self.token, "cdcdcdcdcdcdcdcd"])
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"channelId":"dGVzdC1jaGFubmVsLTE=","bundleId""#))

        // A page with more after it names where the next starts; a listing has no tokens.
        var paged = JSONWriter()
        ChannelSpec.write(channel, subscribers: 2, tokens: ([Self.token], true), to: &paged)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(paged.bytes)) as? [String: Any])
        #expect(page["tokens"] as? [String] == [Self.token])
        #expect(page["nextAfter"] as? String == Self.token)
        var listed = JSONWriter()
        ChannelSpec.write(channel, subscribers: 2, to: &listed)
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(listed.bytes)) as? [String: Any])
        #expect(entry["tokens"] == nil && entry["nextAfter"] == nil && entry["subscribers"] as? Int == 2)
    }
}
