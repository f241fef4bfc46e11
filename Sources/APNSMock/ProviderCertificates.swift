import APNSMockAdmin
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import Crypto
import SwiftASN1
import X509
import _CryptoExtras

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Issues APNs provider (client) certificates shaped like Apple's, signed by the development CA.
///
/// A certificate carries an RSA 2048 key (as Apple's do), the subject `UID=<topic>,
/// CN=Apple Push Services: <topic>, OU=<team id>, O=apns-mock test provider, C=US`, the
/// environment extension(s), and for a multi-topic certificate the topics extension
/// `1.2.840.113635.100.6.3.6` (see ``ProviderCertificate``). FOR TESTS ONLY.
public enum ProviderCertificates {
    /// The topic kinds a multi-topic certificate may list, and the suffix each adds to the
    /// bundle ID to make its topic.
    public static let kindSuffixes: KeyValuePairs<String, String> = [
        "app": "", "voip": ".voip", "complication": ".complication",
    ]
    /// The organization name of issued certificates.
    public static let organizationName = "apns-mock test provider"
    /// How long an issued certificate is valid by default.
    public static let defaultValidityDays = 825

    /// Why a certificate could not be issued.
    public struct IssueError: Error, Sendable, Equatable, CustomStringConvertible {
        /// One line saying what is wrong.
        public var description: String

        /// Makes an error with the given message.
        public init(_ description: String) { self.description = description }
    }

