import APNSMockCore
import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A provider (token-signing) key as written in `PUT /v1/keys/{keyId}` bodies and in
/// `setup.keys` of the configuration file, read into a `ProviderKey`.
///
/// ```json
/// {"teamId": "DEF123GHIJ", "publicKey": "-----BEGIN PUBLIC KEY-----…",
///  "environment": "both", "topics": ["com.example.app"], "relatedKeyId": "XYZ987WVUT"}
/// ```
///
/// Exactly one of `publicKey` (PEM `PUBLIC KEY`) or `privateKey` (the text of Apple's `.p8`
/// file, PEM `PRIVATE KEY`) is given; the configuration file also takes `publicKeyFile` or
/// `privateKeyFile`. Of a private key only the public half is kept: it is never stored, logged
/// or echoed. Key and team ids are letters and digits; Apple's are 10 characters
/// (`ABC123DEFG`), and any non-empty length is accepted so tests can use short ones.
public enum ProviderKeySpec {
    /// The fields of a `PUT /v1/keys/{keyId}` body.
    public static let bodyFields = [
        "keyId", "teamId", "publicKey", "privateKey", "environment", "topics", "relatedKeyId",
    ]
    /// The fields of a `setup.keys` entry: the body's, and key files.
    public static let setupFields = bodyFields + ["publicKeyFile", "privateKeyFile"]

    /// The length of Apple's key and team ids (others are accepted too).
    public static let appleIDLength = 10

    /// Reads the body of `PUT /v1/keys/{keyID}` (a `keyId` field, if any, must match).
    /// - Throws: `SpecError` naming the field (the path is empty when the body itself is wrong).
    public static func decode(json body: some Collection<UInt8>, keyID: String) throws(SpecError) -> ProviderKey {
        let object = try SpecObject(SpecValue.parse(json: body), path: "")
        try object.rejectUnknownFields(known: bodyFields)
        return try decode(object, keyID: keyID, baseDirectory: nil)
    }

    /// Reads one entry of `setup.keys`; key files are read relative to `baseDirectory`.
    /// - Throws: `SpecError` naming the field by its full key path.
    public static func decode(setup object: SpecObject, baseDirectory: String) throws(SpecError) -> ProviderKey {
        try object.rejectUnknownFields(known: setupFields)
        return try decode(object, keyID: nil, baseDirectory: baseDirectory)
    }

