import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore

/// Sends a new user's welcome alert through APNs: the provider code a real app has (here with
/// AsyncHTTPClient and token authentication, as APNSwift does it).
public struct WelcomeNotifier: Sendable {
    /// `https://api.sandbox.push.apple.com` in production; the mock's URL in tests.
    public var apnsURL: String
    public var topic: String
    public var keyID: String
    public var teamID: String
    public var client: HTTPClient
    /// The ES256 signing key (the `.p8` file), as raw bytes: swift-crypto's key type is not `Sendable`.
    private var signingKey: Data

    public init(
        apnsURL: String, topic: String, keyID: String, teamID: String, signingKeyPEM: String, client: HTTPClient
    ) throws {
        self.apnsURL = apnsURL
        self.topic = topic
        self.keyID = keyID
        self.teamID = teamID
        self.signingKey = try P256.Signing.PrivateKey(pemRepresentation: signingKeyPEM).rawRepresentation
        self.client = client
    }

    public struct Rejected: Error, CustomStringConvertible {
        public var status: UInt
        public var body: String
        public var description: String { "APNs answered \(status): \(body)" }
    }

    /// Sends the welcome alert to `deviceToken`.
    /// - Returns: the `apns-id` APNs gave the notification.
    @discardableResult
    public func sendWelcome(to deviceToken: String, name: String) async throws -> String {
        var request = HTTPClientRequest(url: "\(apnsURL)/3/device/\(deviceToken)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(try providerToken())")
        request.headers.add(name: "apns-topic", value: topic)
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-priority", value: "10")
        let payload: [String: Any] = ["aps": ["alert": ["title": "Welcome", "body": "Glad you are here, \(name)"]]]
        request.body = .bytes(ByteBuffer(bytes: Array(try JSONSerialization.data(withJSONObject: payload))))
        let response = try await client.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 4096)
        guard response.status == .ok else { throw Rejected(status: response.status.code, body: String(buffer: body)) }
        return response.headers.first(name: "apns-id") ?? ""
    }

    /// An ES256 provider token: `{"alg":"ES256","kid":…}.{"iss":…,"iat":…}` signed with the key.
    func providerToken(now: Date = Date()) throws -> String {
        func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let header = base64URL(Data(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8))
        let claims = base64URL(Data(#"{"iss":"\#(teamID)","iat":\#(Int(now.timeIntervalSince1970))}"#.utf8))
        let key = try P256.Signing.PrivateKey(rawRepresentation: signingKey)
        let signature = try key.signature(for: Data("\(header).\(claims)".utf8))
        return "\(header).\(claims).\(base64URL(signature.rawRepresentation))"
    }
}
