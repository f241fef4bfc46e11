package apnsmock;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * apns-mock for JUnit 5: a server, and for each test an {@link ApnsScope} — fresh device tokens, and
 * waits, queries, fault rules and reset limited to them.
 *
 * <pre>{@code
 * class PushTest {
 *     @RegisterExtension static ApnsMockExtension apns = new ApnsMockExtension();
 *
 *     @Test void sends() throws Exception {
 *         String token = apns.token();
 *         myPushSender(apns.apnsUri(), apns.sslContext(), apns.provider().keyPath()).send(token, "hi");
 *         apns.waitFor(Map.of("token", token, "payload.aps.alert", "hi"));
 *     }
 * }
 * }</pre>
 *
 * <p><b>One server per JVM</b> with {@code new ApnsMockExtension()}: the first test class that needs
 * it starts it, and it stops when the test run ends (JUnit's root store). Starting a server costs a
 * process, a CA and a key; the per-test scoping already keeps tests apart (as the pytest plugin's
 * session server does), so classes share one. {@code new ApnsMockExtension(ApnsMock.builder()…)}
 * gives the class a server of its own, with those options, stopped after the class: for a class that
 * changes the server as a whole (modes, clock, a full reset, other {@code serve} arguments).
 *
 * <p>Register it on a static field. The methods below act on the running test's scope (found by
 * the test's thread); a test may also take an {@link ApnsScope}, {@link ApnsMock} or {@link
 * ProviderCredentials} parameter. After each test its fault rules are removed and its Web Push
 * subscriptions ({@link #webPushSubscription()}) unsubscribed; its records stay.
 */
public final class ApnsMockExtension
        implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ApnsMockExtension.class);
    private static final String SHARED_SERVER = "shared server";

    private final ApnsMock.Builder options;
    private final ThreadLocal<ApnsScope> current = new ThreadLocal<>();
    private final Set<ApnsScope> running = ConcurrentHashMap.newKeySet();
    private volatile ApnsMock server;

    /** The server shared by every test class of the JVM (started with the defaults). */
    public ApnsMockExtension() {
        this.options = null;
    }

    /** A server of this test class's own, started with {@code options}, stopped after the class. */
    public ApnsMockExtension(ApnsMock.Builder options) {
        this.options = options;
    }

    /** The server stored in JUnit's store, closed with it. */
    private record Running(ApnsMock server) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            server.close();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = serverFor(context);
    }

    private ApnsMock serverFor(ExtensionContext context) {
        if (options == null) {
            return context.getRoot().getStore(NAMESPACE)
                    .getOrComputeIfAbsent(SHARED_SERVER, key -> new Running(ApnsMock.start()), Running.class).server();
        }
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext.getStore(NAMESPACE)
                .getOrComputeIfAbsent(this, key -> new Running(options.start()), Running.class).server();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (server == null) { // registered on an instance field: no beforeAll
            server = serverFor(context);
        }
        ApnsScope scope = new ApnsScope(server);
        context.getStore(NAMESPACE).put(ApnsScope.class, scope);
        current.set(scope);
        running.add(scope);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        ApnsScope scope = context.getStore(NAMESPACE).remove(ApnsScope.class, ApnsScope.class);
        current.remove();
        if (scope != null) {
            running.remove(scope);
            scope.cleanup();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == ApnsScope.class || type == ApnsMock.class || type == ProviderCredentials.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == ApnsScope.class) {
            ApnsScope scope = context.getStore(NAMESPACE).get(ApnsScope.class, ApnsScope.class);
            if (scope == null) {
                throw new ParameterResolutionException("an ApnsScope is a test's: take it in a test method or @BeforeEach");
            }
            return scope;
        }
        ApnsMock mock = server != null ? server : serverFor(context);
        return type == ApnsMock.class ? mock : mock.provider();
    }

    /** The running test's scope (on the test's thread; or the only test running). */
    public ApnsScope scope() {
        ApnsScope scope = current.get();
        if (scope != null) {
            return scope;
        }
        List<ApnsScope> all = List.copyOf(running);
        if (all.size() == 1) {
            return all.get(0);
        }
        throw new IllegalStateException(all.isEmpty()
                ? "no test is running: the scope exists from @BeforeEach to @AfterEach"
                : "several tests are running and this thread is none of theirs: take an ApnsScope parameter");
    }

    /** The server. */
    public ApnsMock server() {
        if (server == null) {
            throw new IllegalStateException("the server starts before the first test (register the extension with @RegisterExtension)");
        }
        return server;
    }

    /** A fresh device token of the running test ({@link ApnsScope#token()}). */
    public String token() {
        return scope().token();
    }

    /** {@link ApnsScope#waitFor(Map, int, Duration)}. */
    public List<JsonNode> waitFor(Map<String, ?> match, int count, Duration timeout) {
        return scope().waitFor(match, count, timeout);
    }

    /** {@link ApnsScope#waitFor(Map)}: one record within 10 seconds. */
    public List<JsonNode> waitFor(Map<String, ?> match) {
        return scope().waitFor(match);
    }

    /** {@link ApnsScope#deliveries(Map)}. */
    public List<JsonNode> deliveries(Map<String, ?> match) {
        return scope().deliveries(match);
    }

    /** {@link ApnsScope#putFault(String, String)}. */
    public JsonNode putFault(String id, String ruleJson) {
        return scope().putFault(id, ruleJson);
    }

    /** {@link ApnsScope#deleteFault(String)}. */
    public void deleteFault(String id) {
        scope().deleteFault(id);
    }

    /** {@link ApnsScope#webPushSubscription()}: a Web Push subscription of the running test, with a generated VAPID key pair. */
    public WebPushSubscription webPushSubscription() {
        return scope().webPushSubscription();
    }

    /** {@link ApnsScope#webPushSubscription(String, String, Long)}. */
    public WebPushSubscription webPushSubscription(String applicationServerKey, String origin, Long expirationTime) {
        return scope().webPushSubscription(applicationServerKey, origin, expirationTime);
    }

    /** {@link ApnsScope#webPushSubscription(WebPushSubscription.Options)}. */
    public WebPushSubscription webPushSubscription(WebPushSubscription.Options options) {
        return scope().webPushSubscription(options);
    }

    /** {@link ApnsScope#webPushSubscription(KeyPair, String, Long)}. */
    public WebPushSubscription webPushSubscription(KeyPair vapidKeyPair, String origin, Long expirationTime) {
        return scope().webPushSubscription(vapidKeyPair, origin, expirationTime);
    }

    /** {@link ApnsScope#reset()}: this test's records, fault rules and Web Push subscriptions. */
    public Map<String, Integer> reset() {
        return scope().reset();
    }

    /** The server's admin client (not scoped). */
    public AdminClient client() {
        return server().client();
    }

    /** Where a provider pushes. */
    public URI apnsUri() {
        return server().apnsUri();
    }

    /** The Web Push listener (subscriptions' endpoints start with it). */
    public URI webPushUri() {
        return server().webPushUri();
    }

    /** TLS trusting the mock's CA only. */
    public SSLContext sslContext() {
        return server().sslContext();
    }

    /** The server's HTTP/2 client. */
    public HttpClient httpClient() {
        return server().httpClient();
    }

    /** The provider credentials registered with the server. */
    public ProviderCredentials provider() {
        return server().provider();
    }
}
