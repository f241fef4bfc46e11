import APNSMockCore
import Testing

/// Apple's APNs hosts ("Sending notification requests to APNs", "Establish a connection to
/// APNs"): `api.push.apple.com` for production, `api.sandbox.push.apple.com` for development
/// (older alias `api.development.push.apple.com`), on port 443 or 2197.
@Suite("APNSEnvironment and EnvironmentMode")
struct EnvironmentTests {
    struct HostCase: Sendable, CustomTestStringConvertible {
        let host: String
        let environment: APNSEnvironment?
        var testDescription: String { "\(host.isEmpty ? "(empty)" : host) → \(environment.map(\.rawValue) ?? "nil")" }
        init(_ host: String, _ environment: APNSEnvironment?) {
            self.host = host
            self.environment = environment
        }
    }

    static let hosts: [HostCase] = [
        HostCase("api.push.apple.com", .production),
        HostCase("api.sandbox.push.apple.com", .sandbox),
        HostCase("api.development.push.apple.com", .sandbox),
        // A trailing :port is ignored.
        HostCase("api.push.apple.com:443", .production),
        HostCase("api.push.apple.com:2197", .production),
        HostCase("api.sandbox.push.apple.com:443", .sandbox),
        HostCase("api.development.push.apple.com:2197", .sandbox),
        // A fully-qualified name's trailing dot is ignored, with or without a port.
        HostCase("api.push.apple.com.", .production),
        HostCase("api.sandbox.push.apple.com.:2197", .sandbox),
        // Host names are case-insensitive.
        HostCase("API.PUSH.APPLE.COM", .production),
        HostCase("Api.Sandbox.Push.Apple.Com:443", .sandbox),
        // Anything else is not Apple's.
        HostCase("", nil),
        HostCase("localhost", nil),
        HostCase("localhost:8443", nil),
        HostCase("127.0.0.1:2197", nil),
        HostCase("[::1]:443", nil),
        HostCase("push.apple.com", nil),
        HostCase("api.push.apple.com.evil.example", nil),
        HostCase("evil-api.push.apple.com", nil),
        HostCase("xapi.push.apple.com", nil),
        HostCase("api.push.apple.co", nil),
        // Broadcast and channel management ("Sending broadcast push notification requests to
        // APNs", "Sending channel management requests to APNs").
        HostCase("api-manage-broadcast.push.apple.com", .production),
        HostCase("api-manage-broadcast.sandbox.push.apple.com:2195", .sandbox),
        HostCase("api-broadcast.push.apple.com", .production),
        HostCase("api-broadcast.sandbox.push.apple.com", .sandbox),
        HostCase("api-manage-broadcast.push.apple.co", nil),
        HostCase("gateway.push.apple.com", nil),
        HostCase("api.push.apple.com:443:443", nil),
    ]

    @Test("forAppleHost", arguments: hosts)
    func forAppleHost(_ row: HostCase) {
        #expect(APNSEnvironment.forAppleHost(row.host) == row.environment)
    }

    @Test("forAppleHost accepts a Substring")
    func forAppleHostSubstring() {
        let authority = "https://api.push.apple.com:443"
        #expect(APNSEnvironment.forAppleHost(authority.dropFirst("https://".count)) == .production)
    }

    @Test("Fixed modes ignore the names", arguments: [EnvironmentMode.sandbox, .production])
    func fixedModes(_ mode: EnvironmentMode) {
        let expected: APNSEnvironment = mode == .sandbox ? .sandbox : .production
        let names: [String?] = [nil, "localhost", "api.push.apple.com", "api.sandbox.push.apple.com"]
        for serverName in names {
            for authority in names {
                #expect(mode.resolve(serverName: serverName, authority: authority) == expected)
            }
        }
    }

    @Test("auto: the TLS server name beats the authority")
    func autoServerNameFirst() {
        #expect(
            EnvironmentMode.auto.resolve(serverName: "api.push.apple.com", authority: "api.sandbox.push.apple.com")
                == .production)
        #expect(
            EnvironmentMode.auto.resolve(serverName: "api.sandbox.push.apple.com", authority: "api.push.apple.com:443")
                == .sandbox)
        #expect(EnvironmentMode.auto.resolve(serverName: "api.push.apple.com", authority: nil) == .production)
    }

    @Test("auto: the authority decides when the server name is missing or not Apple's")
    func autoAuthority() {
        #expect(EnvironmentMode.auto.resolve(serverName: nil, authority: "api.push.apple.com") == .production)
        #expect(
            EnvironmentMode.auto.resolve(serverName: "localhost", authority: "api.push.apple.com:443") == .production)
        #expect(EnvironmentMode.auto.resolve(serverName: "127.0.0.1", authority: "API.PUSH.APPLE.COM") == .production)
        #expect(EnvironmentMode.auto.resolve(serverName: "", authority: "api.development.push.apple.com") == .sandbox)
    }

    @Test("auto: sandbox when neither name is Apple's")
    func autoFallback() {
        #expect(EnvironmentMode.auto.resolve(serverName: nil, authority: nil) == .sandbox)
        #expect(EnvironmentMode.auto.resolve(serverName: "localhost", authority: "localhost:2197") == .sandbox)
        #expect(EnvironmentMode.auto.resolve(serverName: "", authority: "") == .sandbox)
    }

    @Test("Raw values are the CLI spellings")
    func rawValues() {
        #expect(APNSEnvironment.allCases.map(\.rawValue) == ["sandbox", "production"])
        #expect(EnvironmentMode.allCases.map(\.rawValue) == ["sandbox", "production", "auto"])
        #expect(ConnectionContext().environment == .sandbox)
        #expect(ConnectionContext().authentication == .token)
    }
}
