import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

@testable import APNSMockTransport

/// Reading APNs provider certificates: subject UID, topics extension, environment, garbage.
@Suite struct ProviderCertificateTests {
    static let repositoryRoot: String = {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        return "/" + path.joined(separator: "/")
    }()

    static let null: ArraySlice<UInt8> = [0x05, 0x00]

    /// A self-signed certificate with `subject` and `extensions` (P-256: fast; parsing ignores keys).
    static func certificate(
        uid: String? = "com.example.app", extensions: [Certificate.Extension] = [],
        notValidBefore: Date = Date(timeIntervalSince1970: 1_700_000_000),
        notValidAfter: Date = Date(timeIntervalSince1970: 1_800_000_000)
    ) throws -> Certificate {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        var rdns: [RelativeDistinguishedName] = []
        if let uid {
            rdns.append(RelativeDistinguishedName(.init(type: ProviderCertificate.userIDAttribute, utf8String: uid)))
        }
        rdns.append(
            RelativeDistinguishedName(.init(type: .RDNAttributeType.commonName, utf8String: "Apple Push Services: x")))
        rdns.append(
            RelativeDistinguishedName(.init(type: .RDNAttributeType.organizationalUnitName, utf8String: "DEF123GHIJ")))
        let name = DistinguishedName(rdns)
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: key)
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    static func ext(_ oid: ASN1ObjectIdentifier, _ value: ArraySlice<UInt8> = null) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: value)
    }

    /// The topics extension value for `(topic, kinds)` pairs.
    static func topicsValue(_ entries: [(String, [String])]) throws -> ArraySlice<UInt8> {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            for (topic, kinds) in entries {
                try coder.serialize(ASN1UTF8String(topic))
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    for kind in kinds { try coder.serialize(ASN1UTF8String(kind)) }
                }
            }
        }
        return ArraySlice(serializer.serializedBytes)
    }

    static func committed(_ name: String) throws -> ProviderCertificate {
        let pem = try String(contentsOfFile: repositoryRoot + "/certs/" + name, encoding: .utf8)
        return try ProviderCertificate(certificate: Certificate(pemEncoded: pem))
    }

    // MARK: - Fields

    @Test func singleTopicCertificateHasItsBundleIDAsOnlyTopic() throws {
        let parsed = try ProviderCertificate(
            derEncoded: Self.der(Self.certificate(extensions: [Self.ext(ProviderCertificate.sandboxExtension)])))
        #expect(parsed.bundleID == "com.example.app")
        #expect(parsed.teamID == "DEF123GHIJ")
        #expect(parsed.topics == ["com.example.app"])
        #expect(parsed.topicKinds.isEmpty)
        #expect(!parsed.isMultiTopic)
        #expect(!parsed.isVoIPServices)
        #expect(parsed.environment == .sandbox)
        #expect(parsed.subject == "OU=DEF123GHIJ,CN=Apple Push Services: x,UID=com.example.app")
        #expect(parsed.notValidBefore == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(parsed.notValidAfter == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func multiTopicCertificateListsTopicsInOrderWithKinds() throws {
        let value = try Self.topicsValue([
            ("com.example.app", ["app"]), ("com.example.app.voip", ["voip"]),
            ("com.example.app.complication", ["complication"]),
        ])
        let parsed = try ProviderCertificate(
            certificate: Self.certificate(extensions: [
                Self.ext(ProviderCertificate.productionExtension), Self.ext(ProviderCertificate.topicsExtension, value),
                Self.ext(ProviderCertificate.voipServicesExtension),
            ]))
        #expect(parsed.topics == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        #expect(
            parsed.topicKinds == [
                "com.example.app": ["app"], "com.example.app.voip": ["voip"],
                "com.example.app.complication": ["complication"],
            ])
        #expect(parsed.isMultiTopic)
        #expect(parsed.isVoIPServices)
        #expect(parsed.environment == .production)
    }

    /// A VoIP Services certificate may list its topics in extension 1.2.840.113635.100.6.3.4 only
    /// (issue 39): a `.voip` push on it is then to one of its topics, not BadTopic.
    @Test func voipServicesExtensionListingTopicsGivesThem() throws {
        let value = try Self.topicsValue([("com.example.app", ["app"]), ("com.example.app.voip", ["voip"])])
        let parsed = try ProviderCertificate(
            certificate: Self.certificate(extensions: [
                Self.ext(ProviderCertificate.productionExtension),
                Self.ext(ProviderCertificate.voipServicesExtension, value),
            ]))
        #expect(parsed.topics == ["com.example.app", "com.example.app.voip"])
        #expect(parsed.topicKinds == ["com.example.app": ["app"], "com.example.app.voip": ["voip"]])
        #expect(parsed.isVoIPServices)
        #expect(parsed.isMultiTopic)
    }

    @Test func topicsOfBothExtensionsAreMergedInOrder() throws {
        let both = try Self.topicsValue([("com.example.app", ["app"]), ("com.example.app.voip", ["voip"])])
        let voip = try Self.topicsValue([
            ("com.example.app.voip", ["voip"]), ("com.example.app.complication", ["complication"]),
        ])
        let parsed = try ProviderCertificate(
            certificate: Self.certificate(extensions: [
                Self.ext(ProviderCertificate.topicsExtension, both),
                Self.ext(ProviderCertificate.voipServicesExtension, voip),
            ]))
        #expect(parsed.topics == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        #expect(parsed.topicKinds["com.example.app.voip"] == ["voip"])
    }

    @Test func bareVoIPServicesMarkerListsNoTopics() throws {
        let parsed = try ProviderCertificate(
            certificate: Self.certificate(extensions: [Self.ext(ProviderCertificate.voipServicesExtension)]))
        #expect(parsed.topics == ["com.example.app"])
        #expect(parsed.isVoIPServices)
    }

    @Test func noUIDAndNoTopicsExtensionMeansNoTopics() throws {
        let parsed = try ProviderCertificate(certificate: Self.certificate(uid: nil))
        #expect(parsed.bundleID == nil)
        #expect(parsed.topics.isEmpty)
        #expect(parsed.environment == .unspecified)
    }

    @Test func topicsExtensionWinsOverUID() throws {
        let value = try Self.topicsValue([("com.other.app", ["app"])])
        let parsed = try ProviderCertificate(
            certificate: Self.certificate(extensions: [Self.ext(ProviderCertificate.topicsExtension, value)]))
        #expect(parsed.bundleID == "com.example.app")
        #expect(parsed.topics == ["com.other.app"])
    }

    @Test(arguments: [
        ([ProviderCertificate.sandboxExtension], ProviderCertificate.Environment.sandbox, true, false),
        ([ProviderCertificate.productionExtension], .production, false, true),
        ([ProviderCertificate.sandboxExtension, ProviderCertificate.productionExtension], .both, true, true),
        ([], .unspecified, true, true),
    ])
    func environmentAndAllows(
        _ oids: [ASN1ObjectIdentifier], _ expected: ProviderCertificate.Environment, _ sandbox: Bool,
        _ production: Bool
    ) throws {
        let parsed = try ProviderCertificate(certificate: Self.certificate(extensions: oids.map { Self.ext($0) }))
        #expect(parsed.environment == expected)
        #expect(parsed.allows(environment: .sandbox) == sandbox)
        #expect(parsed.allows(environment: .production) == production)
    }

    // MARK: - Topics extension robustness

    @Test func unknownElementsAreSkippedAndRepeatsMerged() throws {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(7)  // INTEGER, unknown: skipped
            try coder.appendConstructedNode(identifier: .sequence) { coder in  // kinds with no topic: skipped
                try coder.serialize(ASN1UTF8String("voip"))
            }
            try coder.serialize(ASN1UTF8String("com.a"))
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(ASN1UTF8String("app"))
                try coder.serialize(ASN1Null())  // unknown kind element: skipped
                try coder.serialize(ASN1UTF8String("app"))
            }
            try coder.serialize(ASN1OctetString(contentBytes: [1, 2, 3]))
            try coder.serialize(ASN1UTF8String("com.a.voip"))  // no kinds after it
            try coder.serialize(ASN1UTF8String("com.a"))
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(ASN1UTF8String("complication"))
            }
        }
        let parsed = try ProviderCertificate.parseTopics(ArraySlice(serializer.serializedBytes))
        #expect(parsed.topics == ["com.a", "com.a.voip"])
        #expect(parsed.kinds == ["com.a": ["app", "complication"], "com.a.voip": []])
    }

    @Test(arguments: [
        [UInt8](),  // empty
        [0x05, 0x00],  // NULL, not a SEQUENCE
        [0x30, 0x05, 0x0C, 0x03, 0x61],  // truncated
        [0x30, 0x02, 0x0C, 0x00, 0x00],  // trailing byte
        [0x30, 0x03, 0x0C, 0x01, 0xFF],  // UTF8String that is not UTF-8
        [0x30, 0x02, 0x0C, 0x00],  // empty topic
        [0x30, 0x03, 0x0C, 0x81, 0x01],  // non-minimal length
    ])
    func malformedTopicsExtensionThrowsNamingTheExtension(_ value: [UInt8]) throws {
        let certificate = try Self.certificate(
            extensions: [Self.ext(ProviderCertificate.topicsExtension, ArraySlice(value))])
        let error = #expect(throws: ProviderCertificate.ParseError.self) {
            try ProviderCertificate(certificate: certificate)
        }
        #expect(error?.description.contains("1.2.840.113635.100.6.3.6") == true, "\(String(describing: error))")
    }

    /// Checks what a parse that succeeded returned: unique, non-empty topics, each with its kinds
    /// listed once (no kinds at all for a certificate without the topics extension, whose one
    /// topic is its bundle ID).
    static func expectConsistent(_ topics: [String], _ kinds: [String: [String]], _ label: String) {
        #expect(!topics.contains(""), "\(label)")
        #expect(Set(topics).count == topics.count, "\(label): \(topics)")
        #expect(Set(kinds.keys) == Set(topics) || (kinds.isEmpty && topics.count <= 1), "\(label): \(topics) \(kinds)")
        #expect(kinds.values.allSatisfy { Set($0).count == $0.count }, "\(label): \(kinds)")
    }

    /// Seeded: random bytes, valid values, and valid values with a byte changed. A valid value
    /// reads back as written; anything else is a `ParseError` naming the extension, or a
    /// consistent list.
    @Test func randomTopicsExtensionValuesParseBackOrThrowNamingTheExtension() throws {
        var random = FastRandom(seed: (41, 43, 47, 53))
        let allKinds = ["app", "voip", "complication", "fileprovider"]
        var outcomes = (parsed: 0, refused: 0)
        for iteration in 0..<5000 {
            let bytes: [UInt8]
            switch iteration % 3 {
            case 0:
                var noise = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                if !noise.isEmpty && random.next() % 2 == 0 { noise[0] = 0x30 }
                bytes = noise
            default:
                var entries: [(String, [String])] = []
                for index in 0..<Int(random.next() % 4) {
                    let kinds = allKinds.filter { _ in random.next() % 2 == 0 }
                    entries.append(("com.example.app\(index)." + String(random.next() % 1000), kinds))
                }
                var value = Array(try Self.topicsValue(entries))
                if iteration % 3 == 1 {
                    let parsed = try ProviderCertificate.parseTopics(ArraySlice(value))
                    #expect(parsed.topics == entries.map(\.0), "iteration \(iteration)")
                    #expect(parsed.kinds == Dictionary(uniqueKeysWithValues: entries), "iteration \(iteration)")
                    continue
                }
                value[Int(random.next() % UInt64(value.count))] = UInt8(truncatingIfNeeded: random.next())
                bytes = value
            }
            do {
                let parsed = try ProviderCertificate.parseTopics(ArraySlice(bytes))
                outcomes.parsed += 1
                Self.expectConsistent(parsed.topics, parsed.kinds, "iteration \(iteration): \(bytes)")
                #expect(Set(parsed.kinds.keys) == Set(parsed.topics), "iteration \(iteration): \(bytes)")
            } catch {
                outcomes.refused += 1
                #expect(
                    (error as? ProviderCertificate.ParseError)?.description
                        .hasPrefix("malformed topics extension 1.2.840.113635.100.6.3.6: ") == true,
                    "iteration \(iteration): \(error)")
            }
        }
        // Both ends are reached: these seeds give some mutated values that still parse.
        #expect(outcomes.parsed > 0 && outcomes.refused > 0, "\(outcomes)")
    }

    // MARK: - Garbage certificates

    @Test func randomBytesThrowSayingTheyAreNotACertificate() {
        var random = FastRandom(seed: (59, 61, 67, 71))
        for iteration in 0..<2000 {
            var bytes = (0..<Int(random.next() % 512)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if !bytes.isEmpty && random.next() % 2 == 0 { bytes[0] = 0x30 }
            let error = #expect(throws: ProviderCertificate.ParseError.self, "iteration \(iteration)") {
                try ProviderCertificate(derEncoded: bytes)
            }
            #expect(error?.description.hasPrefix("not a DER-encoded X.509 certificate") == true)
        }
    }

    /// Seeded, on the committed multi-topic sample (the same bytes every run). Every proper
    /// prefix is refused; bytes changed anywhere give a `ParseError` or a consistent reading;
    /// bytes changed inside the signature's last 16 bytes (which parsing does not check) give
    /// the original reading.
    @Test func truncatedAndCorruptedDERThrowsOrReadsConsistently() throws {
        let pem = try String(contentsOfFile: Self.repositoryRoot + "/certs/provider-production.pem", encoding: .utf8)
        let der = try Self.der(Certificate(pemEncoded: pem))
        let original = try ProviderCertificate(derEncoded: der)
        #expect(original.topics.count == 3)
        for length in 0..<der.count {
            #expect(throws: ProviderCertificate.ParseError.self) {
                try ProviderCertificate(derEncoded: Array(der.prefix(length)))
            }
        }
        var random = FastRandom(seed: (73, 79, 83, 89))
        var outcomes = (parsed: 0, refused: 0)
        // The RSA key is corrupted too: reading never decodes it (swift-crypto's
        // `_RSA.Signing.PublicKey(derRepresentation:)` frees a key BoringSSL refuses twice, a
        // double free AddressSanitizer reported when this reading went through it). Half of the
        // runs change bytes inside the key.
        let key = try #require(Self.rsaKeyRange(in: der))
        for iteration in 0..<3000 {
            var corrupted = der
            for _ in 0...(random.next() % 4) {
                let position =
                    iteration % 2 == 0
                    ? key.lowerBound + Int(random.next() % UInt64(key.count))
                    : Int(random.next() % UInt64(der.count))
                corrupted[position] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                let parsed = try ProviderCertificate(derEncoded: corrupted)
                outcomes.parsed += 1
                Self.expectConsistent(parsed.topics, parsed.topicKinds, "iteration \(iteration)")
                if corrupted == der { #expect(parsed == original) }
            } catch {
                outcomes.refused += 1
                #expect(error is ProviderCertificate.ParseError, "iteration \(iteration): \(error)")
            }
        }
        #expect(outcomes.parsed > 0 && outcomes.refused > 0, "\(outcomes)")
        for _ in 0..<500 {
            var corrupted = der
            corrupted[der.count - 1 - Int(random.next() % 16)] = UInt8(truncatingIfNeeded: random.next())
            #expect(try ProviderCertificate(derEncoded: corrupted) == original)
        }
    }

    /// The byte range of the RSA public key (the subjectPublicKey BIT STRING's contents) in a
    /// certificate's DER: after the rsaEncryption AlgorithmIdentifier.
    static func rsaKeyRange(in der: [UInt8]) -> Range<Int>? {
        let algorithm: [UInt8] = [
            0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00,
        ]
        guard
            let start = (0...(der.count - algorithm.count)).first(where: {
                Array(der[$0..<($0 + algorithm.count)]) == algorithm
            })
        else { return nil }
        // BIT STRING, long-form length of two bytes (a 2048-bit key).
        let bitString = start + algorithm.count
        guard der[bitString] == 0x03, der[bitString + 1] == 0x82 else { return nil }
        let length = Int(der[bitString + 2]) << 8 | Int(der[bitString + 3])
        return (bitString + 4)..<(bitString + 4 + length)
    }

    @Test func notACertificateErrorIsReadable() {
        let error = #expect(throws: ProviderCertificate.ParseError.self) {
            try ProviderCertificate(derEncoded: Array("hello".utf8))
        }
        #expect(error?.description.hasPrefix("not a DER-encoded X.509 certificate") == true)
    }

    // MARK: - Committed samples (issued by `apns-mock certs generate --client`)

    @Test func committedSandboxSampleIsSingleTopicSandbox() throws {
        let parsed = try Self.committed("provider-sandbox.pem")
        #expect(parsed.bundleID == "com.example.app")
        #expect(parsed.topics == ["com.example.app"])
        #expect(!parsed.isMultiTopic)
        #expect(!parsed.isVoIPServices)
        #expect(parsed.environment == .sandbox)
        #expect(parsed.allows(environment: .sandbox))
        #expect(!parsed.allows(environment: .production))
        #expect(parsed.subject.contains("UID=com.example.app"))
        #expect(parsed.subject.contains("OU=DEF123GHIJ"))
    }

    @Test func committedProductionSampleIsMultiTopicProduction() throws {
        let parsed = try Self.committed("provider-production.pem")
        #expect(parsed.bundleID == "com.example.app")
        #expect(parsed.topics == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        #expect(parsed.topicKinds["com.example.app.voip"] == ["voip"])
        #expect(parsed.isMultiTopic)
        #expect(parsed.isVoIPServices)
        #expect(parsed.environment == .production)
        #expect(parsed.allows(environment: .production))
        #expect(!parsed.allows(environment: .sandbox))
    }

    @Test(arguments: ["provider-sandbox", "provider-production"])
    func committedSampleChainsToTheCAAndMatchesItsKey(_ name: String) throws {
        let root = Self.repositoryRoot + "/certs/"
        let certificate = try Certificate(pemEncoded: String(contentsOfFile: root + name + ".pem", encoding: .utf8))
        let ca = try Certificate(pemEncoded: String(contentsOfFile: root + "ca.pem", encoding: .utf8))
        #expect(certificate.issuer == ca.subject)
        #expect(ca.publicKey.isValidSignature(certificate.signature, for: certificate))
        let key = try Certificate.PrivateKey(
            pemEncoded: String(contentsOfFile: root + name + "-key.pem", encoding: .utf8))
        #expect(key.publicKey == certificate.publicKey)
        let bundle = try String(contentsOfFile: root + name + "-bundle.pem", encoding: .utf8)
        #expect(
            bundle
                == (try String(contentsOfFile: root + name + ".pem", encoding: .utf8))
                + (try String(contentsOfFile: root + name + "-key.pem", encoding: .utf8)))
    }
}