    /// Issues a provider certificate for the app `topic` (its bundle ID).
    ///
    /// - Parameters:
    ///   - topic: The bundle ID; the subject UID.
    ///   - kinds: `nil` for a single-topic certificate (no topics extension). Otherwise the
    ///     kinds the topics extension lists, in order: `app` (the bundle ID), `voip`
    ///     (`<topic>.voip`, which also adds the VoIP Services marker) and `complication`
    ///     (`<topic>.complication`).
    ///   - environment: `.sandbox`, `.production` or `.both`.
    ///   - teamID: The subject's organizational unit.
    ///   - caCertificatePEM: The issuing CA (`certs/ca.pem`).
    ///   - caPrivateKeyPEM: Its ECDSA P-256 private key (`certs/ca-key.pem`).
    ///   - now: The start of validity (less one hour, for clock skew).
    ///   - validityDays: How long the certificate is valid.
    /// - Returns: The certificate and its private key (PKCS#8), both PEM with a trailing newline.
    /// - Throws: ``IssueError`` for a bad argument or a CA that cannot be used.
    public static func issue(
        topic: String, kinds: [String]?, environment: ProviderCertificate.Environment,
        teamID: String = "DEF123GHIJ", caCertificatePEM: String, caPrivateKeyPEM: String, now: Date = Date(),
        validityDays: Int = 825
    ) throws -> (certificatePEM: String, privateKeyPEM: String) {
        guard !topic.isEmpty, !topic.contains(where: { $0.isWhitespace || $0 == "," }) else {
            throw IssueError("topic must be a bundle ID such as com.example.app, not '\(topic)'")
        }
        guard !teamID.isEmpty else { throw IssueError("team ID must not be empty") }
        guard validityDays > 0 else { throw IssueError("validity must be at least one day, not \(validityDays)") }
        let environmentExtensions: [ASN1ObjectIdentifier]
        switch environment {
        case .sandbox: environmentExtensions = [ProviderCertificate.sandboxExtension]
        case .production: environmentExtensions = [ProviderCertificate.productionExtension]
        case .both:
            environmentExtensions = [ProviderCertificate.sandboxExtension, ProviderCertificate.productionExtension]
        case .unspecified: throw IssueError("environment must be sandbox, production or both")
        }
        let topics = try kinds.map { try Self.topics(bundleID: topic, kinds: $0) }

        let ca: Certificate
        do {
            ca = try Certificate(pemEncoded: caCertificatePEM)
        } catch {
            throw IssueError(
                "the CA certificate "
                    + PEMProblem.describe(caCertificatePEM, expecting: "a PEM certificate", labels: ["CERTIFICATE"]))
        }
        let caKey: P256.Signing.PrivateKey
        do {
            caKey = try P256.Signing.PrivateKey(pemRepresentation: caPrivateKeyPEM)
        } catch {
            throw IssueError(
                "the CA private key "
                    + PEMProblem.describe(
                        caPrivateKeyPEM, expecting: "an EC P-256 private key", labels: PEMProblem.privateKeyLabels))
        }
        guard case .some(.isCertificateAuthority) = try? ca.extensions.basicConstraints else {
            throw IssueError("the CA certificate is not a CA (no basicConstraints CA:TRUE)")
        }
        let caPrivate = Certificate.PrivateKey(caKey)
        guard caPrivate.publicKey == ca.publicKey else {
            throw IssueError("the CA private key does not belong to the CA certificate")
        }
        let caKeyIdentifier =
            try ca.extensions.subjectKeyIdentifier?.keyIdentifier
            ?? SubjectKeyIdentifier(hash: ca.publicKey).keyIdentifier

        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let privateKey = Certificate.PrivateKey(key)
        let isSingleSandbox = kinds == nil && environment == .sandbox
        let commonName = (isSingleSandbox ? "Apple Development IOS Push Services: " : "Apple Push Services: ") + topic
        let subject = DistinguishedName([
            RelativeDistinguishedName(.init(type: ProviderCertificate.userIDAttribute, utf8String: topic)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: commonName)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationalUnitName, utf8String: teamID)),
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationName, utf8String: organizationName)),
            RelativeDistinguishedName(try .init(type: .RDNAttributeType.countryName, printableString: "US")),
        ])

        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true, keyEncipherment: true))
            try ExtendedKeyUsage([.clientAuth])
            SubjectKeyIdentifier(hash: privateKey.publicKey)
            AuthorityKeyIdentifier(keyIdentifier: caKeyIdentifier)
        }
        let null: ArraySlice<UInt8> = [0x05, 0x00]
        for oid in environmentExtensions {
            try extensions.append(Certificate.Extension(oid: oid, critical: false, value: null))
        }
        if let topics {
            try extensions.append(
                Certificate.Extension(
                    oid: ProviderCertificate.topicsExtension, critical: false, value: try topicsExtensionValue(topics)))
            if topics.contains(where: { $0.kind == "voip" }) {
                try extensions.append(
                    Certificate.Extension(oid: ProviderCertificate.voipServicesExtension, critical: false, value: null))
            }
        }

        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: privateKey.publicKey,
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(Double(validityDays) * 86_400),
            issuer: ca.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: caPrivate)
        return (try certificate.serializeAsPEM().pemString + "\n", key.pkcs8PEMRepresentation + "\n")
    }

    /// The topics a multi-topic certificate for `bundleID` lists for `kinds`, in order, each
    /// kind once. Throws ``IssueError`` for an empty list or an unknown kind.
    public static func topics(bundleID topic: String, kinds: [String]) throws -> [(topic: String, kind: String)] {
        guard !kinds.isEmpty else {
            throw IssueError("a multi-topic certificate needs at least one kind (app, voip, complication)")
        }
        var list: [(topic: String, kind: String)] = []
        for kind in kinds where !list.contains(where: { $0.kind == kind }) {
            guard let suffix = kindSuffixes.first(where: { $0.key == kind })?.value else {
                throw IssueError("unknown topic kind '\(kind)': use app, voip or complication")
            }
            list.append((topic + suffix, kind))
        }
        return list
    }

    /// The DER value of the topics extension: SEQUENCE { UTF8String topic, SEQUENCE { UTF8String
    /// kind }, … }.
    static func topicsExtensionValue(_ topics: [(topic: String, kind: String)]) throws -> ArraySlice<UInt8> {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            for entry in topics {
                try coder.serialize(ASN1UTF8String(entry.topic))
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(ASN1UTF8String(entry.kind))
                }
            }
        }
        return ArraySlice(serializer.serializedBytes)
    }
}
