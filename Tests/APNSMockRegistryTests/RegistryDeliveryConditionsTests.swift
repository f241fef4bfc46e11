import APNSMockCore
import APNSMockRegistry
import Testing

/// The registry as the delivery store's `DeliveryConditionsSource` (issue 40): the store keeps no
/// inbox for a device that holds nothing, and reads its conditions here when a push comes.
struct RegistryDeliveryConditionsTests {
    static let offline = DeviceConditions(presence: .offline)

    /// `hasDeliveryConditions` counts the devices whose conditions are not the standard ones, through
    /// every path that changes them: the start-up devices, a put, a bulk put, a removal, a reset.
    @Test func itSaysWhetherAnyDeviceHasConditionsThroughEveryChange() {
        let registry = Registry(devices: [DeviceRegistration(token: "aa01", conditions: Self.offline)])
        #expect(registry.hasDeliveryConditions)
        #expect(registry.deliveryConditions(of: "aa01") == Self.offline)
        registry.putDevice(DeviceRegistration(token: "aa01"))
        #expect(!registry.hasDeliveryConditions, "set back to the standard conditions")
        #expect(registry.deliveryConditions(of: "aa01") == nil)
        registry.putDevices([
            DeviceRegistration(token: "aa02", conditions: Self.offline),
            DeviceRegistration(token: "aa03", conditions: DeviceConditions(notificationsEnabled: false)),
        ])
        #expect(registry.hasDeliveryConditions)
        #expect(registry.removeDevice("aa02"))
        #expect(registry.hasDeliveryConditions, "aa03 still has its conditions")
        registry.putDevices([DeviceRegistration(token: "aa03")])
        #expect(!registry.hasDeliveryConditions)
        registry.putDevice(DeviceRegistration(token: "aa04", conditions: Self.offline))
        registry.reset(keys: [], devices: [DeviceRegistration(token: "aa05")])
        #expect(!registry.hasDeliveryConditions, "a reset to a setup without conditions")
        registry.reset(keys: [], devices: [DeviceRegistration(token: "aa06", conditions: Self.offline)])
        #expect(registry.hasDeliveryConditions)
        #expect(registry.deliveryConditions(of: "aa06") == Self.offline)
        #expect(registry.deliveryConditions(of: "ffff") == nil, "an unknown device")
    }

    /// A subscription's browser: its conditions by its delivery key; unsubscribed, the conditions
    /// that discard what comes (a push answered before the unsubscription, judged after).
    @Test func aWebPushSubscriptionsConditionsAndAnUnsubscribedOnes() {
        let registry = Registry()
        let subscription = registry.createWebPushSubscription(
            applicationServerKey: Array(repeating: 4, count: 65), origin: nil, expiresAt: nil,
            conditions: Self.offline, now: 1_000)
        let key = WebPushSubscription.deliveryKey(subscription.id)
        #expect(registry.hasDeliveryConditions)
        #expect(registry.deliveryConditions(of: key) == Self.offline)
        registry.setWebPushConditions(.standard, of: subscription.id)
        #expect(!registry.hasDeliveryConditions)
        #expect(registry.deliveryConditions(of: key) == nil)
        registry.deleteWebPushSubscription(subscription.id, now: 2_000)
        #expect(registry.deliveryConditions(of: key) == WebPushSubscription.unsubscribedConditions(at: 2_000))
    }
}
