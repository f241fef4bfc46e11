import APNSMockCore

/// A frame the server sent that says something about a stream's answer or the connection's end:
/// HEADERS, DATA, RST_STREAM and GOAWAY, read from the raw bytes (so a test sees the error codes,
/// the last stream id and the debug data as they went over the wire). SETTINGS, PING and
/// WINDOW_UPDATE are left out.
enum ServerFrame: Equatable, CustomStringConvertible {
    case headers(stream: Int32, endStream: Bool)
    case data(stream: Int32, endStream: Bool)
    case resetStream(stream: Int32, HTTP2ErrorCode)
    case goAway(lastStream: Int32, HTTP2ErrorCode, debug: String)

    /// The frames of these kinds in `bytes`, whole frames only, in wire order.
    static func frames(in bytes: [UInt8]) -> [ServerFrame] {
        var frames: [ServerFrame] = []
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard offset + 9 + length <= bytes.count else { break }
            let type = bytes[offset + 3]
            let endStream = bytes[offset + 4] & 0x1 != 0
            let stream = Int32(bitPattern: word(bytes, at: offset + 5) & 0x7FFF_FFFF)
            let payload = Array(bytes[offset + 9..<offset + 9 + length])
            switch type {
            case 0: frames.append(.data(stream: stream, endStream: endStream))
            case 1: frames.append(.headers(stream: stream, endStream: endStream))
            case 3: frames.append(.resetStream(stream: stream, HTTP2ErrorCode(word(payload, at: 0))))
            case 7:
                frames.append(
                    .goAway(
                        lastStream: Int32(bitPattern: word(payload, at: 0) & 0x7FFF_FFFF),
                        HTTP2ErrorCode(word(payload, at: 4)),
                        debug: String(decoding: payload[8...], as: UTF8.self)))
            default: break
            }
            offset += 9 + length
        }
        return frames
    }

    /// The big-endian 32-bit word at `offset`.
    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    var description: String {
        switch self {
        case .headers(let stream, let endStream): "HEADERS \(stream)\(endStream ? " END_STREAM" : "")"
        case .data(let stream, let endStream): "DATA \(stream)\(endStream ? " END_STREAM" : "")"
        case .resetStream(let stream, let code): "RST_STREAM \(stream) \(code)"
        case .goAway(let lastStream, let code, let debug): "GOAWAY \(lastStream) \(code) \(debug)"
        }
    }
}
