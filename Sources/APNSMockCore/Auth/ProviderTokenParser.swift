import Crypto
import Foundation

/// Parses provider tokens as real clients send them: `iat` as an integer, a float or a numeric
/// string; a header with or without `typ`; JSON with whitespace; extra claims; the signature as
/// raw r||s (64 bytes) or DER (Pushy).
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
            let headerData = base64URLDecode(parts[0]), let claimsData = base64URLDecode(parts[1]),
            let signatureBytes = base64URLDecode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any],
            let algorithm = header["alg"] as? String, let keyID = header["kid"] as? String, !keyID.isEmpty,
            let teamID = claims["iss"] as? String, !teamID.isEmpty,
            let issuedAt = seconds(claims["iat"])
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
        guard let headerData = base64URLDecode(parts[0]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any]
        else { return "the provider token's header (its first part) is not a base64url-encoded JSON object" }
        guard let algorithm = header["alg"] as? String else {
            return "the provider token's header has no 'alg'; APNs takes ES256"
        }
        guard algorithm == "ES256" else {
            return
                "the provider token's alg is '\(algorithm)'; APNs accepts only ES256 (an ECDSA P-256 signature with your .p8 key)"
        }
        guard let keyID = header["kid"] as? String, !keyID.isEmpty else {
            return "the provider token's header has no 'kid' (the 10-character key id of your .p8 key)"
        }
        guard let claimsData = base64URLDecode(parts[1]),
            let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
        else { return "the provider token's claims (its second part) are not a base64url-encoded JSON object" }
        guard let teamID = claims["iss"] as? String, !teamID.isEmpty else {
            return "the provider token's claims have no 'iss' (your 10-character team id)"
        }
        guard seconds(claims["iat"]) != nil else {
            return "the provider token's claims have no 'iat' as a number of seconds since 1970"
        }
        guard let signature = base64URLDecode(parts[2]) else {
            return "the provider token's signature (its third part) is not base64url"
        }
        return
            "the provider token's signature is \(signature.count) bytes; an ES256 signature is 64 (r||s) or DER-encoded"
    }

    /// `iat` as an integer, a float or a numeric string, in whole seconds.
    static func seconds(_ value: Any?) -> Int64? {
        switch value {
        case let string as String:
            guard let number = Double(string.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                return nil
            }
            return Int64(exactly: number.rounded(.down))
        case let number as NSNumber:
            let double = number.doubleValue
            guard double.isFinite, abs(double) < 1e15 else { return nil }
            return Int64(double.rounded(.down))
        default:
            return nil
        }
    }

    /// Base64url (padding optional) to bytes.
    static func base64URLDecode(_ text: Substring) -> Data? {
        guard !text.isEmpty else { return nil }
        var base64 = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = base64.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }
}
