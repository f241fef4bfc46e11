private import CAPNSMockShims
private import COpenSSL

/// A TLS set-up or handshake failure, in words.
public struct TLSError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }

    /// Empties OpenSSL's thread-local error queue into one line.
    static func drainOpenSSLErrors() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? "unknown OpenSSL error" : messages.joined(separator: "; ")
    }
}
