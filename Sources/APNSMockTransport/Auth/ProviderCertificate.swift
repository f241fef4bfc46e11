import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import SwiftASN1
import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an APNs provider (client) certificate says about the app it was issued for.
///
/// Apple issues a provider certificate for one app ("Establishing a certificate-based
/// connection to APNs"):
///
/// - the subject's UID attribute (`0.9.2342.19200300.100.1.1`) is the app's bundle ID;
/// - extension `1.2.840.113635.100.6.3.6` lists every topic the certificate may push to, as one
///   SEQUENCE that alternates a UTF8String topic and a SEQUENCE of UTF8String kinds (`app`,
///   `voip`, `complication`);
/// - extension `1.2.840.113635.100.6.3.4` marks a VoIP Services certificate;
/// - extension `1.2.840.113635.100.6.3.1` allows the development (sandbox) environment and
///   `1.2.840.113635.100.6.3.2` production; a certificate with both is universal.
///
/// Parsing never verifies the signature or the chain; it only reads what the certificate claims.
public struct ProviderCertificate: Sendable, Equatable {
    /// Which APNs environments a provider certificate is issued for.
    public enum Environment: String, Sendable, CaseIterable {
        /// Development only (extension `1.2.840.113635.100.6.3.1`).
        case sandbox
        /// Production only (extension `1.2.840.113635.100.6.3.2`).
        case production
        /// Both environments: a universal certificate (both extensions).
        case both
        /// Neither extension. Apple's certificates always carry one; apns-mock treats such a
        /// certificate like `both`, so ``ProviderCertificate/allows(environment:)`` is `true`
        /// for either environment.
        case unspecified
    }

    /// Why a certificate could not be read as a provider certificate.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// One line saying what is wrong.
        public var description: String