    /// Whether `id` can be a key or team id: non-empty ASCII letters and digits.
    public static func isValidID(_ id: some StringProtocol) -> Bool {
        !id.isEmpty
            && id.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            }
    }

    /// The sentence completing "`keyId` …" for an id that `isValidID` refuses.
    package static func idProblem(_ id: String) -> String {
        "must be letters and digits (Apple's are \(appleIDLength) characters, e.g. ABC123DEFG); got '\(id)'"
    }

    private static func decode(_ object: SpecObject, keyID pathKeyID: String?, baseDirectory: String?)
        throws(SpecError) -> ProviderKey
    {
        let keyID: String
        if let pathKeyID {
            if let bodyKeyID = try object.string("keyId"), bodyKeyID != pathKeyID {
                throw object.error("keyId", "'\(bodyKeyID)' does not match the key id '\(pathKeyID)' in the path")
            }
            keyID = pathKeyID
        } else {
            keyID = try object.requiredString("keyId")
        }
        guard isValidID(keyID) else { throw object.error("keyId", idProblem(keyID)) }
        let teamID = try object.requiredString("teamId")
        guard isValidID(teamID) else { throw object.error("teamId", idProblem(teamID)) }
        let publicKey = try readPublicKey(object, baseDirectory: baseDirectory)
        let environment =
            try object.choice(
                "environment", ["sandbox": EnvironmentScope.sandbox, "production": .production, "both": .both]) ?? .both
        let topics = try object.strings("topics") ?? []
        for (index, topic) in topics.enumerated() where topic.isEmpty {
            throw SpecError(path: SpecError.join(object.path(of: "topics"), index: index), problem: "must not be empty")
        }
        let relatedKeyID = try object.string("relatedKeyId")
        if let relatedKeyID {
            guard isValidID(relatedKeyID) else { throw object.error("relatedKeyId", idProblem(relatedKeyID)) }
            guard !topics.isEmpty else {
                throw object.error("relatedKeyId", "is only for a topic-specific key; give topics too")
            }
            guard relatedKeyID != keyID else { throw object.error("relatedKeyId", "must name another key") }
        }
        return ProviderKey(
            keyID: keyID, teamID: teamID, publicKey: publicKey, environment: environment, topics: topics,
            relatedKeyID: relatedKeyID)
    }

    /// The public key from whichever one of the key fields is given.
    private static func readPublicKey(_ object: SpecObject, baseDirectory: String?) throws(SpecError)
        -> P256.Signing.PublicKey
    {
        let candidates =
            baseDirectory == nil
            ? ["publicKey", "privateKey"] : ["publicKey", "privateKey", "publicKeyFile", "privateKeyFile"]
        let given = candidates.filter { object.has($0) }
        guard given.count == 1, let field = given.first else {
            let list = candidates.dropLast().joined(separator: ", ") + " or " + candidates[candidates.count - 1]
            let got = given.isEmpty ? "none" : given.joined(separator: " and ")
            throw SpecError(
                path: object.path, problem: "must have exactly one of \(list) (PEM text); got \(got)")
        }
        switch field {
        case "publicKey":
            return try publicKey(fromPublicPEM: try object.requiredString(field), field: object.path(of: field))
        case "privateKey":
            return try publicKey(fromPrivatePEM: try object.requiredString(field), field: object.path(of: field))
        default:
            let path = try object.requiredString(field)
            let fullPath = resolve(path, against: baseDirectory ?? "")
            let text: String
            do {
                text = try FileProblem.readText(fullPath)
            } catch {
                throw object.error(field, "names a file that cannot be read: '\(fullPath)': \(error)")
            }
            return field == "publicKeyFile"
                ? try publicKey(fromPublicPEM: text, field: object.path(of: field), file: fullPath)
                : try publicKey(fromPrivatePEM: text, field: object.path(of: field), file: fullPath)
        }
    }

    /// Parses a PEM `PUBLIC KEY` (EC P-256).
    /// - Throws: `SpecError` at `field`, naming the `file` it came from if any.
    public static func publicKey(fromPublicPEM pem: String, field: String, file: String? = nil) throws(SpecError)
        -> P256.Signing.PublicKey
    {
        if let key = try? P256.Signing.PublicKey(pemRepresentation: pem.trimmingWhitespace()) {
            return key
        }
        let source = file.map { "('\($0)') " } ?? ""
        if pem.contains("PRIVATE KEY") {
            let other = file == nil ? "privateKey" : "privateKeyFile"
            throw SpecError(
                path: field, problem: "\(source)holds a private key, not a public key; give it as \(other)")
        }
        throw SpecError(
            path: field, problem: "\(source)is not a PEM EC P-256 public key")
    }

    /// Derives the public key from a PEM `PRIVATE KEY` (a `.p8` file's text) or `EC PRIVATE KEY`.
    /// The private key is dropped at once; errors never quote it.
    /// - Throws: `SpecError` at `field`, naming the `file` it came from if any.
    public static func publicKey(fromPrivatePEM pem: String, field: String, file: String? = nil) throws(SpecError)
        -> P256.Signing.PublicKey
    {
        if let key = try? P256.Signing.PrivateKey(
            pemRepresentation: pem.trimmingWhitespace())
        {
            return key.publicKey
        }
        let source = file.map { "('\($0)') " } ?? ""
        if pem.contains("PUBLIC KEY") {
            let other = file == nil ? "publicKey" : "publicKeyFile"
            throw SpecError(
                path: field, problem: "\(source)holds a public key, not a private key; give it as \(other)")
        }
        throw SpecError(
            path: field,
            problem: "\(source)is not a PEM EC P-256 private key (the text of a .p8 file)")
    }

    /// `path` as is when absolute, else relative to `directory`.
    public static func resolve(_ path: String, against directory: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    /// Writes `{"keyId","teamId","environment","topics","relatedKeyId","publicKey"}`.
    package static func write(_ key: ProviderKey, to json: inout JSONWriter) {
        json.beginObject()
        json.key("keyId")
        json.string(key.keyID)
        json.key("teamId")
        json.string(key.teamID)
        json.key("environment")
        json.string(key.environment.rawValue)
        json.key("topics")
        json.beginArray()
        for topic in key.topics { json.string(topic) }
        json.endArray()
        json.key("relatedKeyId")
        json.string(key.relatedKeyID)
        json.key("publicKey")
        json.string(key.publicKey?.pemRepresentation)
        json.endObject()
    }
}
