import APNSMockCore

/// The body of `POST /v1/webpush/subscriptions`: what a page passes to
/// `pushManager.subscribe(options)` (its `applicationServerKey`), and what the mock adds.
///
/// ```json
/// {"applicationServerKey": "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
///  "origin": "https://example.com", "expirationTime": 1767225600000, "device": {"presence": "offline"}}
/// ```
public struct WebPushSubscriptionSpec: Sendable, Equatable {
    /// The VAPID public key the subscription is bound to: 65 bytes, an uncompressed P-256 point.
    public var applicationServerKey: [UInt8]
    /// The site that subscribed, for records and display.
    public var origin: String?
    /// `PushSubscription.expirationTime`: when it stops taking pushes (epoch ms); `nil`: never.
    public var expirationTime: Int64?
    /// Its browser's device as the delivery model sees it (`device`); standard when left out.
    public var device: DeviceConditions = .standard

    /// The fields of a body.
    public static let fields = ["applicationServerKey", "origin", "expirationTime", "device"]

    /// The fields of a `device` object: a device's presence, its schedule and whether the user
    /// allows notifications (a browser has no app to uninstall, nor a background budget).
    public static let deviceFields = ["presence", "until", "for", "periods", "notifications"]

    /// Reads the body of `PUT /v1/webpush/subscriptions/{id}/device` (`{"presence": "offline",
    /// "for": "10m"}`), at `now` (epoch ms: when `for` starts).
    /// - Throws: `SpecError` naming the field.
    public static func decodeDevice(json body: some Collection<UInt8>, now: Int64) throws(SpecError)
        -> DeviceConditions
    {
        try device(SpecObject(SpecValue.parse(json: body), path: ""), now: now)
    }

    private static func device(_ object: SpecObject, now: Int64) throws(SpecError) -> DeviceConditions {
        try object.rejectUnknownFields(known: deviceFields)
        return try DeviceSpec.conditions(object, now: now)
    }

    /// Reads a body at `now` (epoch ms: when a `device` presence given `for` a while starts).
    /// - Throws: `SpecError` naming the field.
    public static func decode(json body: some Collection<UInt8>, now: Int64) throws(SpecError)
        -> WebPushSubscriptionSpec
    {
        let object = try SpecObject(SpecValue.parse(json: body), path: "")
        try object.rejectUnknownFields(known: fields)
        let keyText = try object.requiredString("applicationServerKey")
        guard let key = Base64URL.decode(keyText), key.count == 65, key[0] == 4,
            WebPushSubscriptionKeys.isPublicKey(key)
        else {
            throw object.error(
                "applicationServerKey",
                "must be a P-256 public key, uncompressed (65 bytes starting with 0x04), in base64url: "
                    + "the VAPID public key a page passes to pushManager.subscribe")
        }
        let origin = try object.string("origin")
        if let origin, !(origin.hasPrefix("https://") || origin.hasPrefix("http://")) {
            throw object.error("origin", "must be a site's origin, such as https://example.com; got '\(origin)'")
        }
        let expirationTime = try object.integer("expirationTime", in: 0...Int64.max)
        var spec = WebPushSubscriptionSpec(applicationServerKey: key, origin: origin, expirationTime: expirationTime)
        if let device = try object.object("device") { spec.device = try Self.device(device, now: now) }
        return spec
    }
}
