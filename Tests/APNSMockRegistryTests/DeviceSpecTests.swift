import APNSMockCore
import Testing

@testable import APNSMockRegistry

/// `PUT /v1/devices/{token}` bodies read into a `DeviceRegistration`: the device's conditions
/// (presence and its schedule, notifications, installation, background budget) and the
/// refusals, each naming the field.
@Suite struct DeviceSpecTests {
    static let token = String(repeating: "ab", count: 32)
    static let now: Int64 = 1_700_000_000_000

    static func body(_ json: String) throws(SpecError) -> DeviceRegistration {
        try DeviceSpec.decode(json: Array(json.utf8), token: token, now: now)
    }

    @Test func anEmptyBodyIsAnActiveDeviceWithStandardConditions() throws {
        let device = try Self.body("")
        #expect(device == DeviceRegistration(token: Self.token))
        #expect(device.conditions == .standard)
    }

    /// (body, the conditions it gives).
    static let validBodies: [(String, DeviceConditions)] = [
        (#"{"presence":"offline"}"#, DeviceConditions(presence: .offline)),
        (#"{"presence":"lowPower"}"#, DeviceConditions(presence: .lowPower)),
        (#"{"presence":"online"}"#, .standard),
        (
            #"{"presence":"offline","for":"10m"}"#,
            DeviceConditions(periods: [.init(presence: .offline, from: now, until: now + 600_000)])
        ),
        (
            #"{"presence":"lowPower","until":1700000060000}"#,
            DeviceConditions(periods: [.init(presence: .lowPower, from: now, until: 1_700_000_060_000)])
        ),
        (
            #"{"presence":"lowPower","periods":[{"presence":"offline","from":1700000100000,"for":"1m"},{"presence":"online","from":1700000000000,"until":1700000100000}]}"#,
            DeviceConditions(
                presence: .lowPower,
                periods: [
                    .init(presence: .online, from: now, until: now + 100_000),
                    .init(presence: .offline, from: now + 100_000, until: now + 160_000),
                ])
        ),
        (
            #"{"periods":[{"presence":"offline","for":"30s"}]}"#,
            DeviceConditions(periods: [.init(presence: .offline, from: now, until: now + 30_000)])
        ),
        (#"{"notifications":"disabled"}"#, DeviceConditions(notificationsEnabled: false)),
        (#"{"notifications":"enabled","installed":true}"#, .standard),
        (#"{"installed":false}"#, DeviceConditions(installed: false, uninstalledAt: now)),
        (
            #"{"installed":false,"uninstalledAt":1600000000000,"uninstallGrace":"30s"}"#,
            DeviceConditions(installed: false, uninstalledAt: 1_600_000_000_000, uninstallGrace: 30_000)
        ),
        (
            #"{"installed":false,"uninstallGrace":"0s"}"#,
            DeviceConditions(installed: false, uninstalledAt: now, uninstallGrace: 0)
        ),
        (#"{"backgroundPushesPerHour":3}"#, DeviceConditions(backgroundPushesPerHour: 3)),
        (#"{"backgroundPushesPerHour":0}"#, DeviceConditions(backgroundPushesPerHour: 0)),
    ]

    @Test(arguments: validBodies)
    func validBodyGivesConditions(_ json: String, _ conditions: DeviceConditions) throws {
        let device = try Self.body(json)
        #expect(device.conditions == conditions)
        #expect(device.token == Self.token && device.state == .active)
    }

    @Test func conditionsComeWithTheRegistrationFields() throws {
        let device = try Self.body(
            #"{"topic":"com.example.app","environment":"sandbox","locale":"fr","presence":"offline","notifications":"disabled"}"#
        )
        #expect(device.topic == "com.example.app" && device.environment == .sandbox && device.locale == "fr")
        #expect(device.conditions == DeviceConditions(presence: .offline, notificationsEnabled: false))
    }

    /// (body, words the refusal must contain: the field first).
    static let badBodies: [(String, String)] = [
        (#"{"presence":"away"}"#, "presence must be online, offline or lowPower; got 'away'"),
        (#"{"presence":"Offline"}"#, "presence must be online, offline or lowPower; got 'Offline'"),
        (#"{"presence":1}"#, "presence must be a string"),
        (
            #"{"periods":[{"presence":"offline","from":1700000000000,"until":1700000100000},{"presence":"lowPower","from":1700000050000,"until":1700000200000}]}"#,
            "periods overlap: the period from 1700000050000 starts before the one from 1700000000000 ends at 1700000100000"
        ),
        (#"{"periods":[{"presence":"nap","for":"1m"}]}"#, "periods[0].presence must be online, offline or lowPower"),
        (#"{"periods":[{"from":1700000000000,"for":"1m"}]}"#, "periods[0].presence is required"),
        (#"{"periods":[{"presence":"offline"}]}"#, "periods[0].until is required"),
        (#"{"periods":[{"presence":"offline","for":"1m","when":1}]}"#, "periods[0].when is not a known field"),
        (
            #"{"periods":[{"presence":"offline","from":1700000100000,"until":1700000000000}]}"#,
            "periods[0].until must be after 1700000100000"
        ),
        (#"{"presence":"offline","until":1699999999000}"#, "until must be after 1700000000000, when presence starts"),
        (#"{"presence":"offline","until":1700000000000}"#, "until must be after 1700000000000"),
        (#"{"presence":"online","until":1700000060000}"#, "until needs presence offline or lowPower"),
        (#"{"until":1700000060000}"#, "until needs presence offline or lowPower"),
        (#"{"presence":"online","for":"5m"}"#, "for needs presence offline or lowPower"),
        (#"{"presence":"offline","for":"soon"}"#, "for must be a duration such as 10m or 90s"),
        (#"{"presence":"offline","for":"0s"}"#, "for must be a duration"),
        (#"{"presence":"offline","for":"1m","until":1700000060000}"#, "for cannot be given with until"),
        (
            #"{"presence":"offline","for":"1m","periods":[{"presence":"offline","for":"1m"}]}"#,
            "periods cannot be given with until or for"
        ),
        (#"{"installed":true,"uninstalledAt":1600000000000}"#, "uninstalledAt is only for installed: false"),
        (#"{"uninstalledAt":1600000000000}"#, "uninstalledAt is only for installed: false"),
        (#"{"installed":"no"}"#, "installed must be"),
        (#"{"installed":false,"uninstallGrace":"a while"}"#, "uninstallGrace must be a duration such as 5m or 30s"),
        (#"{"installed":false,"uninstallGrace":"400d"}"#, "uninstallGrace must be a duration"),
        (#"{"installed":false,"uninstallGrace":300}"#, "uninstallGrace must be a string"),
        (#"{"notifications":"off"}"#, "notifications must be enabled or disabled; got 'off'"),
        (#"{"backgroundPushesPerHour":-1}"#, "backgroundPushesPerHour must be"),
        (#"{"backgroundPushesPerHour":"3"}"#, "backgroundPushesPerHour must be a whole number"),
    ]

    @Test(arguments: badBodies)
    func badBodyIsRefusedNamingTheField(_ json: String, _ message: String) {
        let error = #expect(throws: SpecError.self) { _ = try Self.body(json) }
        #expect(error?.description.hasPrefix(message.prefix { $0 != " " }) == true, "\(String(describing: error))")
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test func writtenConditionsReadBack() throws {
        let device = try Self.body(
            #"{"presence":"lowPower","periods":[{"presence":"offline","from":1700000100000,"for":"1m"}],"notifications":"disabled","installed":false,"uninstalledAt":1600000000000,"uninstallGrace":"2m","backgroundPushesPerHour":2}"#
        )
        var json = JSONWriter()
        DeviceSpec.write(device, to: &json)
        let text = String(decoding: json.bytes, as: UTF8.self)
        for words in [
            #""presence":"lowPower""#,
            #""periods":[{"presence":"offline","from":1700000100000,"until":1700000160000}]"#,
            #""notifications":"disabled""#, #""installed":false"#, #""uninstalledAt":1600000000000"#,
            #""uninstallGrace":"2m""#, #""backgroundPushesPerHour":2"#,
        ] {
            #expect(text.contains(words), "\(text)")
        }
    }
}
