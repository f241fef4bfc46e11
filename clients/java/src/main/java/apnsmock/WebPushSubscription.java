package apnsmock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

/**
 * A Web Push subscription the mock made, as a browser makes one for a page that calls {@code
 * pushManager.subscribe({applicationServerKey})} ({@code POST /v1/webpush/subscriptions}), with
 * the VAPID key pair it was made for when that was generated or given.
 *
 * <p>What the page would send its application server: {@link #endpoint()}, {@link #p256dh()},
 * {@link #auth()} and {@link #expirationTime()}, together {@link #toJson()} (the W3C {@code
 * PushSubscription} JSON, which Web Push libraries read as it is). {@link #id()} names it in the
 * admin API and in the records of the pushes sent to it ({@code kind=webPush}, {@code
 * subscriptionId=<id>}).
 *
 * <p>The mock checks each push's {@code Authorization: vapid t=<JWT>, k=<key>}: {@code k} is
 * {@link #applicationServerKey()}, the JWT is signed ES256 with its private half ({@link
 * #vapidKeyPair()}), its {@code aud} is {@link #audience()}, its {@code exp} at most 24 hours
 * ahead and its {@code sub} a {@code mailto:} or {@code https:} URL; a {@code TTL} header is
 * required. Success is 201 with {@code apns-id}.
 *
 * <p>{@link #close()} unsubscribes it: a push to it is then answered 410. {@link
 * ApnsScope#webPushSubscription()} closes the test's when the test ends.
 */
public final class WebPushSubscription implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private final AdminClient client;
    private final JsonNode json;
    private final KeyPair vapidKeyPair;

    WebPushSubscription(AdminClient client, JsonNode json, KeyPair vapidKeyPair) {
        this.client = client;
        this.json = json;
        this.vapidKeyPair = vapidKeyPair;
    }

    /** A new VAPID key pair: EC P-256 (RFC 8292). */
    public static KeyPair generateVapidKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException error) {
            throw new IllegalStateException("this JVM cannot generate an EC P-256 key: " + error, error);
        }
    }

    /**
     * The {@code applicationServerKey} of a VAPID public key: its uncompressed P-256 point (65
     * bytes, {@code 0x04 || X || Y}), base64url without padding; also the {@code k=} of a push's
     * {@code Authorization}.
     */
    public static String applicationServerKey(ECPublicKey publicKey) {
        byte[] point = new byte[65];
        point[0] = 4;
        unsigned(publicKey.getW().getAffineX(), point, 1);
        unsigned(publicKey.getW().getAffineY(), point, 33);
        return BASE64URL.encodeToString(point);
    }

    private static void unsigned(BigInteger value, byte[] into, int offset) {
        byte[] bytes = value.toByteArray();
        int length = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - length, into, offset + 32 - length, length);
    }

    /**
     * Subscribes through {@code client}: for {@code applicationServerKey} (base64url) when given,
     * else for {@code vapidKeyPair}'s public key, else for a P-256 key pair generated here.
     */
    static WebPushSubscription create(AdminClient client, String applicationServerKey, KeyPair vapidKeyPair,
            String origin, Long expirationTime) {
        KeyPair keys = vapidKeyPair;
        String key = applicationServerKey;
        if (key == null) {
            if (keys == null) {
                keys = generateVapidKeyPair();
            }
            if (!(keys.getPublic() instanceof ECPublicKey publicKey)) {
                throw new IllegalArgumentException("a VAPID key pair is EC P-256, not " + keys.getPublic().getAlgorithm());
            }
            key = applicationServerKey(publicKey);
        }
        ObjectNode body = Json.MAPPER.createObjectNode().put("applicationServerKey", key);
        if (origin != null) {
            body.put("origin", origin);
        }
        if (expirationTime != null) {
            body.put("expirationTime", expirationTime.longValue());
        }
        JsonNode created = client.call(GeneratedOperations.CREATE_WEB_PUSH_SUBSCRIPTION, null, null, body);
        return new WebPushSubscription(client, created, keys);
    }

    /** Its id: the matcher's {@code subscriptionId}, its records' {@code token}, the endpoint's last path segment. */
    public String id() {
        return json.path("id").asText();
    }

    /** The URL the application server POSTs pushes to. */
    public URI endpoint() {
        return URI.create(json.path("endpoint").asText());
    }

    /** When it stops taking pushes (epoch milliseconds), or null for never. */
    public Long expirationTime() {
        JsonNode value = json.path("expirationTime");
        return value.isNumber() ? value.asLong() : null;
    }

    /** The subscription's public key (P-256 point, base64url): {@code keys.p256dh}. */
    public String p256dh() {
        return json.path("keys").path("p256dh").asText();
    }

    /** The authentication secret (16 bytes, base64url): {@code keys.auth}. */
    public String auth() {
        return json.path("keys").path("auth").asText();
    }

    /** The site that subscribed, or null. */
    public String origin() {
        JsonNode value = json.path("origin");
        return value.isTextual() ? value.asText() : null;
    }

    /** The VAPID public key it is bound to, base64url (65 bytes): the {@code k=} the mock requires. */
    public String applicationServerKey() {
        return json.path("applicationServerKey").asText();
    }

    /** The VAPID key pair it was made for (generated, or given), or null when only the public key was given. */
    public KeyPair vapidKeyPair() {
        return vapidKeyPair;
    }

    /**
     * The VAPID private key as base64url of its 32 bytes (the form Web Push libraries' "VAPID
     * private key" settings take), or null when only the public key was given.
     */
    public String vapidPrivateKeyBase64Url() {
        if (vapidKeyPair == null || !(vapidKeyPair.getPrivate() instanceof ECPrivateKey privateKey)) {
            return null;
        }
        byte[] raw = new byte[32];
        unsigned(privateKey.getS(), raw, 0);
        return BASE64URL.encodeToString(raw);
    }

    /** The endpoint's origin, {@code https://host:port}: the VAPID JWT's {@code aud}. */
    public String audience() {
        URI endpoint = endpoint();
        return endpoint.getScheme() + "://" + endpoint.getRawAuthority();
    }

    /** The W3C {@code PushSubscription} JSON: {@code {"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}}. */
    public String toJson() {
        ObjectNode subscription = Json.MAPPER.createObjectNode();
        subscription.set("endpoint", json.path("endpoint"));
        subscription.set("expirationTime", json.path("expirationTime"));
        subscription.set("keys", json.path("keys"));
        return Json.write(subscription);
    }

    /** The admin API's answer as it came ({@code createdAt}, {@code state} as created, …). */
    public JsonNode json() {
        return json;
    }

    /**
     * {@code DELETE /v1/webpush/subscriptions/{id}}: unsubscribes (a push to it is then answered
     * 410); the subscription as the server then has it ({@code state} {@code deleted}).
     */
    public JsonNode unsubscribe() {
        return client.deleteWebPushSubscription(id());
    }

    /** {@link #unsubscribe()}; one the server no longer knows (after a full reset) is no error. */
    @Override
    public void close() {
        try {
            unsubscribe();
        } catch (AdminException error) {
            if (error.status() != 404) {
                throw error;
            }
        }
    }

    @Override
    public String toString() {
        return "WebPushSubscription(id=" + id() + ", endpoint=" + endpoint() + ")";
    }
}
