import APNSMock
import APNSMockStore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// AsyncHTTPClient on swift-nio-ssl (BoringSSL): the TLS stack under APNSwift and Vapor. It
/// trusts only `certs/ca.pem`, and BoringSSL refuses a CA whose name constraints it cannot check
/// (IP ranges), so these pushes fail the handshake unless the CA constrains DNS names only.
@Suite(.serialized) struct AsyncHTTPClientTests {
    /// HTTP/2 by ALPN, trusting `certs/ca.pem` and nothing else.
    static func makeClient() throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(E2E.caFile))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// `localhost` is a DNS SAN of certs/server.pem, `127.0.0.1` an IP SAN.
    @Test(arguments: ["localhost", "127.0.0.1"])
    func pushTrustingOnlyTheCommittedCA(_ host: String) async throws {
        try await E2E.withMock { mock in
            let client = try Self.makeClient()
            var failure: (any Error)?
            do {
                try await push(through: client, to: mock, host: host)
            } catch {
                failure = error
            }
            try await client.shutdown()
            if let failure { throw failure }
        }
    }

    private func push(through client: HTTPClient, to mock: RunningMock, host: String) async throws {
        let device = E2E.randomToken()
        var request = HTTPClientRequest(url: "https://\(host):\(mock.endpoints.apnsPort)/3/device/\(device)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(try E2E.providerToken())")
        request.headers.add(name: "apns-topic", value: "com.example.app")
        request.headers.add(name: "apns-push-type", value: "alert")
        request.body = .bytes(ByteBuffer(string: #"{"aps":{"alert":"from AsyncHTTPClient"}}"#))

        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4096)
        #expect(response.status == .ok, "\(String(buffer: body))")
        #expect(response.version == .http2)
        let apnsID = try #require(response.headers.first(name: "apns-id"))
        #expect(UUID(uuidString: apnsID) != nil, "apns-id: \(apnsID)")

        let records = mock.deliveries.all(matching: [.token(device)])
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record.status == 200)
        #expect(record.apnsID.text.lowercased() == apnsID.lowercased())
        #expect(record.topic == "com.example.app")
        #expect(record.authentication?.method == .token)
        #expect(record.authentication?.signatureVerified == true)
    }
}
