extension WebPushVerdict {
    /// What a web push's record keeps of it, as the JSON object of the record's `webPush` field:
    /// `subscriptionId`, `origin`, `vapid` (`subject`, `publicKey`, `expiresAt`; `null` when the
    /// push was refused before VAPID was verified), `ttl`, `urgency`, `topic`,
    /// `contentEncoding`, `bodySize` (the encrypted body's size on the wire), `decrypted` (whether the body decrypted with the subscription's keys)
    /// and `decryption` (`null`, or why it did not: `problem`, a stable code, and `explanation`).
    /// The decrypted plaintext is the record's `payload` (and its size `payloadSize`).
    public var recordJSON: [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.key("subscriptionId")
        json.string(subscriptionID)
        json.key("origin")
        json.string(subscription?.origin)
        json.key("vapid")
        if let vapid {
            json.beginObject()
            json.key("subject")
            json.string(vapid.subject)
            json.key("publicKey")
            json.string(vapid.publicKeyBase64URL)
            json.key("expiresAt")
            json.number(vapid.expiration * 1000)
            json.endObject()
        } else {
            json.null()
        }
        json.key("ttl")
        json.number(ttl)
        json.key("urgency")
        json.string(urgency?.rawValue)
        json.key("topic")
        json.string(topic)
        json.key("contentEncoding")
        json.string(contentEncoding)
        json.key("bodySize")
        json.number(bodyLength)
        json.key("decrypted")
        json.bool(plaintext != nil)
        json.key("decryption")
        if let problem = decryptionProblem {
            json.beginObject()
            json.key("problem")
            json.string(problem.code)
            json.key("explanation")
            json.string(problem.explanation)
            json.endObject()
        } else {
            json.null()
        }
        json.endObject()
        return json.bytes
    }
}
