extension DeviceView {
    /// Writes the view as `GET /v1/devices/{token}/notifications` answers it:
    ///
    /// ```json
    /// {"token": "abab…", "now": 1795331883008,
    ///  "conditions": {"presence": "online", "notifications": "enabled", "installed": true,
    ///                 "backgroundPushesPerHour": null},
    ///  "notifications": [{"sequence": 2, "apnsId": "…", "topic": "com.example.app",
    ///                     "collapseId": "score", "deliveredAt": 1795331883008, "replaced": 1,
    ///                     "preview": {"title": "Hello", "silent": false}}],
    ///  "notificationCount": 1,
    ///  "badges": {"com.example.app": 3},
    ///  "liveActivities": [{"topic": "com.example.app.push-type.liveactivity", "channelId": null,
    ///                      "event": "update", "contentState": {…}, "staleDate": null,
    ///                      "dismissalDate": null, "ended": false, "endedAt": null, "stale": false,
    ///                      "dismissed": false, "updatedAt": 1795331883008, "sequence": 3,
    ///                      "apnsId": "…", "pushes": 2}],
    ///  "stored": [{"sequence": 4, "apnsId": "…", "topic": "com.example.app", "channelId": null,
    ///              "cause": "offline", "storedAt": 1795331883008, "until": 1797923883008,
    ///              "preview": {…}}]}
    /// ```
    ///
    /// `presence` is the presence at `now` (a scheduled period's, if one is running);
    /// `notifications` lists at most `notificationLimit` (the newest), `notificationCount`
    /// counts them all.
    public func write(to json: inout JSONWriter, notificationLimit: Int = .max) {
        json.beginObject()
        json.key("token")
        json.string(token)
        json.key("now")
        json.number(now)
        json.key("conditions")
        json.beginObject()
        json.key("presence")
        json.string(presence.rawValue)
        json.key("notifications")
        json.string(conditions.notificationsEnabled ? "enabled" : "disabled")
        json.key("installed")
        json.bool(conditions.installed)
        json.key("backgroundPushesPerHour")
        json.number(conditions.backgroundPushesPerHour)
        json.endObject()
        json.key("notifications")
        json.beginArray()
        for notification in notifications.prefix(max(0, notificationLimit)) {
            json.beginObject()
            json.key("sequence")
            json.number(notification.sequence)
            json.key("apnsId")
            json.string(notification.apnsID)
            json.key("topic")
            json.string(notification.topic)
            json.key("collapseId")
            json.string(notification.collapseID)
            json.key("deliveredAt")
            json.number(notification.deliveredAt)
            json.key("replaced")
            json.number(notification.replaced)
            json.key("preview")
            Self.write(notification.preview, to: &json)
            json.endObject()
        }
        json.endArray()
        json.key("notificationCount")
        json.number(notifications.count)
        json.key("badges")
        json.beginObject()
        for badge in badges {
            json.key(escaping: badge.topic)
            json.number(badge.badge)
        }
        json.endObject()
        json.key("liveActivities")
        json.beginArray()
        for activity in liveActivities { write(activity, to: &json) }
        json.endArray()
        json.key("stored")
        json.beginArray()
        for item in stored {
            json.beginObject()
            json.key("sequence")
            json.number(item.sequence)
            json.key("apnsId")
            json.string(item.apnsID)
            json.key("topic")
            json.string(item.topic)
            json.key("channelId")
            json.string(item.channelID)
            json.key("cause")
            json.string(item.cause.rawValue)
            json.key("storedAt")
            json.number(item.storedAt)
            json.key("until")
            json.number(item.until)
            json.key("preview")
            Self.write(item.preview, to: &json)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    private func write(_ activity: LiveActivity, to json: inout JSONWriter) {
        json.beginObject()
        json.key("topic")
        json.string(activity.topic)
        json.key("channelId")
        json.string(activity.channelID)
        json.key("event")
        json.string(activity.event)
        json.key("contentState")
        if let contentState = activity.contentState { contentState.write(to: &json) } else { json.null() }
        json.key("staleDate")
        json.number(activity.staleDate)
        json.key("dismissalDate")
        json.number(activity.dismissalDate)
        json.key("ended")
        json.bool(activity.ended)
        json.key("endedAt")
        json.number(activity.endedAt)
        json.key("stale")
        json.bool(activity.isStale(at: now))
        json.key("dismissed")
        json.bool(activity.isDismissed(at: now))
        json.key("updatedAt")
        json.number(activity.updatedAt)
        json.key("sequence")
        json.number(activity.sequence)
        json.key("apnsId")
        json.string(activity.apnsID)
        json.key("pushes")
        json.number(activity.pushes)
        json.endObject()
    }

    private static func write(_ preview: NotificationPreview?, to json: inout JSONWriter) {
        if let preview { preview.write(to: &json) } else { json.null() }
    }

    /// The view as JSON bytes.
    public func json(notificationLimit: Int = .max) -> [UInt8] {
        var json = JSONWriter(capacity: 1024)
        write(to: &json, notificationLimit: notificationLimit)
        return json.bytes
    }
}
