package apnsmock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The admin API of one apns-mock server (plain HTTP/1.1 on its admin port).
 *
 * <p>{@link #call} sends any operation of the API's document by its operationId, building the request
 * from {@link GeneratedOperations} (generated from the document); the other methods are shorter
 * names for the operations a test uses most, and call it. An error answer throws {@link
 * AdminException}; a wait that times out throws {@link WaitTimeoutException}. Safe to share between
 * threads.
 */
public final class AdminClient {
    /** How long a request may take, unless the operation takes longer by design (waits, verify). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private static final Duration WAIT_MARGIN = Duration.ofSeconds(30);
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(300);
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");

    private final URI adminUri;
    private final String adminToken;
    private final HttpClient http;
    private final List<ProviderCredentials> providerKeys = new CopyOnWriteArrayList<>();

    /** A client of the admin API at {@code adminUri} ({@code http://127.0.0.1:2198}), without a token. */
    public AdminClient(URI adminUri) {
        this(adminUri, null);
    }

    /**
     * A client of the admin API at {@code adminUri}; {@code adminToken} (may be null) is the server's
     * {@code --admin-token}, sent as {@code Authorization: Bearer}.
     */
    public AdminClient(URI adminUri, String adminToken) {
        String text = adminUri.toString();
        this.adminUri = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.adminToken = adminToken;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** The admin API's base address. */
    public URI adminUri() {
        return adminUri;
    }

    // -- the document's operations ---------------------------------------------------------------

    /**
     * Sends the operation {@code operationId} of the document (see {@link GeneratedOperations#BY_ID}).
     *
     * @param operationId e.g. {@code "listDeliveries"}, {@code "putFault"}
     * @param pathParameters a value for each name in the operation's path template (percent-encoded
     *     here); may be null when it has none
     * @param query its query parameters (may be null): a null value is left out, a {@link
     *     Collection} repeats the parameter, anything else is sent as its {@code toString()}; a
     *     name the document declares {@code in: header} is sent as that header
     * @param body the JSON request body (may be null): a {@link String} is sent as it is, anything
     *     else is written by Jackson
     * @return the answer: parsed JSON, a {@link TextNode} for a text answer ({@code /v1/ca.pem}),
     *     or a {@link MissingNode} when it has no body (204)
     * @throws IllegalArgumentException for an unknown operation, a missing path parameter, a query
     *     name the document does not declare, or a body the operation does not take
     * @throws AdminException for an error answer
     * @throws WaitTimeoutException when {@code waitForDeliveries} answers 408
     */
    public JsonNode call(String operationId, Map<String, ?> pathParameters, Map<String, ?> query, Object body) {
        GeneratedOperations.Operation operation = GeneratedOperations.BY_ID.get(operationId);
        if (operation == null) {
            throw new IllegalArgumentException("the admin API has no operation " + operationId + " (operations: "
                    + String.join(", ", GeneratedOperations.BY_ID.keySet()) + ")");
        }
        return call(operation, pathParameters, query, body);
    }

    /** {@link #call(String, Map, Map, Object)} with the operation given by its table entry. */
    public JsonNode call(GeneratedOperations.Operation operation, Map<String, ?> pathParameters, Map<String, ?> query,
            Object body) {
        if (operation.answer().equals("stream")) {
            throw new IllegalArgumentException(operation.id() + " answers a Server-Sent Events stream, which call() "
                    + "does not read: send " + operation.method() + " " + operation.pathTemplate()
                    + " with an HttpClient of your own");
        }
        if (body != null && !operation.hasBody()) {
            throw new IllegalArgumentException(operation.id() + " takes no request body");
        }
        String path = expandPath(operation, pathParameters == null ? Map.of() : pathParameters);
        List<String[]> queryPairs = new ArrayList<>();
        Map<String, String> headers = new LinkedHashMap<>();
        if (query != null) {
            for (Map.Entry<String, ?> entry : query.entrySet()) {
                String name = entry.getKey();
                Object value = entry.getValue();
                if (value == null) {
                    continue;
                }
                if (operation.headerParameters().contains(name)) {
                    headers.put(name, text(value));
                    continue;
                }
                checkQueryName(operation, name);
                if (value instanceof Collection<?> values) {
                    for (Object each : values) {
                        queryPairs.add(new String[] {name, text(each)});
                    }
                } else {
                    queryPairs.add(new String[] {name, text(value)});
                }
            }
        }
        String queryString = queryString(queryPairs);
        Duration timeout = switch (operation.id()) {
            case "waitForDeliveries" -> waitDuration(query).orElse(LONGEST_WAIT).plus(WAIT_MARGIN);
            case "verify" -> LONGEST_WAIT.plus(WAIT_MARGIN);
            default -> DEFAULT_TIMEOUT;
        };
        HttpResponse<String> response = send(operation.method(), path, queryString, body, headers, timeout);
        if (operation.id().equals("waitForDeliveries") && response.statusCode() == 408) {
            throw waitTimeout(query, queryPairs, response);
        }
        raiseForStatus(operation.method(), path, response);
        return answer(response);
    }

    private static String expandPath(GeneratedOperations.Operation operation, Map<String, ?> values) {
        String path = operation.pathTemplate();
        for (String name : operation.pathParameters()) {
            Object value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException(operation.id() + " needs the path parameter " + name + " ("
                        + operation.pathTemplate() + ")");
            }
            path = path.replace("{" + name + "}", percentEncode(text(value)));
        }
        for (String name : values.keySet()) {
            if (!operation.pathParameters().contains(name)) {
                throw new IllegalArgumentException(operation.id() + " has no path parameter " + name + " ("
                        + operation.pathTemplate() + ")");
            }
        }
        return path;
    }

    private static void checkQueryName(GeneratedOperations.Operation operation, String name) {
        if (operation.queryParameters().contains(name)) {
            return;
        }
        for (String pattern : operation.freeFormQueryPatterns()) {
            if (Pattern.compile(pattern).matcher(name).find()) {
                return;
            }
        }
        throw new IllegalArgumentException(operation.id() + " takes no query parameter " + name + " (it takes: "
                + String.join(", ", operation.queryParameters())
                + (operation.freeFormQueryPatterns().isEmpty() ? "" : ", headers.<name>, payload.<path>, preview.<path>")
                + ")");
    }

    // -- shorter names -----------------------------------------------------------------------------

    /** {@code GET /health}: {@code {"status": "ok", …}}. */
    public JsonNode health() {
        return call(GeneratedOperations.HEALTH, null, null, null);
    }

    /** {@code GET /v1/info}: where the server listens and its version. */
    public JsonNode info() {
        return call(GeneratedOperations.INFO, null, null, null);
    }

    /** {@code GET /v1/ca.pem}: the CA certificate (PEM) a client trusts to reach the APNs ports. */
    public String caPem() {
        return call(GeneratedOperations.CA_CERTIFICATE, null, null, null).asText();
    }

    /**
     * {@code GET /v1/deliveries/wait}: the matching records once at least {@code count} exist.
     *
     * @param match the conditions, named as in a query string ({@code token}, {@code tokenPrefix},
     *     {@code status}, {@code reason}, {@code payload.aps.alert=hi}, {@code headers.apns-topic=…});
     *     a {@link Collection} value repeats a condition
     * @param count how many records to wait for (at least 1)
     * @param timeout how long to wait, at most 300 s
     * @return every matching record (at least {@code count})
     * @throws WaitTimeoutException when the timeout runs out first, with the server's explanation
     *     (the closest records and what differs)
     */
    public List<JsonNode> waitFor(Map<String, ?> match, int count, Duration timeout) {
        Map<String, Object> query = new LinkedHashMap<>(match == null ? Map.of() : match);
        query.put("count", count);
        query.put("timeout", timeout.toMillis() + "ms");
        return list(call(GeneratedOperations.WAIT_FOR_DELIVERIES, null, query, null).path("deliveries"));
    }

    /** {@link #waitFor(Map, int, Duration)} for one record within 10 seconds. */
    public List<JsonNode> waitFor(Map<String, ?> match) {
        return waitFor(match, 1, Duration.ofSeconds(10));
    }

    /**
     * {@code GET /v1/deliveries}: every record that matches (every page), oldest first.
     *
     * @param match the conditions, as for {@link #waitFor}; null or empty for every record
     */
    public List<JsonNode> deliveries(Map<String, ?> match) {
        List<JsonNode> records = new ArrayList<>();
        Map<String, Object> query = new LinkedHashMap<>(match == null ? Map.of() : match);
        while (true) {
            JsonNode page = call(GeneratedOperations.LIST_DELIVERIES, null, query, null);
            List<JsonNode> found = list(page.path("deliveries"));
            records.addAll(found);
            JsonNode next = page.path("next");
            if (next.isNull() || next.isMissingNode() || found.isEmpty()) {
                return records;
            }
            query.put("since", next.asLong());
        }
    }

    /** {@code DELETE /v1/deliveries?<match>}: deletes the matching records (every one without a matcher); how many. */
    public int deleteDeliveries(Map<String, ?> match) {
        return call(GeneratedOperations.DELETE_DELIVERIES, null, match, null).path("deleted").asInt();
    }

    /**
     * {@code PUT /v1/faults/{id}}: creates the fault rule with this id, or replaces it.
     *
     * @param ruleJson the rule as JSON text, e.g. {@code {"match": {"token": "…"}, "action":
     *     {"respond": {"status": 410, "reason": "Unregistered"}}}} (the document's FaultRuleBody)
     * @return the rule as the server lists it
     */
    public JsonNode putFault(String id, String ruleJson) {
        return putFault(id, Json.parse(ruleJson));
    }

    /** {@link #putFault(String, String)} with the rule as a JSON tree. */
    public JsonNode putFault(String id, JsonNode rule) {
        return call(GeneratedOperations.PUT_FAULT, Map.of("id", id), null, rule);
    }

    /** {@code DELETE /v1/faults/{id}}: removes the fault rule ({@link AdminException} 404 when there is none). */
    public void deleteFault(String id) {
        call(GeneratedOperations.DELETE_FAULT, Map.of("id", id), null, null);
    }

    /** {@code GET /v1/faults}: the fault rules in the order they are tried, with their counts. */
    public List<JsonNode> faults() {
        return list(call(GeneratedOperations.LIST_FAULTS, null, null, null).path("faults"));
    }

    /**
     * {@code POST /v1/webpush/subscriptions}: a Web Push subscription made as a browser makes one,
     * for a P-256 VAPID key pair generated here ({@link WebPushSubscription#vapidKeyPair()}). Not
     * scoped: close it when done ({@link ApnsScope#webPushSubscription()} does that for a test).
     */
    public WebPushSubscription createWebPushSubscription() {
        return WebPushSubscription.create(this, null, null, null, null);
    }

    /**
     * {@code POST /v1/webpush/subscriptions} for the application server's VAPID public key.
     *
     * @param applicationServerKey the key, base64url of its uncompressed P-256 point (65 bytes);
     *     null for a key pair generated here
     * @param origin the site that subscribed ({@code https://example.com}), or null
     * @param expirationTime when it stops taking pushes (epoch milliseconds; 410 after it), or null for never
     */
    public WebPushSubscription createWebPushSubscription(String applicationServerKey, String origin, Long expirationTime) {
        return WebPushSubscription.create(this, applicationServerKey, null, origin, expirationTime);
    }

    /**
     * {@code POST /v1/webpush/subscriptions} for the application server's VAPID key pair (EC
     * P-256), kept as {@link WebPushSubscription#vapidKeyPair()}; {@code origin} and {@code
     * expirationTime} as above.
     */
    public WebPushSubscription createWebPushSubscription(KeyPair vapidKeyPair, String origin, Long expirationTime) {
        return WebPushSubscription.create(this, null, vapidKeyPair, origin, expirationTime);
    }

    /**
     * {@code POST /v1/webpush/subscriptions} as {@code options} say: the VAPID key ({@link
     * WebPushSubscription.Options#applicationServerKey}, {@link
     * WebPushSubscription.Options#vapidKeyPair}; a P-256 key pair generated here without either),
     * {@code origin}, {@code expirationTime}, the browser's conditions ({@link
     * WebPushSubscription.Options#device}) and an {@link WebPushSubscription.Options#endpointBase}.
     */
    public WebPushSubscription createWebPushSubscription(WebPushSubscription.Options options) {
        return WebPushSubscription.create(this, options);
    }

    /**
     * {@code PUT /v1/webpush/subscriptions/{subscriptionId}/device}: sets the conditions of the
     * subscription's browser ({@link WebPushSubscription#setDevice(Map)}); the subscription.
     */
    public JsonNode putWebPushDevice(String subscriptionId, Map<String, ?> conditions) {
        return call(GeneratedOperations.PUT_WEB_PUSH_DEVICE, Map.of("subscriptionId", subscriptionId), null, conditions);
    }

    /** {@code GET /v1/webpush/subscriptions/{subscriptionId}}: the subscription, with its {@code state} ({@code active}, {@code expired}, {@code deleted}). */
    public JsonNode getWebPushSubscription(String subscriptionId) {
        return call(GeneratedOperations.GET_WEB_PUSH_SUBSCRIPTION, Map.of("subscriptionId", subscriptionId), null, null);
    }

    /** {@code DELETE /v1/webpush/subscriptions/{subscriptionId}}: unsubscribes (a push to it is then 410); the subscription, now {@code deleted}. */
    public JsonNode deleteWebPushSubscription(String subscriptionId) {
        return call(GeneratedOperations.DELETE_WEB_PUSH_SUBSCRIPTION, Map.of("subscriptionId", subscriptionId), null, null);
    }

    /** {@code GET /v1/webpush/subscriptions}: every subscription, oldest first, deleted and expired ones included. */
    public List<JsonNode> webPushSubscriptions() {
        return list(call(GeneratedOperations.LIST_WEB_PUSH_SUBSCRIPTIONS, null, null, null).path("subscriptions"));
    }

    /**
     * {@code PUT /v1/keys/{keyId}}: registers the provider key of {@code credentials} (environment
     * {@code both}), so that the server checks its tokens' signatures (a bad one: 403
     * InvalidProviderToken). The client remembers it: {@link #reset()} registers it again.
     */
    public JsonNode registerProviderKey(ProviderCredentials credentials) {
        JsonNode key = call(GeneratedOperations.PUT_KEY, Map.of("keyId", credentials.keyId()), null,
                credentials.registrationBody());
        if (!providerKeys.contains(credentials)) {
            providerKeys.add(credentials);
        }
        return key;
    }

    /**
     * {@code POST /v1/reset}: every record, fault rule, runtime key, device and channel goes (the
     * server back to its start-up state); then the provider keys registered through this client are
     * registered again, so their tokens keep working. Server-wide: tests sharing the server see it.
     */
    public JsonNode reset() {
        JsonNode answer = call(GeneratedOperations.RESET, null, null, null);
        for (ProviderCredentials credentials : providerKeys) {
            call(GeneratedOperations.PUT_KEY, Map.of("keyId", credentials.keyId()), null, credentials.registrationBody());
        }
        return answer;
    }

    // -- plumbing ------------------------------------------------------------------------------------

    private HttpResponse<String> send(String method, String path, String queryString, Object body,
            Map<String, String> headers, Duration timeout) {
        URI uri = URI.create(adminUri + path + (queryString.isEmpty() ? "" : "?" + queryString));
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body instanceof String text ? text : Json.write(body),
                        StandardCharsets.UTF_8);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).method(method, publisher);
        if (body != null) {
            request.header("content-type", "application/json");
        }
        if (adminToken != null && !adminToken.isEmpty()) {
            request.header("authorization", "Bearer " + adminToken);
        }
        headers.forEach(request::header);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException error) {
            throw new ApnsMockException(method + " " + uri + ": " + error, error);
        } catch (InterruptedException error) {
            Thread.currentThread().interrupt();
            throw new ApnsMockException(method + " " + uri + ": interrupted", error);
        }
    }

    private static void raiseForStatus(String method, String path, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status < 400) {
            return;
        }
        String code = "http";
        String message = response.body().strip();
        try {
            JsonNode error = Json.parse(response.body()).path("error");
            if (error.has("code") && error.has("message")) {
                code = error.get("code").asText();
                message = error.get("message").asText();
            }
        } catch (RuntimeException notJson) {
            // the body was not the API's error document: keep its text
        }
        throw new AdminException(status, code, message, method, path);
    }

    private static JsonNode answer(HttpResponse<String> response) {
        String body = response.body();
        if (body == null || body.isEmpty()) {
            return MissingNode.getInstance();
        }
        String type = response.headers().firstValue("content-type").orElse("").split(";")[0].strip();
        return type.endsWith("json") ? Json.parse(body) : TextNode.valueOf(body);
    }

    private WaitTimeoutException waitTimeout(Map<String, ?> query, List<String[]> pairs, HttpResponse<String> response) {
        JsonNode answer = Json.parse(response.body());
        List<String[]> conditions = new ArrayList<>();
        for (String[] pair : pairs) {
            if (!List.of("count", "timeout", "since", "before").contains(pair[0])) {
                conditions.add(pair);
            }
        }
        String matcher = queryString(conditions);
        Object count = query == null ? null : query.get("count");
        JsonNode explanation = answer.path("explanation");
        return new WaitTimeoutException(count == null ? 1 : Integer.parseInt(text(count)),
                waitDuration(query).orElse(null), matcher, list(answer.path("deliveries")),
                list(answer.path("nearMisses")), explanation.isTextual() ? explanation.asText() : null,
                dashboardLink(matcher));
    }

    /** The dashboard ({@code GET /}) filtered to the records a query string matches. */
    public String dashboardLink(String queryString) {
        return adminUri + "/" + (queryString.isEmpty() ? "" : "#filter=" + percentEncode(queryString));
    }

    private static Optional<Duration> waitDuration(Map<String, ?> query) {
        Object value = query == null ? null : query.get("timeout");
        if (value == null) {
            return Optional.of(Duration.ofSeconds(10));
        }
        if (value instanceof Duration duration) {
            return Optional.of(duration);
        }
        Matcher matcher = DURATION.matcher(text(value).strip());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        double amount = Double.parseDouble(matcher.group(1));
        String unit = matcher.group(2) == null ? "s" : matcher.group(2);
        double millis = switch (unit) {
            case "ms" -> amount;
            case "m" -> amount * 60_000;
            case "h" -> amount * 3_600_000;
            default -> amount * 1000;
        };
        return Optional.of(Duration.ofMillis((long) millis));
    }

    private static String text(Object value) {
        if (value instanceof Duration duration) {
            return duration.toMillis() + "ms";
        }
        return String.valueOf(value);
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items;
    }

    /** A query string as the admin API reads it: every character but A-Z a-z 0-9 - . _ ~ percent-encoded. */
    static String queryString(List<String[]> pairs) {
        StringBuilder out = new StringBuilder();
        for (String[] pair : pairs) {
            if (out.length() > 0) {
                out.append('&');
            }
            out.append(percentEncode(pair[0])).append('=').append(percentEncode(pair[1]));
        }
        return out.toString();
    }

    /** {@code text} with every byte of its UTF-8 but A-Z a-z 0-9 - . _ ~ as %XX (a space is %20, a + %2B). */
    static String percentEncode(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                out.append(c);
            } else {
                out.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xFF));
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return "AdminClient(" + adminUri + ")";
    }
}
