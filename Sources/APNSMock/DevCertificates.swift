import Crypto
import SwiftASN1
import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Issues the development CA and the server certificate apns-mock serves with.
///
/// The CA carries name constraints that permit only the DNS names below, so trusting it in a
/// client cannot make it vouch for any other host name. It constrains no IP addresses:
/// BoringSSL (swift-nio-ssl, so AsyncHTTPClient, APNSwift and Vapor) cannot check IP constraints
/// and fails every handshake whose certificate has an IP SAN under such a CA (X509 error 51,
/// unsupported constraint type). RFC 5280 applies constraints per name type, so with no IP
/// constraint the CA can vouch for any IP address. All certificates carry SKI, AKI (leaf) and a
/// critical basicConstraints, as strict verifiers (Python 3.13's default context) require.
public enum DevCertificates {
    /// DNS names of the server certificate, and the only DNS names the CA permits: loopback,
    /// Apple's APNs hosts, its broadcast hosts (Apple's "Sending broadcast push notification
    /// requests to APNs") and channel management hosts ("Sending channel management requests to
    /// APNs"), and the docker-compose service name.
    public static let serverDNSNames = [
        "localhost", "api.push.apple.com", "api.sandbox.push.apple.com", "api.development.push.apple.com",
        "api-broadcast.push.apple.com", "api-broadcast.sandbox.push.apple.com",
        "api-manage-broadcast.push.apple.com", "api-manage-broadcast.sandbox.push.apple.com", "apns-mock",
    ]
    /// IP addresses of the server certificate (the CA's name constraints do not cover them).
    public static let serverIPAddresses: [[UInt8]] = [[127, 0, 0, 1], [UInt8](repeating: 0, count: 15) + [1]]
    /// How long the CA is valid.
    public static let caValidityDays = 20 * 365
    /// How long the server certificate is valid: 825 days, the most Apple platforms' TLS
    /// clients accept for a locally trusted server certificate.
    public static let serverValidityDays = 825

    /// The PEM files written by `generate`.
    public struct Files: Sendable {
        public var caCertificate: String
        public var caPrivateKey: String
        public var serverCertificate: String
        public var serverPrivateKey: String
    }

    /// Makes a new CA and server certificate.
    public static func generate(now: Date = Date()) throws -> Files {
        let caKey = P256.Signing.PrivateKey()
        let caPrivate = Certificate.PrivateKey(caKey)
        let caName = try DistinguishedName {
            OrganizationName("apns-mock")
            CommonName("apns-mock development CA (tests only)")
        }
        let caSKI = SubjectKeyIdentifier(hash: caPrivate.publicKey)
        // DNS names only: an IP range here breaks every BoringSSL client (see above).
        let constraints = NameConstraints(permittedDNSDomains: serverDNSNames)
        let ca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: caPrivate.publicKey,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(Double(caValidityDays) * 86_400),
            issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                caSKI
                Critical(constraints)
            },
            issuerPrivateKey: caPrivate)

        let serverKey = P256.Signing.PrivateKey()
        let serverPrivate = Certificate.PrivateKey(serverKey)
        let serverName = try DistinguishedName {
            OrganizationName("apns-mock")
            CommonName("localhost")
        }
        let names: [GeneralName] =
            serverDNSNames.map { .dnsName($0) }
            + serverIPAddresses.map { .ipAddress(ASN1OctetString(contentBytes: ArraySlice($0))) }
        let server = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: serverPrivate.publicKey,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(Double(serverValidityDays) * 86_400),
            issuer: caName, subject: serverName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectKeyIdentifier(hash: serverPrivate.publicKey)
                AuthorityKeyIdentifier(keyIdentifier: caSKI.keyIdentifier)
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: caPrivate)

        return Files(
            caCertificate: try ca.serializeAsPEM().pemString + "\n",
            caPrivateKey: caKey.pemRepresentation + "\n",
            serverCertificate: try server.serializeAsPEM().pemString + "\n",
            serverPrivateKey: serverKey.pemRepresentation + "\n")
    }

    /// Writes `files` into `directory` as `ca.pem`, `ca-key.pem`, `server.pem`, `server-key.pem`;
    /// the two private keys with mode 0600 (``PrivateKeyFile``).
    public static func write(_ files: Files, to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let url = URL(fileURLWithPath: directory)
        try files.caCertificate.write(to: url.appendingPathComponent("ca.pem"), atomically: true, encoding: .utf8)
        try PrivateKeyFile.save(files.caPrivateKey, atPath: url.appendingPathComponent("ca-key.pem").path)
        try files.serverCertificate.write(
            to: url.appendingPathComponent("server.pem"), atomically: true, encoding: .utf8)
        try PrivateKeyFile.save(files.serverPrivateKey, atPath: url.appendingPathComponent("server-key.pem").path)
    }
}