        /// Makes an error with the given message.
        public init(_ description: String) { self.description = description }
    }

    /// The subject UID attribute: the app's bundle ID.
    public static let userIDAttribute: ASN1ObjectIdentifier = [0, 9, 2342, 19_200_300, 100, 1, 1]
    /// Development (sandbox) environment marker; its value is ASN.1 NULL.
    public static let sandboxExtension: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 1]
    /// Production environment marker; its value is ASN.1 NULL.
    public static let productionExtension: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 2]
    /// VoIP Services certificate marker.
    public static let voipServicesExtension: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 4]
    /// The topics of a multi-topic certificate.
    public static let topicsExtension: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 6]

    /// The subject distinguished name as text, most significant attribute first
    /// (`C=US,O=…,OU=<team id>,CN=Apple Push Services: <bundle id>,UID=<bundle id>`).
    public var subject: String
    /// The subject UID: the bundle ID of the app the certificate was issued for.
    public var bundleID: String?
    /// The subject's organizational unit: for Apple's certificates, the team ID.
    public var teamID: String?
    /// The topics the certificate may push to: those of extension `1.2.840.113635.100.6.3.6` in
    /// order, then those a VoIP Services extension (`1.2.840.113635.100.6.3.4`) lists that it did
    /// not; `[bundleID]` when neither lists any; empty when there is no bundle ID either.
    public var topics: [String]
    /// The kinds (`app`, `voip`, `complication`, …) extension `1.2.840.113635.100.6.3.6` lists
    /// for each topic; empty when the extension is absent.
    public var topicKinds: [String: [String]]
    /// `true` when the certificate carries the VoIP Services marker (`1.2.840.113635.100.6.3.4`).
    public var isVoIPServices: Bool
    /// The environments the certificate is issued for.
    public var environment: Environment
    /// Start of the validity period.
    public var notValidBefore: Date
    /// End of the validity period.
    public var notValidAfter: Date

    /// More than one topic: a push must name its topic in `apns-topic`.
    public var isMultiTopic: Bool { topics.count > 1 }

    /// Reads a DER-encoded certificate: only the fields a provider certificate's reading needs
    /// (subject, validity, extensions). The public key is never decoded: the client's key was
    /// already checked by OpenSSL in the handshake, and swift-crypto frees an RSA key that
    /// BoringSSL refuses twice (`_RSA.Signing.PublicKey(derRepresentation:)`), which a client
    /// certificate would otherwise reach. Throws ``ParseError`` for anything that is not an X.509
    /// certificate or whose topics extension is malformed.
    public init(derEncoded bytes: [UInt8]) throws {
        let fields: CertificateFields
        do {
            fields = try CertificateFields(derEncoded: bytes)
        } catch {
            throw ParseError("not a DER-encoded X.509 certificate: \(error)")
        }
        try self.init(
            subject: fields.subject, notValidBefore: fields.notValidBefore, notValidAfter: fields.notValidAfter,
            extensions: fields.extensions)
    }

    /// Reads the provider fields of `certificate`. Throws ``ParseError`` when its topics
    /// extension is malformed.
    public init(certificate: Certificate) throws {
        try self.init(
            subject: certificate.subject, notValidBefore: certificate.notValidBefore,
            notValidAfter: certificate.notValidAfter, extensions: certificate.extensions)
    }

    private init(
        subject name: DistinguishedName, notValidBefore: Date, notValidAfter: Date,
        extensions: Certificate.Extensions
    ) throws {
        subject = Self.describe(name)
        bundleID = Self.firstAttribute(Self.userIDAttribute, in: name)
        teamID = Self.firstAttribute(.RDNAttributeType.organizationalUnitName, in: name)
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        isVoIPServices = extensions[oid: Self.voipServicesExtension] != nil

        let sandbox = extensions[oid: Self.sandboxExtension] != nil
        let production = extensions[oid: Self.productionExtension] != nil
        switch (sandbox, production) {
        case (true, true): environment = .both
        case (true, false): environment = .sandbox
        case (false, true): environment = .production
        case (false, false): environment = .unspecified
        }

        // A VoIP Services certificate lists its topics in its own extension (6.3.4) as well as in
        // 6.3.6, or only there; a 6.3.4 that is the bare marker (ASN.1 NULL) lists none.
        var lists: [(value: ArraySlice<UInt8>, oid: ASN1ObjectIdentifier)] = []
        if let topicsExtension = extensions[oid: Self.topicsExtension] {
            lists.append((topicsExtension.value, Self.topicsExtension))
        }
        if let voip = extensions[oid: Self.voipServicesExtension], voip.value.first == 0x30 {
            lists.append((voip.value, Self.voipServicesExtension))
        }
        if lists.isEmpty {
            topics = bundleID.map { [$0] } ?? []
            topicKinds = [:]
        } else {
            topics = []
            topicKinds = [:]
            for list in lists {
                let parsed = try Self.parseTopics(list.value, extension: list.oid)
                for topic in parsed.topics where !topics.contains(topic) { topics.append(topic) }
                for (topic, kinds) in parsed.kinds {
                    topicKinds[topic, default: []].append(
                        contentsOf: kinds.filter { !(topicKinds[topic] ?? []).contains($0) })
                }
            }
        }
    }

    /// Whether the certificate may connect to `environment`. An ``Environment/unspecified``
    /// certificate may connect to either.
    public func allows(environment: APNSEnvironment) -> Bool {
        switch (self.environment, environment) {
        case (.both, _), (.unspecified, _), (.sandbox, .sandbox), (.production, .production): return true
        case (.sandbox, .production), (.production, .sandbox): return false
        }
    }

    /// Reads the value of extension `1.2.840.113635.100.6.3.6`: one SEQUENCE alternating a
    /// UTF8String topic and a SEQUENCE of UTF8String kinds. Elements of other types are
    /// skipped, as is a kinds SEQUENCE with no topic before it; the kinds of a topic listed twice
    /// are merged.
    static func parseTopics(_ value: ArraySlice<UInt8>, extension oid: ASN1ObjectIdentifier = topicsExtension) throws
        -> (topics: [String], kinds: [String: [String]])
    {
        func malformed(_ why: String) -> ParseError {
            ParseError("malformed topics extension \(oid): \(why)")
        }
        let root: ASN1Node
        do {
            root = try DER.parse(value)
        } catch {
            throw malformed("not DER (\(error))")
        }
        guard root.identifier == .sequence, case .constructed(let elements) = root.content else {
            throw malformed("expected a SEQUENCE, found \(root.identifier)")
        }
        var topics: [String] = []
        var kinds: [String: [String]] = [:]
        var current: String?
        for element in elements {
            switch element.identifier {
            case .utf8String:
                let topic = try utf8(element, malformed)
                if topic.isEmpty { throw malformed("empty topic") }
                if kinds[topic] == nil {
                    topics.append(topic)
                    kinds[topic] = []
                }
                current = topic
            case .sequence:
                guard case .constructed(let kindNodes) = element.content else {
                    throw malformed("a SEQUENCE that is not constructed")
                }
                guard let topic = current else { continue }
                for node in kindNodes where node.identifier == .utf8String {
                    let kind = try utf8(node, malformed)
                    if kinds[topic]?.contains(kind) == false { kinds[topic]?.append(kind) }
                }
                current = nil
            default:
                continue
            }
        }
        return (topics, kinds)
    }

    private static func utf8(_ node: ASN1Node, _ malformed: (String) -> ParseError) throws -> String {
        let bytes: ArraySlice<UInt8>
        do {
            bytes = try ASN1UTF8String(derEncoded: node).bytes
        } catch {
            throw malformed("bad UTF8String (\(error))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw malformed("a UTF8String that is not valid UTF-8")
        }
        return text
    }

    private static func firstAttribute(_ type: ASN1ObjectIdentifier, in name: DistinguishedName) -> String? {
        for rdn in name {
            for attribute in rdn where attribute.type == type {
                if let text = String(attribute.value) { return text }
            }
        }
        return nil
    }

    /// RFC 4514 order and escaping (as swift-certificates prints names), with the UID
    /// attribute labelled `UID` rather than by its object identifier.
    private static func describe(_ name: DistinguishedName) -> String {
        name.reversed().map { rdn in
            rdn.map { attribute in
                attribute.type == userIDAttribute ? "UID=\(attribute.value)" : String(describing: attribute)
            }.joined(separator: "+")
        }.joined(separator: ",")
    }
}
