import APNSMock
import Foundation
import SwiftASN1
import Testing
import X509

/// The committed certificates in certs/: valid, strict-verifier friendly, not about to expire.
@Suite struct CommittedCertificateTests {
    static func load(_ name: String) throws -> Certificate {
        try Certificate(pemEncoded: String(contentsOfFile: E2E.repositoryRoot + "/certs/" + name, encoding: .utf8))
    }

    /// The DNS names the committed CA permits and the server certificate names: loopback, Apple's
    /// APNs hosts, its broadcast hosts (Apple's "Sending broadcast push notification requests to
    /// APNs") and channel management hosts ("Sending channel management requests to APNs"), and
    /// the docker-compose service name.
    static let dnsNames: Set<String> = [
        "localhost", "api.push.apple.com", "api.sandbox.push.apple.com", "api.development.push.apple.com",
        "api-broadcast.push.apple.com", "api-broadcast.sandbox.push.apple.com", "api-manage-broadcast.push.apple.com",
        "api-manage-broadcast.sandbox.push.apple.com", "apns-mock",
    ]

    /// `apns-mock certs generate` writes the names above; the committed files were made by it.
    @Test func committedNamesAreTheGeneratorsNames() {
        #expect(Set(DevCertificates.serverDNSNames) == Self.dnsNames)
        #expect(DevCertificates.serverDNSNames.count == Self.dnsNames.count)
    }

    /// Fails 60 days before a committed certificate expires: regenerate with
    /// `swift run apns-mock certs generate --out certs`.
    @Test(arguments: ["ca.pem", "server.pem", "provider-sandbox.pem", "provider-production.pem"])
    func notExpiringWithinSixtyDays(_ name: String) throws {
        let certificate = try Self.load(name)
        let warnFrom = certificate.notValidAfter.addingTimeInterval(-60 * 86_400)
        #expect(
            Date() < warnFrom,
            "certs/\(name) expires on \(certificate.notValidAfter): regenerate with `swift run apns-mock certs generate --out certs`"
        )
        #expect(certificate.notValidBefore < Date())
    }

    @Test func caIsNameConstrainedCriticalCA() throws {
        let ca = try Self.load("ca.pem")
        let basic = try #require(try ca.extensions.basicConstraints)
        #expect(basic == .isCertificateAuthority(maxPathLength: 0))
        #expect(ca.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
        #expect(try ca.extensions.subjectKeyIdentifier != nil)
        let constraints = try #require(try ca.extensions.nameConstraints)
        #expect(ca.extensions[oid: .X509ExtensionID.nameConstraints]?.critical == true)
        #expect(Set(constraints.permittedDNSDomains) == Self.dnsNames)
        // DNS names only: BoringSSL (swift-nio-ssl) cannot check an IP constraint and fails every
        // handshake whose server certificate has an IP SAN under one (X509 error 51).
        #expect(constraints.permittedSubtrees.allSatisfy { if case .dnsName = $0 { true } else { false } })
        #expect(constraints.excludedSubtrees.isEmpty)
    }

    @Test func serverCertificateNamesLoopbackAndApplesHosts() throws {
        let server = try Self.load("server.pem")
        let names = try #require(try server.extensions.subjectAlternativeNames)
        let dns = names.compactMap { name -> String? in
            if case .dnsName(let value) = name { return value }
            return nil
        }
        #expect(Set(dns) == Self.dnsNames)
        #expect(dns.count == Self.dnsNames.count)
        #expect(names.contains(.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))))
        #expect(
            names.contains(
                .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1])))))
        #expect(try server.extensions.authorityKeyIdentifier != nil)
        #expect(try server.extensions.subjectKeyIdentifier != nil)
        #expect(server.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
        let ca = try Self.load("ca.pem")
        #expect(server.issuer == ca.subject)
        #expect(ca.publicKey.isValidSignature(server.signature, for: server))
    }
}
