import APNSMockCore
import Testing

/// `APNSPushType`: the values of `apns-push-type` and their payload limits ("Sending
/// notification requests to APNs": 4096 bytes, 5120 for VoIP).
@Suite("APNSPushType")
struct PushTypeTests {
    @Test("The documented push types, in order")
    func allCases() {
        #expect(
            APNSPushType.allCases.map(\.rawValue) == [
                "alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity",
                "pushtotalk", "widgets", "controls",
            ])
    }

    @Test("Payload limits", arguments: APNSPushType.allCases)
    func payloadLimit(_ type: APNSPushType) {
        #expect(type.payloadLimit == (type == .voip ? 5120 : 4096))
        #expect(type.payloadLimit <= APNSPushType.largestPayloadLimit)
    }

    @Test("largestPayloadLimit is the largest limit")
    func largest() {
        #expect(APNSPushType.largestPayloadLimit == APNSPushType.allCases.map(\.payloadLimit).max())
    }

    @Test("Storage codes round-trip", arguments: APNSPushType.allCases)
    func codes(_ type: APNSPushType) {
        #expect(APNSPushType(code: type.code) == type)
    }

    @Test("Storage codes are distinct and out-of-range codes give nil")
    func codeRange() {
        #expect(Set(APNSPushType.allCases.map(\.code)).count == APNSPushType.allCases.count)
        #expect(APNSPushType(code: UInt8(APNSPushType.allCases.count)) == nil)
        #expect(APNSPushType(code: .max) == nil)
    }
}
