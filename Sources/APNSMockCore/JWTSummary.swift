#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
        var authorization = authorization
        guard let cut = authorization.withUTF8(signatureCut) else { return authorization }
        return String(authorization.utf8.prefix(cut))!
    }

    /// Where the signature part of a token (or `authorization` value) starts: the offset of
    /// its last `.` when there is another `.` before it, else `nil`.
    public static func signatureCut(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // Dot to dot with memchr (a JWT has two): this runs for every recorded push with a token.
        let dot = UInt8(ascii: ".")
        guard var lastDot = ASCIIBytes.firstIndex(of: dot, in: bytes) else { return nil }
        var dots = 1
        while let next = ASCIIBytes.firstIndex(of: dot, in: UnsafeBufferPointer(rebasing: bytes[(lastDot + 1)...])) {
            lastDot += 1 + next
            dots += 1
        }
        return dots >= 2 ? lastDot : nil
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
        guard let data = Base64URL.decodeData(segment) else { return nil }
        let bytes = [UInt8](data)
        guard bytes.withUnsafeBufferPointer(JSONSyntax.check) != .invalid else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
