import APNSMockCore
import APNSMockRegistry
import Testing

/// `GET /v1/devices` pages the registry (issue 40): ascending tokens, `after` exclusive, the
/// count of all devices, and a page that goes on where the last ended even when its last
/// device was removed in between.
struct RegistryDevicePageTests {
    /// Tokens in the order of `index` (four hex digits, then padding to 32 bytes).
    static func token(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return String(repeating: "0", count: 4 - hex.count) + hex + String(repeating: "ab", count: 30)
    }

    @Test func pagesFollowEachOtherInTokenOrder() {
        let tokens = (0..<25).map(Self.token).shuffled()
        let registry = Registry(devices: tokens.map { DeviceRegistration(token: $0) })
        var paged: [String] = []
        var after: String?
        var pages = 0
        while true {
            let page = registry.devicePage(after: after, limit: 10)
            #expect(page.count == 25)
            paged += page.devices.map(\.token)
            pages += 1
            guard page.more else { break }
            after = page.devices.last?.token
        }
        #expect(pages == 3)
        #expect(paged == tokens.sorted())
    }

    @Test func aPageGoesOnAfterARemovedToken() {
        let registry = Registry(devices: (0..<6).map { DeviceRegistration(token: Self.token($0)) })
        let first = registry.devicePage(after: nil, limit: 3)
        #expect(first.devices.map(\.token) == (0..<3).map(Self.token) && first.more)
        registry.removeDevice(Self.token(2))
        let second = registry.devicePage(after: first.devices.last?.token, limit: 3)
        #expect(second.devices.map(\.token) == (3..<6).map(Self.token) && !second.more && second.count == 5)
    }

    @Test func anEmptyRegistryHasOneEmptyPage() {
        let page = Registry().devicePage(after: nil, limit: 1_000)
        #expect(page.devices.isEmpty && !page.more && page.count == 0)
    }
}
