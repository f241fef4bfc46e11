import APNSMockCore
import APNSMockRegistry

extension FuzzTarget {
    /// A channel-management body, two ways: as the body of APNs' `POST
    /// /1/apps/<bundleId>/channels` (create a channel), judged by the channel rules on a
    /// token connection; and as the admin API's `POST /v1/channels` body (`ChannelSpec`).
    static let channelBody = FuzzTarget(
        name: "channel-body",
        summary: "a channel-management body -> ChannelRules (create) and ChannelSpec.decode(json:)",
        maximumLength: 2048
    ) { bytes in
        let request = APNSRequest(
            method: "POST", path: ChannelRules.pathPrefix + FuzzFixtures.topic + "/channels",
            authority: "api-manage-broadcast.sandbox.push.apple.com",
            headers: [
                HTTPHeaderField(name: "authorization", value: "bearer " + FuzzFixtures.providerToken),
                HTTPHeaderField(name: "apns-request-id", value: "0F0E0D0C-0B0A-4908-8706-050403020100"),
            ],
            payload: bytes)
        let context = ConnectionContext(registry: FuzzFixtures.registry, now: FuzzFixtures.now)
        let verdict = ServiceRules().evaluate(request, context: context, service: .channelManagement)
        checkVerdict(verdict)
        do throws(SpecError) {
            _ = try ChannelSpec.decode(json: bytes)
        } catch {
            _ = error.description
        }
    }
}
