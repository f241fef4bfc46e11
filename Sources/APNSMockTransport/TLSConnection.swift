private import CAPNSMockShims
private import COpenSSL

/// One server-side TLS session over memory BIOs: ciphertext in, plaintext out, and back.
///
/// Owns an `SSL*` (which owns its two memory BIOs), freed in `deinit`. Not thread-safe: used
/// only from its connection's event loop.
final class TLSConnection {
    private let ssl: OpaquePointer
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    private(set) var handshakeComplete = false
    /// Reused for every SSL_read and BIO_read (no allocation per read).
    private var scratch = [UInt8](repeating: 0, count: 16_384)
    /// Set when the handshake failed because the client offered ALPN without `h2`.
    private(set) var refusedForALPN = false

    /// Result of feeding ciphertext.
    enum Event {
        case needMoreData
        case handshakeCompleted
        case failed(String)
    }

    init(context: TLSServerContext) throws {
        guard let ssl = SSL_new(context.context) else {
            throw TLSError("cannot create a TLS session: \(TLSError.drainOpenSSLErrors())")
        }
        guard let rbio = BIO_new(BIO_s_mem()), let wbio = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSError("cannot create memory BIOs")
        }
        self.ssl = ssl
        self.readBIO = rbio
        self.writeBIO = wbio
        SSL_set_bio(ssl, rbio, wbio)
        SSL_set_accept_state(ssl)
    }

    deinit {
        SSL_free(ssl)
    }

    /// Hands ciphertext received from the network to OpenSSL.
    func receiveCiphertext(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = BIO_write(readBIO, base, Int32(bytes.count))
    }

    /// Advances the handshake with what has been received.
    func driveHandshake() -> Event {
        if handshakeComplete { return .handshakeCompleted }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            handshakeComplete = true
            return .handshakeCompleted
        }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return .needMoreData }
        let code = ERR_peek_error()
        if code != 0, apnsmock_error_is_no_application_protocol(code) != 0 { refusedForALPN = true }
        return .failed(TLSError.drainOpenSSLErrors())
    }

    /// Reads all decrypted bytes available, appending them to `plaintext`.
    /// - Returns: `false` when the peer closed TLS or the session failed.
    func readPlaintext(into plaintext: inout [UInt8]) -> Bool {
        while true {
            ERR_clear_error()
            let count = scratch.withUnsafeMutableBytes { buffer -> Int32 in
                let count = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
                if count > 0 { plaintext.append(contentsOf: buffer.bindMemory(to: UInt8.self).prefix(Int(count))) }
                return count
            }
            if count > 0 { continue }
            let error = SSL_get_error(ssl, count)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return true }
            ERR_clear_error()
            return false
        }
    }

    /// Encrypts `bytes` for sending; the ciphertext waits in the write BIO.
    func writePlaintext(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = SSL_write(ssl, bytes.baseAddress! + offset, Int32(bytes.count - offset))
            if written <= 0 {
                ERR_clear_error()
                return
            }
            offset += Int(written)
        }
    }

    /// Sends close_notify.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Number of ciphertext bytes waiting to be sent.
    var pendingCiphertext: Int { Int(apnsmock_bio_pending(writeBIO)) }

    /// Moves the waiting ciphertext into `body`, which receives a raw buffer of `count` bytes.
    func drainCiphertext(_ body: (UnsafeRawBufferPointer) -> Void) {
        while pendingCiphertext > 0 {
            let count = scratch.withUnsafeMutableBytes { buffer -> Int32 in
                let count = BIO_read(writeBIO, buffer.baseAddress, Int32(buffer.count))
                if count > 0 { body(UnsafeRawBufferPointer(rebasing: buffer[0..<Int(count)])) }
                return count
            }
            if count <= 0 { return }
        }
    }

    /// The SNI host name the client sent.
    var serverName: String? {
        guard let name = apnsmock_ssl_server_name(ssl) else { return nil }
        return String(cString: name)
    }

    /// The ALPN protocol selected, if any.
    var alpnProtocol: String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = apnsmock_ssl_alpn(ssl, &buffer, Int32(buffer.count))
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The client certificate (DER) and the verification verdict: `nil` error when trusted.
    var peerCertificate: (der: [UInt8], verificationError: String?)? {
        var pointer: UnsafeMutablePointer<UInt8>?
        let length = apnsmock_ssl_peer_certificate_der(ssl, &pointer)
        guard length > 0, let pointer else { return nil }
        defer { apnsmock_free(pointer) }
        let der = Array(UnsafeBufferPointer(start: pointer, count: Int(length)))
        let result = apnsmock_ssl_verify_result(ssl)
        let error = result == 0 ? nil : String(cString: apnsmock_verify_error_string(result))
        return (der, error)
    }

    /// "TLSv1.3" and the like.
    var protocolVersion: String { String(cString: apnsmock_ssl_version(ssl)) }
}
