/// An HTTP/2 error code (RFC 9113 §7), as sent in `RST_STREAM` and `GOAWAY` frames.
///
/// The type is open: any 32-bit value is a code (unknown ones must be treated as
/// `INTERNAL_ERROR` by a peer, which is worth testing); the static members are the codes RFC
/// 9113 defines, and `name` spells them as the RFC does.
public struct HTTP2ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    public static let noError = HTTP2ErrorCode(0x0)
    public static let protocolError = HTTP2ErrorCode(0x1)
    public static let internalError = HTTP2ErrorCode(0x2)
    public static let flowControlError = HTTP2ErrorCode(0x3)
    public static let settingsTimeout = HTTP2ErrorCode(0x4)
    public static let streamClosed = HTTP2ErrorCode(0x5)
    public static let frameSizeError = HTTP2ErrorCode(0x6)
    public static let refusedStream = HTTP2ErrorCode(0x7)
    public static let cancel = HTTP2ErrorCode(0x8)
    public static let compressionError = HTTP2ErrorCode(0x9)
    public static let connectError = HTTP2ErrorCode(0xA)
    public static let enhanceYourCalm = HTTP2ErrorCode(0xB)
    public static let inadequateSecurity = HTTP2ErrorCode(0xC)
    public static let http11Required = HTTP2ErrorCode(0xD)

    /// RFC 9113's names, indexed by code.
    private static let names = [
        "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED",
        "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM",
        "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
    ]

    /// Every code RFC 9113 defines, in numeric order.
    public static let knownCodes = names.indices.map { HTTP2ErrorCode(UInt32($0)) }

    /// The code named `name` as RFC 9113 spells it (`REFUSED_STREAM`); `nil` for any other text.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(UInt32(index))
    }

    /// RFC 9113's name for the code (`REFUSED_STREAM`); `nil` for a code it does not define.
    public var name: String? {
        rawValue < Self.names.count ? Self.names[Int(rawValue)] : nil
    }

    /// The name, or the number in hex (`0xff`) for a code without one.
    public var description: String { name ?? "0x\(String(rawValue, radix: 16))" }

    /// The code of a JSON value: a name (`"REFUSED_STREAM"`) or a number from 0 to 2³²−1.
    /// - Parameter location: the field's key path, for the message.
    public init(json: JSONValue, at location: String) throws(FaultRuleError) {
        switch json {
        case .string(let text):
            if let code = HTTP2ErrorCode(name: text) {
                self = code
                return
            }
        case .number:
            if let value = FaultFieldReader.integer(json), let code = UInt32(exactly: value) {
                self.init(code)
                return
            }
        default:
            break
        }
        throw FaultRuleError(
            "'\(location)' must be an HTTP/2 error code: one of \(Self.names.joined(separator: ", ")), "
                + "or a number from 0 to \(UInt32.max)"
        )
    }

    /// As a fault rule writes it: the name, or the number for a code without one.
    public var json: JSONValue {
        if let name { return .string(name) }
        return .integer(Int64(rawValue))
    }
}
