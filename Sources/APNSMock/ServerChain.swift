import APNSMockCore
import Crypto
import SwiftASN1
import X509
import _CryptoExtras

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A server certificate chain shaped like the one APNs serves, generated locally, for checking
/// what a provider's trust store does with it (`serve --chain`, `certs generate --chain`).
///
/// Since 2025 APNs's server certificates chain to the "USERTrust RSA Certification Authority"
/// root (Apple's "Apple Push Notification service server certificate update"), through an
/// intermediate CA. The chain here has that shape: a leaf for the mock's server names, issued by
/// an intermediate, issued by a root. Every name says `apns-mock TEST ONLY`, the keys are made
/// at each generation and never leave the machine: this is test material that only a client
/// told to trust its root can trust. FOR TESTS ONLY.
public struct ServerChain: Sendable {
    /// The names a chain's certificates carry.
    public enum Names {
        /// The marker every name starts with.
        public static let marker = "apns-mock TEST ONLY - "
        /// The common name of the apple-like root: Apple's current APNs server root's, marked.
        public static let appleLikeRoot = marker + "USERTrust RSA Certification Authority"
        /// The organization of the apple-like root.
        public static let appleLikeRootOrganization = marker + "The USERTRUST Network"
        /// The common name of the untrusted root.
        public static let untrustedRoot = marker + "untrusted root (no client is given it)"
        /// The common name of the intermediate CA (between the root and the leaf, as at APNs).
        public static let intermediate = marker + "APNs server intermediate CA"
        /// The organization of the intermediate CA and the leaf.
        public static let organization = marker + "Apple-like APNs server"
        /// The leaf's common name, as APNs's production certificate has it; its subject
        /// alternative names are ``DevCertificates/serverDNSNames`` and the loopback addresses.
        public static let leaf = "api.push.apple.com"
    }

    /// How long the leaf is valid: 397 days, within what browsers and Apple platforms accept
    /// for publicly trusted server certificates.
    public static let leafValidityDays = 397
    /// How long the intermediate is valid.
    public static let intermediateValidityDays = 10 * 365
    /// How long the root is valid.
    public static let rootValidityDays = 20 * 365

    public let kind: ServerChainKind
    /// The root CA (PEM).
    public let rootPEM: String
    /// The intermediate CA (PEM).
    public let intermediatePEM: String
    /// The leaf (PEM).
    public let leafPEM: String
    /// The leaf's private key (PKCS#8 PEM).
    public let leafKeyPEM: String

    /// What the server sends: the leaf, then the intermediate (not the root, as APNs does).
    public var servedChainPEM: String { leafPEM + intermediatePEM }

    /// Generates a new chain of `kind`: three new RSA 2048 keys, SHA-256 signatures.
    public static func generate(_ kind: ServerChainKind, now: Date = Date()) throws -> ServerChain {
        let rootKey = Certificate.PrivateKey(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        let rootName: DistinguishedName
        switch kind {
        case .appleLike:
            rootName = try DistinguishedName {
                CountryName("US")
                StateOrProvinceName("New Jersey")
                LocalityName("Jersey City")
                OrganizationName(Names.appleLikeRootOrganization)
                CommonName(Names.appleLikeRoot)
            }
        case .untrustedRoot:
            rootName = try DistinguishedName {
                CountryName("US")
                OrganizationName(Names.organization)
                CommonName(Names.untrustedRoot)
            }
        }
        let rootSKI = SubjectKeyIdentifier(hash: rootKey.publicKey)
        let root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: rootKey.publicKey,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(Double(rootValidityDays) * 86_400),
            issuer: rootName, subject: rootName, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                rootSKI
            },
            issuerPrivateKey: rootKey)

        let intermediateKey = Certificate.PrivateKey(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        let intermediateName = try DistinguishedName {
            CountryName("US")
            OrganizationName(Names.organization)
            OrganizationalUnitName("Certification Authority")
            CommonName(Names.intermediate)
        }
        let intermediateSKI = SubjectKeyIdentifier(hash: intermediateKey.publicKey)
        let intermediate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: intermediateKey.publicKey,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(Double(intermediateValidityDays) * 86_400),
            issuer: rootName, subject: intermediateName, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                try ExtendedKeyUsage([.serverAuth, .clientAuth])
                intermediateSKI
                AuthorityKeyIdentifier(keyIdentifier: rootSKI.keyIdentifier)
            },
            issuerPrivateKey: rootKey)

        let leafRSA = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let leafKey = Certificate.PrivateKey(leafRSA)
        let leafName = try DistinguishedName {
            CountryName("US")
            StateOrProvinceName("California")
            OrganizationName(Names.organization)
            CommonName(Names.leaf)
        }
        let names: [GeneralName] =
            DevCertificates.serverDNSNames.map { .dnsName($0) }
            + DevCertificates.serverIPAddresses.map { .ipAddress(ASN1OctetString(contentBytes: ArraySlice($0))) }
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: leafKey.publicKey,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(Double(leafValidityDays) * 86_400),
            issuer: intermediateName, subject: leafName, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true, keyEncipherment: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectKeyIdentifier(hash: leafKey.publicKey)
                AuthorityKeyIdentifier(keyIdentifier: intermediateSKI.keyIdentifier)
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: intermediateKey)

        return ServerChain(
            kind: kind, rootPEM: try root.serializeAsPEM().pemString + "\n",
            intermediatePEM: try intermediate.serializeAsPEM().pemString + "\n",
            leafPEM: try leaf.serializeAsPEM().pemString + "\n", leafKeyPEM: leafRSA.pkcs8PEMRepresentation + "\n")
    }

    /// The files `write(to:)` made.
    public struct Files: Sendable, Hashable {
        /// The chain served (`server.pem`: leaf, then intermediate).
        public var servedChain: String
        /// The leaf's private key (`server-key.pem`, mode 0600).
        public var leafKey: String
        /// The intermediate alone (`intermediate.pem`).
        public var intermediate: String
        /// The root a client must trust (`root.pem`); `nil` for `untrusted-root`, whose root is
        /// given to nobody.
        public var root: String?
    }

    /// Writes the chain into `directory` (created if missing): `server.pem` (leaf and
    /// intermediate), `server-key.pem` (mode 0600), `intermediate.pem`, and for `apple-like`
    /// `root.pem`, the certificate a client must trust. The roots' and intermediates' private
    /// keys are not written: nothing else can be issued under them.
    public func write(to directory: String) throws -> Files {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let url = URL(fileURLWithPath: directory)
        let files = Files(
            servedChain: url.appendingPathComponent("server.pem").path,
            leafKey: url.appendingPathComponent("server-key.pem").path,
            intermediate: url.appendingPathComponent("intermediate.pem").path,
            root: kind == .appleLike ? url.appendingPathComponent("root.pem").path : nil)
        try servedChainPEM.write(toFile: files.servedChain, atomically: true, encoding: .utf8)
        try PrivateKeyFile.save(leafKeyPEM, atPath: files.leafKey)
        try intermediatePEM.write(toFile: files.intermediate, atomically: true, encoding: .utf8)
        let rootPath = url.appendingPathComponent("root.pem").path
        if files.root != nil {
            try rootPEM.write(toFile: rootPath, atomically: true, encoding: .utf8)
        } else {
            // A root an earlier apple-like chain left here is not this chain's.
            try? FileManager.default.removeItem(atPath: rootPath)
        }
        return files
    }
}
