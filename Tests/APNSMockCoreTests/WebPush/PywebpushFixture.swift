import APNSMockCore
import Testing

/// A push as a real Web Push library sends it: pywebpush 2.5.0 (with py-vapid 1.9.6 and
/// http_ece 1.2.1, from PyPI), made once on 2026-11-29 and kept here as bytes. How: in a venv,
/// `pip install pywebpush`; a P-256 key pair and `auth` = bytes 1…16 for the subscription, a
/// fresh `py_vapid.Vapid()` key, `Vapid.sign({"sub": "mailto:push@example.com", "aud":
/// "https://webpush.apns-mock.test:8443", "exp": 1800043200})` for the Authorization header, and
/// `WebPusher(subscription)._prepare_send_data(data=plaintext, headers=…, ttl=60,
/// content_encoding="aes128gcm")` for the body and the other headers (what `webpush()` sends).
enum PywebpushFixture {
    static let userAgentPrivateKey = "IwjAj9zh5bLl_TthVD44Dq0cJJ7yTqnKtmImHwZuZ7Y"
    static let p256dh = "BIoEW552T3V-UioXwEIfIjmugwtmSDN_RTnXgIGkD00AstsYvWDgK-pb-lVTlCuFtCpGkKlMKeWOiYKtsik62DI"
    static let auth = "AQIDBAUGBwgJCgsMDQ4PEA"
    static let applicationServerKey =
        "BDUpxVMbDXn8aKtlNkoTgPvODkQVFnKAwN_Nyu3P-x7PnOKa4ULiuNCOILh_qFQpx3BUPUXRikRCJABWLKJ5o8g"
    static let plaintext =
        #"{"web_push": 8030, "notification": {"title": "From pywebpush", "navigate": "https://example.com/"}}"#
    /// The Authorization header as py-vapid writes it: no space after the comma.
    static let authorization = "vapid t=" + token + ",k=" + applicationServerKey
    static let token =
        "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.eyJhdWQiOiJodHRwczovL3dlYnB1c2guYXBucy1tb2NrLnRlc3Q6ODQ0MyI"
        + "sImV4cCI6MTgwMDA0MzIwMCwic3ViIjoibWFpbHRvOnB1c2hAZXhhbXBsZS5jb20ifQ.5Py0R5mZq8vhHl_ofJv0SCy7-wJU"
        + "PdIAUm1s6Yo_danusDVSB_1VZEJp2n0B1GSeSnXhwj-mURaVWi3lVAHUcw"
    static let body =
        "aiVB1jubOKQx0yOj0tolBAAAEABBBI63_pb9ICcbDQPyIAa09sA7yeOBzPAqQwW3Sm37S63GrJ81ZfKJ0HHKHlqae4l3x_zk"
        + "Qg2ZSPOgH0HB_ngzch4vCpdeeYg1ur4A5Uy3SkDSbLPvWCB89TbLt9J8Y6SMx9bJIMuhvDtD_u7yhP7Q9OmlyqihLPIk24H6"
        + "xKnbsiB9NotgeOJC-7eQohpLTkRCNGB_cEwVCgFYKKCt11bPHyVeaIVOH5nKJ5kqf00ra_dKiVJCQw"
    /// The other headers pywebpush sends.
    static let headers = [
        HTTPHeaderField(name: "content-encoding", value: "aes128gcm"),
        HTTPHeaderField(name: "ttl", value: "60"),
    ]
    /// An instant before the token's exp (1800043200), epoch milliseconds.
    static let now: Int64 = 1_800_000_000_000

    static var keys: WebPushSubscriptionKeys {
        WebPushSubscriptionKeys(
            rawPrivateKey: Base64URL.decode(userAgentPrivateKey)!, authSecret: Base64URL.decode(auth)!)!
    }
}

@Suite("pywebpush's push, as bytes: the rules accept it and decrypt it")
struct PywebpushFixtureTests {
    @Test("The subscription keys give pywebpush's p256dh")
    func keys() {
        #expect(PywebpushFixture.keys.p256dh == PywebpushFixture.p256dh)
    }

    @Test("http_ece's aes128gcm body decrypts to the plaintext")
    func decrypts() throws {
        let plaintext = try WebPushPayloadDecryption.decrypt(
            Base64URL.decode(PywebpushFixture.body)!, with: PywebpushFixture.keys
        ).get()
        #expect(plaintext == Array(PywebpushFixture.plaintext.utf8))
        #expect(DeclarativeWebPushLinter.lint(plaintext) == [])
    }

    @Test("py-vapid's Authorization header verifies")
    func vapid() throws {
        let claims = try VAPIDVerifier.verify(
            authorization: PywebpushFixture.authorization,
            applicationServerKey: Base64URL.decode(PywebpushFixture.applicationServerKey)!,
            audience: "https://webpush.apns-mock.test:8443", now: PywebpushFixture.now
        ).get()
        #expect(claims.subject == "mailto:push@example.com" && claims.expiration == 1_800_043_200)
    }

    @Test("The whole push is accepted (201) and decrypted by WebPushRequestRules")
    func push() {
        let subscription = WebPushSubscription(
            id: "sub-pywebpush", applicationServerKey: Base64URL.decode(PywebpushFixture.applicationServerKey)!,
            keys: PywebpushFixture.keys)
        let request = WebPushRequest(
            method: "POST", path: "/sub-pywebpush",
            headers: [HTTPHeaderField(name: "authorization", value: PywebpushFixture.authorization)]
                + PywebpushFixture.headers,
            body: Base64URL.decode(PywebpushFixture.body)!)
        let verdict = WebPushRequestRules().evaluate(
            request, endpointOrigin: "https://webpush.apns-mock.test:8443", now: PywebpushFixture.now
        ) { $0 == subscription.id ? subscription : nil }
        #expect(verdict.status == 201 && verdict.reason == nil, "\(verdict.detail ?? "")")
        #expect(verdict.ttl == 60)
        #expect(verdict.plaintext == Array(PywebpushFixture.plaintext.utf8))
    }
}
