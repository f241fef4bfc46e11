package apnsmock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One test's view of a shared apns-mock: its own device tokens and Web Push subscriptions, and
 * queries, waits, fault rules and reset limited to them ({@link ApnsMockExtension} gives each test
 * one).
 *
 * <p>Every token from {@link #token()} starts with this scope's random {@link #prefix()} (16 hex
 * digits, then 48 random ones), so one {@code tokenPrefix} condition names every push of the test.
 * Each wait, query and fault rule made through the scope gets that condition added, unless it names
 * a {@code channelId} or a {@code subscriptionId} (both issued at random, so they isolate too; a web
 * push's record names its subscription, not a device token); a {@code token} condition must be one
 * of the scope's. Fault rule ids are stored as {@code <prefix>.<id>}, so two tests may both name a
 * rule {@code gone}. {@link #webPushSubscription()} makes a Web Push subscription that is
 * unsubscribed when the test ends. {@link #reset()} deletes this test's records and rules only. Server-wide operations (modes, clock, keys, a full
 * reset) are not scoped: use {@link #client()} for them, knowing that other tests see them too.
 */
public final class ApnsScope {
    /** How many hex digits of a token are the scope's prefix. */
    public static final int PREFIX_DIGITS = 16;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final ApnsMock server;
    private final String prefix;
    private final List<String> tokens = new ArrayList<>();
    private final List<String> faultIds = new ArrayList<>();
    private final List<WebPushSubscription> webPushSubscriptions = new ArrayList<>();

    /** A scope of {@code server} with a random prefix. */
    public ApnsScope(ApnsMock server) {
        this(server, randomHex(PREFIX_DIGITS));
    }

    /** A scope of {@code server} whose tokens start with {@code prefix} (hex digits). */
    public ApnsScope(ApnsMock server, String prefix) {
        if (!prefix.matches("[0-9a-fA-F]{1,63}")) {
            throw new IllegalArgumentException("a scope's prefix is 1 to 63 hex digits, not " + prefix);
        }
        this.server = server;
        this.prefix = prefix.toLowerCase(Locale.ROOT);
    }

    private static String randomHex(int digits) {
        byte[] bytes = new byte[(digits + 1) / 2];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes).substring(0, digits);
    }

    /** The hex digits every token of this scope starts with. */
    public String prefix() {
        return prefix;
    }

    /** A fresh device token: 64 lower-case hex digits, this scope's prefix then random ones. */
    public synchronized String token() {
        String token = prefix + randomHex(64 - prefix.length());
        tokens.add(token);
        return token;
    }

    /** The tokens {@link #token()} made, oldest first. */
    public synchronized List<String> tokens() {
        return List.copyOf(tokens);
    }

    /** The server. */
    public ApnsMock server() {
        return server;
    }

    /** The server's admin client, not scoped. */
    public AdminClient client() {
        return server.client();
    }

    /** Where a provider pushes. */
    public URI apnsUri() {
        return server.apnsUri();
    }

    /** The Web Push listener: this scope's Web Push subscriptions' endpoints start with it. */
    public URI webPushUri() {
        return server.webPushUri();
    }

    /** The server's HTTP/2 client, trusting its CA. */
    public HttpClient httpClient() {
        return server.httpClient();
    }

    /** The provider credentials registered with the server. */
    public ProviderCredentials provider() {
        return server.provider();
    }

    /** The id a rule named {@code faultId} here has on the server: {@code <prefix>.<faultId>}. */
    public String faultId(String faultId) {
        return faultId.startsWith(prefix + ".") ? faultId : prefix + "." + faultId;
    }

    /** The conditions of {@code match} limited to this test (see the class comment). */
    public Map<String, Object> scoped(Map<String, ?> match) {
        Map<String, Object> scoped = new LinkedHashMap<>();
        boolean byChannel = false;
        for (Map.Entry<String, ?> entry : (match == null ? Map.<String, Object>of() : match).entrySet()) {
            String name = entry.getKey();
            Object value = entry.getValue();
            switch (name) {
                case "token" -> forEach(value, this::checkToken);
                case "tokenPrefix" -> forEach(value, this::checkTokenPrefix);
                case "faultId" -> value = value instanceof Collection<?> ids
                        ? ids.stream().map(id -> faultId(String.valueOf(id))).toList() : faultId(String.valueOf(value));
                case "channelId", "subscriptionId" -> byChannel = true;
                default -> { }
            }
            scoped.put(name, value);
        }
        if (!byChannel) {
            refuseTokenless(scoped.get("kind"));
            // a repeated parameter is one more condition: the caller's prefix (within this scope's), and this scope's
            Object given = scoped.get("tokenPrefix");
            List<Object> prefixes = new ArrayList<>(List.of(prefix));
            if (given instanceof Collection<?> values) {
                prefixes.addAll(values);
            } else if (given != null) {
                prefixes.add(given);
            }
            scoped.put("tokenPrefix", prefixes.size() == 1 ? prefix : prefixes);
        }
        return scoped;
    }

    private static void forEach(Object value, Consumer<String> check) {
        if (value instanceof Collection<?> values) {
            values.forEach(each -> check.accept(String.valueOf(each)));
        } else if (value != null) {
            check.accept(String.valueOf(value));
        }
    }

    private void checkToken(String token) {
        if (!token.toLowerCase(Locale.ROOT).startsWith(prefix)) {
            throw new IllegalArgumentException("device token " + token + " is not one of this test's (token() makes them; "
                    + "they start with " + prefix + ")");
        }
    }

    private void checkTokenPrefix(String given) {
        String lower = given.toLowerCase(Locale.ROOT);
        if (!lower.startsWith(prefix) && !prefix.startsWith(lower)) {
            throw new IllegalArgumentException("tokenPrefix " + given + " reaches beyond this test's tokens (" + prefix + "…)");
        }
    }

    private static void refuseTokenless(Object kind) {
        if ("broadcast".equals(kind) || "channel".equals(kind)) {
            throw new IllegalArgumentException("records of kind " + kind + " carry no device token, so a test's scope "
                    + "cannot name them by token: add channelId, or use client() for a server-wide query");
        }
        if ("webPush".equals(kind)) {
            throw new IllegalArgumentException("records of kind webPush name a Web Push subscription, not a device token, "
                    + "so a test's scope cannot name them by token: add subscriptionId (webPushSubscription().id()), "
                    + "or use client() for a server-wide query");
        }
    }

    /** {@link AdminClient#waitFor} for this test's records; a timeout throws {@link WaitTimeoutException}. */
    public List<JsonNode> waitFor(Map<String, ?> match, int count, Duration timeout) {
        return client().waitFor(scoped(match), count, timeout);
    }

    /** {@link #waitFor(Map, int, Duration)} for one record within 10 seconds. */
    public List<JsonNode> waitFor(Map<String, ?> match) {
        return waitFor(match, 1, Duration.ofSeconds(10));
    }

    /** {@link AdminClient#deliveries} of this test's records. */
    public List<JsonNode> deliveries(Map<String, ?> match) {
        return client().deliveries(scoped(match));
    }

    /**
     * {@link AdminClient#putFault} under the id {@code <prefix>.<id>}, its {@code match} limited to
     * this test's tokens (or the channel it names). Removed after the test.
     */
    public JsonNode putFault(String id, String ruleJson) {
        JsonNode parsed = Json.parse(ruleJson);
        if (!(parsed instanceof ObjectNode rule)) {
            throw new IllegalArgumentException("a fault rule is a JSON object, not " + ruleJson);
        }
        JsonNode match = rule.path("match");
        ObjectNode scopedMatch = match.isObject() ? ((ObjectNode) match).deepCopy() : Json.MAPPER.createObjectNode();
        if (scopedMatch.has("token")) {
            checkToken(scopedMatch.get("token").asText());
        }
        if (scopedMatch.has("faultId")) {
            scopedMatch.put("faultId", faultId(scopedMatch.get("faultId").asText()));
        }
        if (!scopedMatch.has("channelId") && !scopedMatch.has("subscriptionId")) {
            refuseTokenless(scopedMatch.path("kind").asText(null));
            String given = scopedMatch.path("tokenPrefix").asText("").toLowerCase(Locale.ROOT);
            if (!given.isEmpty()) {
                checkTokenPrefix(given);
            }
            scopedMatch.put("tokenPrefix", given.startsWith(prefix) ? given : prefix);
        }
        rule.set("match", scopedMatch);
        String real = faultId(id);
        rule.remove("id");
        JsonNode created = client().putFault(real, rule);
        synchronized (this) {
            if (!faultIds.contains(real)) {
                faultIds.add(real);
            }
        }
        return created;
    }

    /** Removes this test's fault rule {@code id}. */
    public void deleteFault(String id) {
        String real = faultId(id);
        client().deleteFault(real);
        synchronized (this) {
            faultIds.remove(real);
        }
    }

    /**
     * A Web Push subscription for this test, made as a browser makes one ({@code POST
     * /v1/webpush/subscriptions}) for a P-256 VAPID key pair generated here ({@link
     * WebPushSubscription#vapidKeyPair()}), and unsubscribed when the test ends (a push to it is
     * then answered 410). Its pushes are records of kind {@code webPush}: {@code
     * waitFor(Map.of("kind", "webPush", "subscriptionId", subscription.id()))}.
     */
    public WebPushSubscription webPushSubscription() {
        return keep(client().createWebPushSubscription());
    }

    /**
     * {@link #webPushSubscription()} for the application server's VAPID public key (base64url of
     * its 65-byte point; null for a generated pair), with an {@code origin} and an {@code
     * expirationTime} (epoch milliseconds), each may be null.
     */
    public WebPushSubscription webPushSubscription(String applicationServerKey, String origin, Long expirationTime) {
        return keep(client().createWebPushSubscription(applicationServerKey, origin, expirationTime));
    }

    /**
     * {@link #webPushSubscription()} as {@code options} say ({@link WebPushSubscription#options()}):
     * the VAPID key, {@code origin}, {@code expirationTime}, the browser's conditions ({@code
     * device}: {@code Map.of("presence", "offline")} holds its pushes until {@link
     * WebPushSubscription#setDevice(Map)} puts it online) and an {@code endpointBase}.
     */
    public WebPushSubscription webPushSubscription(WebPushSubscription.Options options) {
        return keep(client().createWebPushSubscription(options));
    }

    /** {@link #webPushSubscription()} for the application server's VAPID key pair (EC P-256). */
    public WebPushSubscription webPushSubscription(KeyPair vapidKeyPair, String origin, Long expirationTime) {
        return keep(client().createWebPushSubscription(vapidKeyPair, origin, expirationTime));
    }

    private synchronized WebPushSubscription keep(WebPushSubscription subscription) {
        webPushSubscriptions.add(subscription);
        return subscription;
    }

    /** The Web Push subscriptions this test made and still has, oldest first. */
    public synchronized List<WebPushSubscription> webPushSubscriptions() {
        return List.copyOf(webPushSubscriptions);
    }

    /**
     * Deletes this test's records ({@code DELETE /v1/deliveries?tokenPrefix=<prefix>}, and {@code
     * ?subscriptionId=} for each of its Web Push subscriptions) and fault rules, and unsubscribes
     * its Web Push subscriptions; the rest of the server (other tests' records, the provider key)
     * is untouched.
     *
     * @return {@code {"deliveries": N, "faults": M, "webPushSubscriptions": S}}, how many of each went
     */
    public Map<String, Integer> reset() {
        int deliveries = client().deleteDeliveries(Map.of("tokenPrefix", prefix));
        for (WebPushSubscription subscription : webPushSubscriptions()) {
            deliveries += client().deleteDeliveries(Map.of("subscriptionId", subscription.id()));
        }
        int subscriptions = unsubscribeWebPush();
        return Map.of("deliveries", deliveries, "faults", removeFaultRules(), "webPushSubscriptions", subscriptions);
    }

    /**
     * Deletes the fault rules made through this scope and unsubscribes its Web Push subscriptions,
     * keeping the records (the extension calls it after each test, so neither acts on anything
     * after its test). How many fault rules went.
     */
    public int cleanup() {
        int removed = removeFaultRules();
        unsubscribeWebPush();
        return removed;
    }

    private synchronized int unsubscribeWebPush() {
        webPushSubscriptions.forEach(WebPushSubscription::close);
        int unsubscribed = webPushSubscriptions.size();
        webPushSubscriptions.clear();
        return unsubscribed;
    }

    private synchronized int removeFaultRules() {
        int removed = 0;
        for (String id : faultIds) {
            try {
                client().deleteFault(id);
                removed++;
            } catch (AdminException error) {
                if (error.status() != 404) {
                    throw error;
                }
            }
        }
        faultIds.clear();
        return removed;
    }

    /** The dashboard filtered to this test's records. */
    public String dashboardLink() {
        return client().dashboardLink("tokenPrefix=" + prefix);
    }

    @Override
    public String toString() {
        return "ApnsScope(prefix=" + prefix + ", server=" + server + ")";
    }
}
