/// Where the delivery store reads the conditions of a device (or of a Web Push subscription's
/// browser) that has no inbox yet, when a push for it is accepted: the registry, which holds
/// them already. So the store keeps an inbox only for what holds or counts something, not one per
/// device whose conditions differ from the standard ones (a million offline devices, holding
/// nothing, cost the store nothing).
public protocol DeliveryConditionsSource: AnyObject, Sendable {
    /// Whether any device or subscription has conditions other than the standard ones: asked
    /// for every accepted push, so it must be cheap (an atomic read). While it is false no push is
    /// judged, and none costs a look-up.
    var hasDeliveryConditions: Bool { get }

    /// The conditions of inbox `key` now (a device's token in lower case, or
    /// `WebPushSubscription.deliveryKey`), `nil` when they are the standard ones or the key is
    /// unknown. Called under the store's lock: it must not call the store.
    func deliveryConditions(of key: String) -> DeviceConditions?
}
