package apnsmock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two tests on the JVM's shared server: the second sees nothing of the first's records or fault rules. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExtensionScopingTest {
    @RegisterExtension static ApnsMockExtension apns = new ApnsMockExtension();

    private static final String HI = "{\"aps\":{\"alert\":\"hi\"}}";
    private static final String GONE = "{\"action\":{\"respond\":{\"status\":410,\"reason\":\"Unregistered\"}}}";
    private static String firstPrefix;
    private static String firstToken;

    @Test
    @Order(1)
    void firstTestPushesAndAddsAFaultRule() throws Exception {
        firstPrefix = apns.scope().prefix();
        firstToken = apns.token();
        assertTrue(firstToken.matches("[0-9a-f]{64}") && firstToken.startsWith(firstPrefix), firstToken);
        assertEquals(200, Pushes.push(apns.server(), firstToken, HI).statusCode());

        JsonNode rule = apns.putFault("gone", GONE); // no match: the scope limits it to this test's tokens
        assertEquals(firstPrefix + ".gone", rule.get("id").asText());
        assertEquals(firstPrefix, rule.path("match").path("tokenPrefix").asText());
        String second = apns.token();
        assertEquals(410, Pushes.push(apns.server(), second, HI).statusCode());
        assertEquals(2, apns.waitFor(Map.of(), 2, Duration.ofSeconds(10)).size());
        assertEquals(1, apns.deliveries(Map.of("status", 410)).size());
    }

    @Test
    @Order(2)
    void secondTestSeesNoneOfTheFirstsRecordsOrRules(ApnsScope scope, ApnsMock server) throws Exception {
        assertSame(apns.scope(), scope);
        assertSame(apns.server(), server);
        assertNotEquals(firstPrefix, scope.prefix());

        // the first test's records are on the server, and out of this test's sight
        assertEquals(2, apns.client().deliveries(Map.of("tokenPrefix", firstPrefix)).size());
        assertTrue(apns.deliveries(Map.of()).isEmpty());
        WaitTimeoutException timeout = assertThrows(WaitTimeoutException.class,
                () -> apns.waitFor(Map.of(), 1, Duration.ofMillis(200)));
        assertTrue(timeout.query().contains("tokenPrefix=" + scope.prefix()), timeout.query());
        // its fault rule went when it ended
        assertTrue(apns.client().faults().stream().noneMatch(rule -> rule.get("id").asText().startsWith(firstPrefix)));
        assertEquals(200, Pushes.push(server, firstToken, HI).statusCode(), "the first test's rule no longer acts");

        // the same rule name again, this test's own
        String token = apns.token();
        assertEquals(scope.prefix() + ".gone", apns.putFault("gone", GONE).get("id").asText());
        assertEquals(410, Pushes.push(server, token, HI).statusCode());
        List<JsonNode> mine = apns.waitFor(Map.of("token", token));
        assertEquals("Unregistered", mine.get(0).path("response").path("reason").asText());

        // a token of another test is refused rather than silently waited on
        assertThrows(IllegalArgumentException.class, () -> apns.waitFor(Map.of("token", firstToken)));
        assertThrows(IllegalArgumentException.class, () -> apns.deliveries(Map.of("tokenPrefix", firstPrefix)));

        // the scoped reset deletes this test's records and rules only
        assertEquals(Map.of("deliveries", 1, "faults", 1, "webPushSubscriptions", 0), apns.reset());
        assertTrue(apns.deliveries(Map.of()).isEmpty());
        assertEquals(3, apns.client().deliveries(Map.of("tokenPrefix", firstPrefix)).size());
        assertEquals(200, Pushes.push(server, apns.token(), HI).statusCode());
    }
}
