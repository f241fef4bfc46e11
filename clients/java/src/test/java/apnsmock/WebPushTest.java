package apnsmock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A test's Web Push subscription: an application server's push to it (RFC 8030, an ES256 VAPID JWT
 * made here with java.security) is 201 with an apns-id and a record; once the test has ended, the
 * subscription is deleted and a push to it is 410.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebPushTest {
    @RegisterExtension static ApnsMockExtension apns = new ApnsMockExtension();

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static WebPushSubscription firstTests;

    /** An application server's push to the endpoint: {@code Authorization: vapid t=<JWT>, k=<key>}, {@code TTL}, no body. */
    static HttpResponse<String> push(URI endpoint, KeyPair vapidKeys) throws Exception {
        String claims = "{\"aud\":\"https://" + endpoint.getRawAuthority() + "\",\"exp\":"
                + (System.currentTimeMillis() / 1000 + 3600) + ",\"sub\":\"mailto:test@example.com\"}";
        String unsigned = base64url("{\"typ\":\"JWT\",\"alg\":\"ES256\"}") + "." + base64url(claims);
        String authorization = "vapid t=" + unsigned + "." + BASE64URL.encodeToString(sign(unsigned, vapidKeys.getPrivate()))
                + ", k=" + WebPushSubscription.applicationServerKey((ECPublicKey) vapidKeys.getPublic());
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .header("authorization", authorization)
                .header("ttl", "60")
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        return apns.httpClient().send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String base64url(String json) {
        return BASE64URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] sign(String signingInput, PrivateKey key) throws Exception {
        Signature signature = Signature.getInstance("SHA256withECDSAinP1363Format"); // R || S, as JWS wants
        signature.initSign(key);
        signature.update(signingInput.getBytes(StandardCharsets.US_ASCII));
        return signature.sign();
    }

    @Test
    @Order(1)
    void aPushToTheTestsSubscriptionIs201WithAnApnsIdAndARecord() throws Exception {
        WebPushSubscription subscription = apns.webPushSubscription();
        firstTests = subscription;
        assertEquals(apns.client().info().path("webPushUrl").asText(), apns.webPushUri().toString());
        assertEquals(apns.webPushUri() + "/" + subscription.id(), subscription.endpoint().toString());
        assertEquals(apns.webPushUri().toString(), subscription.audience());
        assertEquals(List.of(subscription), apns.scope().webPushSubscriptions());
        assertEquals(32, Base64.getUrlDecoder().decode(subscription.vapidPrivateKeyBase64Url()).length);
        JsonNode pushSubscription = Json.parse(subscription.toJson());
        assertEquals(subscription.endpoint().toString(), pushSubscription.path("endpoint").asText());
        assertEquals(subscription.p256dh(), pushSubscription.path("keys").path("p256dh").asText());

        HttpResponse<String> answer = push(subscription.endpoint(), subscription.vapidKeyPair());
        assertEquals(201, answer.statusCode(), answer.body());
        String apnsId = answer.headers().firstValue("apns-id").orElse("");
        assertFalse(apnsId.isEmpty(), "apns-id");

        List<JsonNode> records = apns.waitFor(Map.of("kind", "webPush", "subscriptionId", subscription.id()));
        assertEquals(1, records.size());
        assertEquals(apnsId.toLowerCase(), records.get(0).path("apnsId").asText().toLowerCase());
        assertEquals(subscription.id(), records.get(0).path("token").asText());
        assertEquals("active", apns.client().getWebPushSubscription(subscription.id()).path("state").asText());
    }

    @Test
    @Order(2)
    void theFirstTestsSubscriptionWasUnsubscribedWhenItEnded() throws Exception {
        assertNotNull(firstTests, "the first test ran");
        assertEquals("deleted", apns.client().getWebPushSubscription(firstTests.id()).path("state").asText());
        assertEquals(410, push(firstTests.endpoint(), firstTests.vapidKeyPair()).statusCode());
        assertTrue(apns.scope().webPushSubscriptions().isEmpty());
    }

    @Test
    @Order(3)
    void aSubscriptionForTheApplicationServersOwnKey(ApnsScope scope) {
        KeyPair own = WebPushSubscription.generateVapidKeyPair();
        WebPushSubscription whole = scope.webPushSubscription(own, "https://example.com", null);
        assertEquals(own, whole.vapidKeyPair());
        assertEquals("https://example.com", whole.origin());
        WebPushSubscription publicOnly = scope.webPushSubscription(whole.applicationServerKey(), null, 4102444800000L);
        assertNull(publicOnly.vapidKeyPair());
        assertNull(publicOnly.vapidPrivateKeyBase64Url());
        assertEquals(4102444800000L, publicOnly.expirationTime());
        assertEquals(Map.of("deliveries", 0, "faults", 0, "webPushSubscriptions", 2), scope.reset());
        assertEquals("deleted", apns.client().getWebPushSubscription(publicOnly.id()).path("state").asText());
        // a webPush record names a subscription, not one of the scope's tokens
        assertThrows(IllegalArgumentException.class, () -> scope.deliveries(Map.of("kind", "webPush")));
    }

    @Test
    @Order(4)
    void aPushHeldWhileTheBrowserIsOfflineIsDeliveredWithTheSameApnsIdOnceSetDevicePutsItOnline(ApnsScope scope)
            throws Exception {
        WebPushSubscription subscription =
                scope.webPushSubscription(WebPushSubscription.options().device(Map.of("presence", "offline")));
        assertEquals("offline", subscription.device().path("presence").asText());
        assertEquals("enabled", subscription.device().path("notifications").asText());

        HttpResponse<String> answer = push(subscription.endpoint(), subscription.vapidKeyPair());
        assertEquals(201, answer.statusCode(), answer.body());
        String apnsId = answer.headers().firstValue("apns-id").orElse("").toLowerCase();
        assertFalse(apnsId.isEmpty(), "apns-id");
        List<JsonNode> stored =
                scope.waitFor(Map.of("kind", "webPush", "subscriptionId", subscription.id(), "delivery", "stored"));
        assertEquals(1, stored.size());
        assertEquals(apnsId, stored.get(0).path("apnsId").asText().toLowerCase());

        JsonNode now = subscription.setDevice(Map.of("presence", "online"));
        assertEquals("online", now.path("device").path("presence").asText());
        assertEquals("online", subscription.device().path("presence").asText());
        assertEquals(now, subscription.json());
        List<JsonNode> delivered =
                scope.waitFor(Map.of("kind", "webPush", "subscriptionId", subscription.id(), "delivery", "delivered"));
        assertEquals(1, delivered.size());
        assertEquals(apnsId, delivered.get(0).path("apnsId").asText().toLowerCase());
        assertEquals(stored.get(0).path("sequence").asLong(), delivered.get(0).path("sequence").asLong());
        List<String> history = new ArrayList<>();
        delivered.get(0).path("deliveryHistory").forEach(step -> history.add(step.path("state").asText()));
        assertEquals(List.of("stored", "delivered"), history);

        AdminException refused = assertThrows(AdminException.class, () -> subscription.setDevice(Map.of("installed", false)));
        assertEquals(400, refused.status());
        assertTrue(refused.apiMessage().contains("installed"), refused.apiMessage());
    }

    @Test
    @Order(5)
    void anEndpointBaseKeepsTheEndpointsPathAndTheAudienceFollows(ApnsScope scope) {
        WebPushSubscription subscription =
                scope.webPushSubscription(WebPushSubscription.options().endpointBase("https://127.0.0.1:40443/"));
        assertEquals("https://127.0.0.1:40443/" + subscription.id(), subscription.endpoint().toString());
        assertEquals("https://127.0.0.1:40443", subscription.audience());
        assertEquals(subscription.endpoint().toString(), Json.parse(subscription.toJson()).path("endpoint").asText());
        assertEquals(apns.webPushUri() + "/" + subscription.id(), subscription.json().path("endpoint").asText());
    }
}
