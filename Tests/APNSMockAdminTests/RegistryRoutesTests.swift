import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import Testing

@testable import APNSMockAdmin

/// What the registry routes read and write, without a socket: device bodies, the optional
/// time bodies of `unregister`/`expire`, and the JSON of keys and devices. (The routes over
/// HTTP are covered by `RegistryAdminTests` in the end-to-end tests.)
@Suite struct RegistryRoutesTests {
    static let token = String(repeating: "ab", count: 32)
    static let now: Int64 = 1_795_331_883_008

    static func device(_ json: String, token: String = token) throws(SpecError) -> DeviceRegistration {
        try DeviceSpec.decode(json: Array(json.utf8), token: token, now: now)
    }

    static func rendered(_ device: DeviceRegistration) throws -> [String: Any] {
        var json = JSONWriter()
        DeviceSpec.write(device, to: &json)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
    }

    @Test func anEmptyBodyRegistersAnActiveDeviceForAnyTopic() throws {
        for body in ["", "{}"] {
            let device = try Self.device(body)
            #expect(device.token == Self.token)
            #expect(device.topic == nil && device.environment == nil)
            #expect(device.state == .active)
        }
    }

    @Test func topicAndEnvironment() throws {
        let device = try Self.device(#"{"topic":"com.example.app","environment":"production"}"#)
        #expect(device.topic == "com.example.app")
        #expect(device.environment == .production)
        let json = try Self.rendered(device)
        #expect(json["token"] as? String == Self.token)
        #expect(json["topic"] as? String == "com.example.app")
        #expect(json["environment"] as? String == "production")
        #expect(json["state"] as? String == "active")
        #expect(json["unregisteredAt"] == nil && json["expiredAt"] == nil)
    }

    /// The device's locale picks the localizations of its previews.
    @Test func locale() throws {
        let device = try Self.device(#"{"locale":"pt-BR"}"#)
        #expect(device.locale == "pt-BR")
        #expect(try Self.rendered(device)["locale"] as? String == "pt-BR")
        #expect(try Self.rendered(try Self.device("{}"))["locale"] is NSNull)
        let error = #expect(throws: SpecError.self) { _ = try Self.device(#"{"locale":"french!"}"#) }
        #expect(error?.description.contains("locale must be a locale such as en, fr or pt-BR") == true)
    }

    @Test func statesAndTheirTimes() throws {
        #expect(try Self.device(#"{"state":"unregistered"}"#).state == .unregistered(at: Self.now))
        #expect(try Self.device(#"{"state":"expired","expiredAt":5}"#).state == .expired(at: 5))
        #expect(try Self.device(#"{"unregisteredAt":7}"#).state == .unregistered(at: 7))
        #expect(try Self.device(#"{"expiredAt":9}"#).state == .expired(at: 9))
        let unregistered = try Self.rendered(try Self.device(#"{"unregisteredAt":7}"#))
        #expect(unregistered["state"] as? String == "unregistered")
        #expect(unregistered["unregisteredAt"] as? Int == 7)
        #expect(unregistered["topic"] is NSNull && unregistered["environment"] is NSNull)
        let expired = try Self.rendered(try Self.device(#"{"expiredAt":9}"#))
        #expect(expired["state"] as? String == "expired")
        #expect(expired["expiredAt"] as? Int == 9)
    }

    @Test(arguments: [
        (#"{"environment":"both"}"#, "environment must be sandbox or production; got 'both' (leave it out"),
        (#"{"environment":"dev"}"#, "environment must be sandbox or production; got 'dev'"),
        (#"{"topic":""}"#, "topic must not be empty"),
        (#"{"topic":5}"#, "topic must be a string; got a number"),
        (#"{"state":"gone"}"#, "state must be active, unregistered or expired; got 'gone'"),
        (#"{"state":"active","unregisteredAt":5}"#, "unregisteredAt is only for state unregistered"),
        (#"{"state":"unregistered","expiredAt":5}"#, "expiredAt is only for state expired"),
        (#"{"unregisteredAt":5,"expiredAt":6}"#, "expiredAt cannot be given with unregisteredAt"),
        (#"{"unregisteredAt":"yesterday"}"#, "unregisteredAt must be a whole number; got a string"),
        (#"{"unregisteredAt":-1}"#, "unregisteredAt must be 0–"),
        (#"{"token":"cdcdcdcdcdcdcdcd"}"#, "token 'cdcdcdcdcdcdcdcd' does not match the token in the path"),
        (
            #"{"topc":"com.example.app"}"#,
            "topc is not a known field (did you mean 'topic'?); known fields: token, topic"
        ),
        ("topic=com.example.app", "is not valid JSON"),
        (#""com.example.app""#, "must be an object of named fields; got a string"),
    ])
    func badDeviceBodiesNameTheField(_ body: String, _ message: String) {
        let error = #expect(throws: SpecError.self) { _ = try Self.device(body) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test func aMatchingTokenInTheBodyIsAcceptedInAnyCase() throws {
        let device = try Self.device(#"{"token":"\#(Self.token.uppercased())"}"#)
        #expect(device.token == Self.token)
    }

    @Test func unregisterAndExpireBodies() throws {
        #expect(try DeviceSpec.decodeTime(json: [UInt8](), field: "unregisteredAt", now: 42) == 42)
        #expect(try DeviceSpec.decodeTime(json: Array("{}".utf8), field: "unregisteredAt", now: 42) == 42)
        #expect(try DeviceSpec.decodeTime(json: Array(#"{"expiredAt":7}"#.utf8), field: "expiredAt", now: 42) == 7)
        let wrongField = #expect(throws: SpecError.self) {
            _ = try DeviceSpec.decodeTime(json: Array(#"{"expiredAt":7}"#.utf8), field: "unregisteredAt", now: 42)
        }
        #expect(wrongField?.description == "expiredAt is not a known field; known fields: unregisteredAt")
        let notANumber = #expect(throws: SpecError.self) {
            _ = try DeviceSpec.decodeTime(json: Array(#"{"unregisteredAt":1.5}"#.utf8), field: "unregisteredAt", now: 0)
        }
        #expect(notANumber?.path == "unregisteredAt")
    }

    @Test func setupDevicesNormalizeTheirToken() throws {
        let object = try SpecObject(
            SpecValue.parse(yaml: "{token: \(Self.token.uppercased()), topic: com.example.app, state: expired}"),
            path: "setup.devices[0]")
        let device = try DeviceSpec.decode(setup: object, now: Self.now)
        #expect(device.token == Self.token)
        #expect(device.state == .expired(at: Self.now))
        let bad = try SpecObject(SpecValue.parse(yaml: "{token: abc}"), path: "setup.devices[3]")
        let error = #expect(throws: SpecError.self) { _ = try DeviceSpec.decode(setup: bad, now: 0) }
        #expect(error?.description.hasPrefix("setup.devices[3].token must be an even number of hex digits") == true)
        let missing = try SpecObject(SpecValue.parse(yaml: "{topic: com.example.app}"), path: "setup.devices[0]")
        let missingError = #expect(throws: SpecError.self) { _ = try DeviceSpec.decode(setup: missing, now: 0) }
        #expect(missingError?.description == "setup.devices[0].token is required")
    }

    @Test func yamlPlainScalarsTakeTheFieldsType() throws {
        // An all-digit hex token and an exponent-looking one stay strings; numbers stay numbers.
        let digits = String(repeating: "12", count: 16)
        let exponent = "1234567e" + String(repeating: "1", count: 56)
        for token in [digits, exponent] {
            let object = try SpecObject(
                SpecValue.parse(yaml: "token: \(token)\nunregisteredAt: 1_000"), path: "d")
            let device = try DeviceSpec.decode(setup: object, now: 0)
            #expect(device.token == token)
            #expect(device.state == .unregistered(at: 1000))
        }
    }

    @Test func duplicateEntriesInSetupAreErrors() throws {
        let object = try SpecObject(
            SpecValue.parse(
                yaml: """
                    devices:
                      - token: \(Self.token)
                      - token: \(Self.token.uppercased())
                    """), path: "setup")
        let error = #expect(throws: SpecError.self) {
            _ = try SetupSection.decode(object, baseDirectory: "/", now: 0)
        }
        #expect(error?.description == "setup.devices[1].token is already given by setup.devices[0]")
    }
}
