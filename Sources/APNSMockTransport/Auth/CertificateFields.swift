import SwiftASN1
import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The fields of an X.509 certificate's DER (RFC 5280 §4.1) that reading a provider certificate
/// needs: subject, validity and extensions. The subjectPublicKeyInfo is stepped over, never
/// decoded, and the signature is not checked (OpenSSL did both in the handshake).
struct CertificateFields {
    var subject: DistinguishedName
    var notValidBefore: Date
    var notValidAfter: Date
    var extensions: Certificate.Extensions

    /// Reads `Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }`.
    init(derEncoded bytes: [UInt8]) throws {
        let root = try DER.parse(bytes)
        self = try DER.sequence(root, identifier: .sequence) { nodes in
            guard let tbs = nodes.next(), nodes.next() != nil, nodes.next() != nil else {
                throw ASN1Error.invalidASN1Object(reason: "a certificate is three elements")
            }
            return try Self(tbsCertificate: tbs)
        }
    }

    /// `TBSCertificate ::= SEQUENCE { version [0] EXPLICIT DEFAULT v1, serialNumber, signature,
    /// issuer, validity, subject, subjectPublicKeyInfo, issuerUniqueID [1] OPTIONAL,
    /// subjectUniqueID [2] OPTIONAL, extensions [3] EXPLICIT OPTIONAL }`.
    private init(tbsCertificate node: ASN1Node) throws {
        self = try DER.sequence(node, identifier: .sequence) { nodes in
            var next = nodes.next()
            if next?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) { next = nodes.next() }
            guard next?.identifier == .integer else { throw ASN1Error.invalidASN1Object(reason: "no serial number") }
            guard nodes.next()?.identifier == .sequence, nodes.next()?.identifier == .sequence else {
                throw ASN1Error.invalidASN1Object(reason: "no signature algorithm or issuer")
            }
            guard let validity = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "no validity") }
            let (notBefore, notAfter) = try DER.sequence(validity, identifier: .sequence) { times in
                (try Self.time(times.next()), try Self.time(times.next()))
            }
            guard let subjectNode = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "no subject") }
            let subject = try DistinguishedName(derEncoded: subjectNode)
            guard nodes.next()?.identifier == .sequence else {
                throw ASN1Error.invalidASN1Object(reason: "no subjectPublicKeyInfo")
            }
            var extensions = Certificate.Extensions()
            let extensionsTag = ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific)
            while let optional = nodes.next() {
                guard optional.identifier == extensionsTag else { continue }  // the unique ids
                extensions = try DER.explicitlyTagged(optional, tagNumber: 3, tagClass: .contextSpecific) { inner in
                    try Certificate.Extensions(
                        DER.sequence(of: Certificate.Extension.self, identifier: .sequence, rootNode: inner))
                }
            }
            return CertificateFields(
                subject: subject, notValidBefore: notBefore, notValidAfter: notAfter, extensions: extensions)
        }
    }

    private init(
        subject: DistinguishedName, notValidBefore: Date, notValidAfter: Date, extensions: Certificate.Extensions
    ) {
        self.subject = subject
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        self.extensions = extensions
    }

    /// `Time ::= CHOICE { utcTime UTCTime, generalTime GeneralizedTime }`, in UTC.
    private static func time(_ node: ASN1Node?) throws -> Date {
        guard let node else { throw ASN1Error.invalidASN1Object(reason: "a validity is two times") }
        var components = DateComponents()
        switch node.identifier {
        case .utcTime:
            let time = try UTCTime(derEncoded: node)
            (components.year, components.month, components.day) = (time.year, time.month, time.day)
            (components.hour, components.minute, components.second) = (time.hours, time.minutes, time.seconds)
        case .generalizedTime:
            let time = try GeneralizedTime(derEncoded: node)
            (components.year, components.month, components.day) = (time.year, time.month, time.day)
            (components.hour, components.minute, components.second) = (time.hours, time.minutes, time.seconds)
        default:
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components) else {
            throw ASN1Error.invalidASN1Object(reason: "a time that is no date")
        }
        return date
    }
}
