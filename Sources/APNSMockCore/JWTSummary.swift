import Foundation

/// The decoded header and claims of a provider token, for the record. The signature is never
/// kept or shown. No verification happens here.
public struct JWTSummary: Sendable {
    /// The JOSE header as JSON text, or `nil` when it does not decode.
    public var headerJSON: String?
    /// The claims as JSON text, or `nil` when they do not decode.
    public var claimsJSON: String?

    /// Cuts the signature off an `authorization` value (`bearer <h>.<c>.<sig>` becomes
    /// `bearer <h>.<c>`), cheaply (bytes, no Character walking), so the record can keep the rest.
    public static func strippingSignature(_ authorization: String) -> String {
        let dot = UInt8(ascii: ".")
        let cut = authorization.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard let lastDot = bytes.lastIndex(of: dot), bytes[..<lastDot].contains(dot) else { return nil }
            return lastDot
        }
        switch cut {
        case .some(.some(let offset)):
            return String(authorization.utf8.prefix(offset))!
        case .some(.none):
            return authorization
        case .none:
            // A bridged, non-contiguous string: rare, take the slow path.
            let utf8 = authorization.utf8
            guard let lastDot = utf8.lastIndex(of: dot), utf8[..<lastDot].contains(dot) else { return authorization }
            return String(authorization[..<lastDot])
        }
    }

    /// Decodes `bearer <h>.<c>` (or with a signature) into header and claims.
    public init(authorization: String) {
        var value = Substring(authorization)
        if let space = value.firstIndex(of: " ") {
            value = value[value.index(after: space)...].drop(while: { $0 == " " })
        }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        headerJSON = parts.count >= 1 ? Self.decodeSegment(parts[0]) : nil
        claimsJSON = parts.count >= 2 ? Self.decodeSegment(parts[1]) : nil
    }

    /// Base64url-decodes one JWT segment to text, when it is JSON.
    static func decodeSegment(_ segment: Substring) -> String? {
        guard let data = ProviderTokenParser.base64URLDecode(segment),
            (try? JSONSerialization.jsonObject(with: data)) != nil
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
