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
import java.util.Map;
import java.util.Objects;

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
 * <p>Its browser is a device to the delivery model: {@link #device()} is its conditions ({@code
 * presence}, {@code periods}, {@code notifications}), given at creation ({@link Options#device})
 * or by {@link #setDevice(Map)}. A push accepted while the browser is offline is held (its record's
 * {@code delivery} is {@code stored}) until it comes online.
 *
 * <p>{@link #close()} unsubscribes it: a push to it is then answered 410. {@link
 * ApnsScope#webPushSubscription()} closes the test's when the test ends.
 */
public final class WebPushSubscription implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private final AdminClient client;
    private volatile JsonNode json;
    private final KeyPair vapidKeyPair;
    private final URI endpoint;

    WebPushSubscription(AdminClient client, JsonNode json, KeyPair vapidKeyPair, String endpointBase) {
        this.client = client;
        this.json = json;
        this.vapidKeyPair = vapidKeyPair;
        URI given = URI.create(json.path("endpoint").asText());
        if (endpointBase == null || endpointBase.isEmpty()) {
            this.endpoint = given;
        } else {
            String base = endpointBase.replaceAll("/+$", "");
            this.endpoint = URI.create(base + given.getRawPath());
        }
    }

    /** A new {@link Options}: a subscription for a generated P-256 VAPID key pair, until set otherwise. */
    public static Options options() {
        return new Options();
    }

    /**
     * How {@link AdminClient#createWebPushSubscription(Options)} (and {@link
     * ApnsScope#webPushSubscription(Options)}) make a subscription; every setting optional:
     *
     * <pre>{@code
     * WebPushSubscription subscription = scope.webPushSubscription(WebPushSubscription.options()
     *         .origin("https://example.com")
     *         .device(Map.of("presence", "offline")));
     * }</pre>
     */
    public static final class Options {
        private String applicationServerKey;
        private KeyPair vapidKeyPair;
        private String origin;
        private Long expirationTime;
        private Map<String, ?> device;
        private String endpointBase;

        private Options() {}

        /** The application server's VAPID public key, base64url of its uncompressed P-256 point (65 bytes). */
        public Options applicationServerKey(String applicationServerKey) {
            this.applicationServerKey = applicationServerKey;
            return this;
        }

        /** The application server's VAPID key pair (EC P-256), kept as {@link WebPushSubscription#vapidKeyPair()}. */
        public Options vapidKeyPair(KeyPair vapidKeyPair) {
            this.vapidKeyPair = vapidKeyPair;
            return this;
        }

        /** The site that subscribed ({@code https://example.com}). */
        public Options origin(String origin) {
            this.origin = origin;
            return this;
        }

        /** When it stops taking pushes (epoch milliseconds; 410 after it); null for never. */
        public Options expirationTime(Long expirationTime) {
            this.expirationTime = expirationTime;
            return this;
        }

        /**
         * Its browser's conditions from the start, the create body's {@code device} (the body of
         * {@link WebPushSubscription#setDevice(Map)}): {@code Map.of("presence", "offline")},
         * {@code Map.of("presence", "lowPower", "for", "10m")}, {@code periods}, {@code notifications}.
         */
        public Options device(Map<String, ?> device) {
            this.device = device;
            return this;
        }

        /**
         * Replaces the endpoint's origin, its path kept: the Web Push URL as the caller reaches it
         * (a container's published port, {@code https://localhost:2199}). {@link
         * WebPushSubscription#audience()} follows the endpoint.
         */
        public Options endpointBase(String endpointBase) {
            this.endpointBase = endpointBase;
            return this;
        }

        /** {@link #endpointBase(String)}. */
        public Options endpointBase(URI endpointBase) {
            return endpointBase(endpointBase == null ? null : endpointBase.toString());
        }
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
        return create(client, options().applicationServerKey(applicationServerKey).vapidKeyPair(vapidKeyPair)
                .origin(origin).expirationTime(expirationTime));
    }

    /** Subscribes through {@code client} as {@code options} say (see {@link Options}). */
    static WebPushSubscription create(AdminClient client, Options options) {
        Objects.requireNonNull(options, "options");
        KeyPair keys = options.vapidKeyPair;
        String key = options.applicationServerKey;
        String origin = options.origin;
        Long expirationTime = options.expirationTime;
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
        if (options.device != null) {
            body.set("device", Json.MAPPER.valueToTree(options.device));
        }
        JsonNode created = client.call(GeneratedOperations.CREATE_WEB_PUSH_SUBSCRIPTION, null, null, body);
        return new WebPushSubscription(client, created, keys, options.endpointBase);
    }

    /** Its id: the matcher's {@code subscriptionId}, its records' {@code token}, the endpoint's last path segment. */
    public String id() {
        return json.path("id").asText();
    }

    /** The URL the application server POSTs pushes to (on the {@link Options#endpointBase} when one was given). */
    public URI endpoint() {
        return endpoint;
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
        subscription.put("endpoint", endpoint.toString());
        subscription.set("expirationTime", json.path("expirationTime"));
        subscription.set("keys", json.path("keys"));
        return Json.write(subscription);
    }

    /** The admin API's answer as it came ({@code createdAt}, {@code state} as created, {@code device}, …), replaced by {@link #setDevice(Map)}'s. */
    public JsonNode json() {
        return json;
    }

    /** Its browser's conditions as the server last answered: {@code {"presence", "periods", "notifications"}}. */
    public JsonNode device() {
        return json.path("device");
    }

    /**
     * {@code PUT /v1/webpush/subscriptions/{id}/device}: sets its browser's conditions, and what
     * the browser holds is judged again (setting {@code online} delivers what was held while
     * offline: the record's {@code delivery} becomes {@code delivered}).
     *
     * @param conditions the body: {@code presence} ({@code online}, {@code offline}, {@code
     *     lowPower}) with {@code until} (epoch ms) or {@code for} ({@code "10m"}), or a schedule
     *     of {@code periods}; {@code notifications} ({@code enabled}, {@code disabled})
     * @return the subscription as the server then has it (also {@link #json()})
     * @throws AdminException 400 naming an unknown field (such as {@code installed}); 404 for a
     *     subscription the server no longer knows
     */
    public JsonNode setDevice(Map<String, ?> conditions) {
        JsonNode answer = client.putWebPushDevice(id(), Objects.requireNonNull(conditions, "conditions"));
        json = answer;
        return answer;
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
