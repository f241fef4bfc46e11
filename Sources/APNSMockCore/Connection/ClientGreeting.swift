/// What the first bytes a client sends on an APNs port say about how it speaks: TLS (as it
/// must), or cleartext (an `http://` URL, or HTTP/2 with prior knowledge and no TLS).
///
/// A TLS client's first record is a handshake record (content type 22, 0x16) carrying its
/// ClientHello; no HTTP/1.x request starts with that byte, and neither does the HTTP/2 client
/// preface, so one byte tells TLS apart. Telling a cleartext HTTP/2 client (`PRI * HTTP/2.0…`)
/// from HTTP/1.x (`POST …`) takes up to the 24 bytes of the preface.
public enum ClientGreeting: Sendable, Equatable {
    /// A TLS handshake record: the normal case.
    case tls
    /// A prefix of the HTTP/2 client preface, which could still be HTTP/1.x: more bytes needed.
    case undecided
    /// The HTTP/2 client preface in cleartext (h2c with prior knowledge).
    case cleartextHTTP2
    /// Anything else that is not TLS: an HTTP/1.x request line, or other text.
    case plaintext

    /// The TLS record content type of a handshake message.
    public static let tlsHandshakeRecord: UInt8 = 0x16

    /// The HTTP/2 client connection preface (RFC 9113 §3.4), in cleartext before h2c and inside
    /// TLS before the first frame.
    public static let http2Preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Classifies the bytes received so far (at least one).
    public init(_ bytes: some Collection<UInt8>) {
        guard let first = bytes.first else {
            self = .undecided
            return
        }
        if first == Self.tlsHandshakeRecord {
            self = .tls
        } else if bytes.starts(with: Self.http2Preface) {
            self = .cleartextHTTP2
        } else if Self.http2Preface.starts(with: bytes) {
            self = .undecided
        } else {
            self = .plaintext
        }
    }
}
