import Testing

@testable import APNSMockCore

@Suite struct HTTP2ErrorCodeTests {
    /// RFC 9113 §7, in full.
    static let registry: [(String, UInt32)] = [
        ("NO_ERROR", 0x0), ("PROTOCOL_ERROR", 0x1), ("INTERNAL_ERROR", 0x2), ("FLOW_CONTROL_ERROR", 0x3),
        ("SETTINGS_TIMEOUT", 0x4), ("STREAM_CLOSED", 0x5), ("FRAME_SIZE_ERROR", 0x6), ("REFUSED_STREAM", 0x7),
        ("CANCEL", 0x8), ("COMPRESSION_ERROR", 0x9), ("CONNECT_ERROR", 0xA), ("ENHANCE_YOUR_CALM", 0xB),
        ("INADEQUATE_SECURITY", 0xC), ("HTTP_1_1_REQUIRED", 0xD),
    ]

    @Test(arguments: registry)
    func namesAreRFC9113s(_ name: String, _ code: UInt32) throws {
        #expect(HTTP2ErrorCode(name: name)?.rawValue == code)
        #expect(HTTP2ErrorCode(code).name == name)
        #expect(try HTTP2ErrorCode(json: .string(name), at: "x") == HTTP2ErrorCode(code))
        #expect(try HTTP2ErrorCode(json: .integer(Int64(code)), at: "x") == HTTP2ErrorCode(code))
        #expect(HTTP2ErrorCode(code).json == .string(name))
    }

    @Test func staticMembersAndUnknownCodes() throws {
        #expect(HTTP2ErrorCode.refusedStream.rawValue == 7)
        #expect(HTTP2ErrorCode.http11Required.name == "HTTP_1_1_REQUIRED")
        #expect(HTTP2ErrorCode.knownCodes.count == 14)
        #expect(HTTP2ErrorCode(0xE).name == nil)
        #expect(HTTP2ErrorCode(0xFF).description == "0xff")
        #expect(HTTP2ErrorCode.cancel.description == "CANCEL")
        #expect(HTTP2ErrorCode(name: "refused_stream") == nil)
        #expect(try HTTP2ErrorCode(json: .integer(4_294_967_295), at: "x").rawValue == .max)
        #expect(HTTP2ErrorCode(0xFF).json == .integer(255))
        #expect(throws: FaultRuleError.self) { try HTTP2ErrorCode(json: .bool(true), at: "x") }
        #expect(throws: FaultRuleError.self) { try HTTP2ErrorCode(json: .integer(-1), at: "x") }
    }
}
