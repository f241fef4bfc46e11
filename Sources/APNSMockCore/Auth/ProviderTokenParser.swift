import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Parses provider tokens as real clients send them: `iat` as an integer, a float or a numeric
/// string; a header with or without `typ`; JSON with whitespace; extra claims; the signature as
/// raw r||s (64 bytes) or DER (Pushy).
///
/// The header and the claims are read by the project's JSON reader (`JSONValue`); a name given
/// twice counts by its last value, as RFC 7515 (section 5.2) lets a JWS parser do.
public enum ProviderTokenParser {
    /// The token after `bearer ` (scheme case-insensitive), or `nil` when the header is not a
    /// bearer credential.
    public static func bearerToken(fromAuthorization value: String) -> Substring? {
        var value = value
        guard let range = value.withUTF8(bearerTokenRange) else { return nil }
        let utf8 = value.utf8
        return Substring(
            utf8[
                utf8.index(
                    utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
                        utf8.startIndex, offsetBy: range.upperBound)])
    }

    /// Where the token sits in an `authorization` value's bytes (`bearer <token>`, scheme
    /// case-insensitive, spaces around ignored), or `nil` when it is not a bearer credential.
    /// Works on bytes: this runs for every push.
    public static func bearerTokenRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let space = UInt8(ascii: " ")
        var cursor = 0
        while cursor < bytes.count, bytes[cursor] == space { cursor += 1 }
        let scheme: StaticString = "bearer "
        let matched = scheme.withUTF8Buffer { expectedBytes -> Bool in
            for expected in expectedBytes {
                guard cursor < bytes.count else { return false }
                let byte = bytes[cursor]
                // ASCII letters compare case-insensitively (0x20 is the case bit); the space exactly.
                guard byte == expected || (expected != space && byte | 0x20 == expected) else { return false }
                cursor += 1
            }
            return true
        }
        guard matched else { return nil }
        while cursor < bytes.count, bytes[cursor] == space { cursor += 1 }
        var end = bytes.count
        while end > cursor, bytes[end - 1] == space { end -= 1 }
        return cursor < end ? cursor..<end : nil
    }

    /// Takes `token` apart (see the `Substring` overload).
    public static func parse(_ token: String) -> ParsedProviderToken? { parse(token[...]) }

    /// Takes `token` apart; `nil` when it is not a well-formed ES256-shaped JWT with `kid`,
    /// `iss` and `iat`.
    public static func parse(_ token: Substring) -> ParsedProviderToken? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = Base64URL.decodeData(parts[0]), let claimsData = Base64URL.decodeData(parts[1]),
            let signatureBytes = Base64URL.decodeData(parts[2]),
            let header = jsonObject(headerData), let claims = jsonObject(claimsData),
            let algorithm = string("alg", in: header), let keyID = string("kid", in: header), !keyID.isEmpty,
            let teamID = string("iss", in: claims), !teamID.isEmpty,
            let issuedAt = seconds(member("iat", of: claims))
        else { return nil }
        let signature: [UInt8]
        if signatureBytes.count == 64 {
            signature = Array(signatureBytes)
        } else if let der = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes) {
            signature = Array(der.rawRepresentation)
        } else {
            return nil
        }
        let signingInput = Array(token[token.startIndex..<parts[1].endIndex].utf8)
        return ParsedProviderToken(
            algorithm: algorithm, keyID: keyID, teamID: teamID, issuedAt: issuedAt, signingInput: signingInput,
            signature: signature)
    }

    /// Why `parse` refused `token`, in words: the first thing wrong with it, checked in the order
    /// a reader of the token meets them (parts, header, `alg`, `kid`, claims, signature). Only
    /// for a refused token: it parses again to say what is wrong.
    public static func problem(with token: Substring) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return
                "the provider token has \(parts.count) part\(parts.count == 1 ? "" : "s") separated by '.'; a JWT has three (header.claims.signature, base64url)"
        }
        guard let headerData = Base64URL.decodeData(parts[0]),
            let header = jsonObject(headerData)
        else { return "the provider token's header (its first part) is not a base64url-encoded JSON object" }
        guard let algorithm = string("alg", in: header) else {
            return "the provider token's header has no 'alg'; APNs takes ES256"
        }
        guard algorithm == "ES256" else {
            return
                "the provider token's alg is '\(algorithm)'; APNs accepts only ES256 (an ECDSA P-256 signature with your .p8 key)"
        }
        guard let keyID = string("kid", in: header), !keyID.isEmpty else {
            return "the provider token's header has no 'kid' (the 10-character key id of your .p8 key)"
        }
        guard let claimsData = Base64URL.decodeData(parts[1]),
            let claims = jsonObject(claimsData)
        else { return "the provider token's claims (its second part) are not a base64url-encoded JSON object" }
        guard let teamID = string("iss", in: claims), !teamID.isEmpty else {
            return "the provider token's claims have no 'iss' (your 10-character team id)"
        }
        guard seconds(member("iat", of: claims)) != nil else {
            return "the provider token's claims have no 'iat' as a number of seconds since 1970"
        }
        guard let signature = Base64URL.decodeData(parts[2]) else {
            return "the provider token's signature (its third part) is not base64url"
        }
        return
            "the provider token's signature is \(signature.count) bytes; an ES256 signature is 64 (r||s) or DER-encoded"
    }

    /// The members of the JSON object `bytes` hold, in order; `nil` when they are not JSON or
    /// not an object.
    static func jsonObject(_ bytes: Data) -> [(key: String, value: JSONValue)]? {
        guard case .object(let members)? = JSONValue.parse(bytes) else { return nil }
        return members
    }

    /// The value of `name` in `members`: its last, when the name is given twice.
    static func member(_ name: String, of members: [(key: String, value: JSONValue)]) -> JSONValue? {
        members.last { $0.key == name }?.value
    }

    /// The value of `name` in `members` when it is a string.
    static func string(_ name: String, in members: [(key: String, value: JSONValue)]) -> String? {
        guard case .string(let text)? = member(name, of: members) else { return nil }
        return text
    }

    /// `iat` as an integer, a float or a numeric string, in whole seconds (not a boolean,
    /// `null`, an array or an object).
    static func seconds(_ value: JSONValue?) -> Int64? {
        switch value {
        case .string(let string)?:
            guard let number = Double(string.trimmingWhitespace(newlines: false)), number.isFinite else {
                return nil
            }
            return Int64(exactly: number.rounded(.down))
        case .number(let double, _)?:
            guard double.isFinite, abs(double) < 1e15 else { return nil }
            return Int64(double.rounded(.down))
        default:
            return nil
        }
    }
}
