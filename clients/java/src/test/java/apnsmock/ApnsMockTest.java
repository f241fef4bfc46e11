package apnsmock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** ApnsMock and AdminClient on a server of this class's own. */
class ApnsMockTest {
    private static final String HI = "{\"aps\":{\"alert\":\"hi\"}}";
    private static ApnsMock mock;

    @BeforeAll
    static void start() {
        mock = ApnsMock.start();
    }

    @AfterAll
    static void stop() {
        mock.close();
    }

    private static String deviceToken() {
        byte[] bytes = new byte[32];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Test
    void pushOverHttp2WithTheProviderTokenIsAcceptedAndRecorded() throws Exception {
        String token = deviceToken();
        HttpResponse<String> answer = Pushes.push(mock, token, HI);
        assertEquals(HttpClient.Version.HTTP_2, answer.version());
        assertEquals(200, answer.statusCode(), answer.body());
        String apnsId = answer.headers().firstValue("apns-id").orElseThrow();

        List<JsonNode> records = mock.client().waitFor(Map.of("token", token, "payload.aps.alert", "hi"), 1,
                Duration.ofSeconds(10));
        assertEquals(1, records.size());
        assertEquals(apnsId.toLowerCase(), records.get(0).get("apnsId").asText().toLowerCase());
        assertEquals(200, records.get(0).path("response").path("status").asInt());
        assertEquals(records, mock.client().deliveries(Map.of("token", token)));
    }

    @Test
    void faultRuleAnswers410Unregistered() throws Exception {
        String token = deviceToken();
        JsonNode rule = mock.client().putFault("gone-" + token.substring(0, 8),
                "{\"match\":{\"token\":\"" + token + "\"},\"action\":{\"respond\":{\"status\":410,\"reason\":\"Unregistered\"}}}");
        assertEquals(token, rule.path("match").path("token").asText());
        try {
            HttpResponse<String> answer = Pushes.push(mock, token, HI);
            assertEquals(410, answer.statusCode());
            JsonNode body = Json.parse(answer.body());
            assertEquals("Unregistered", body.get("reason").asText());
            assertEquals(200, Pushes.push(mock, deviceToken(), HI).statusCode(), "another token is not affected");
        } finally {
            mock.client().deleteFault(rule.get("id").asText());
        }
        assertEquals(200, Pushes.push(mock, token, HI).statusCode(), "the rule is gone");
    }

    @Test
    void tokenSignedByAnotherKeyIsRefused403InvalidProviderToken() throws Exception {
        ProviderCredentials registered = mock.provider();
        ProviderCredentials impostor = ProviderCredentials.generate(registered.keyId(), registered.teamId(), null);
        HttpResponse<String> answer =
                Pushes.push(mock.httpClient(), mock.apnsUri(), deviceToken(), impostor.token(), HI);
        assertEquals(403, answer.statusCode());
        assertEquals("InvalidProviderToken", Json.parse(answer.body()).get("reason").asText());
    }

    @Test
    void waitTimeoutThrowsWithTheServersExplanation() throws Exception {
        String token = deviceToken();
        assertEquals(200, Pushes.push(mock, token, HI).statusCode());
        WaitTimeoutException timeout = assertThrows(WaitTimeoutException.class,
                () -> mock.client().waitFor(Map.of("token", token, "payload.aps.alert", "bye"), 1, Duration.ofMillis(300)));
        String text = timeout.getMessage();
        assertTrue(text.startsWith("timed out after 300ms: 0 of 1 record matched"), text);
        assertTrue(text.contains("payload.aps.alert: expected bye, got hi"), text);
        assertTrue(text.contains("dashboard: " + mock.adminUri()), text);
        assertEquals(1, timeout.nearMisses().size());
        assertEquals(token, timeout.nearMisses().get(0).path("record").path("token").asText());
        assertTrue(timeout.records().isEmpty());
        assertEquals(Duration.ofMillis(300), timeout.timeout());
        assertTrue(timeout.query().contains("payload.aps.alert=bye"), timeout.query());
    }

    @Test
    void fullResetKeepsTheProviderKeyRegistered() throws Exception {
        String token = deviceToken();
        assertEquals(200, Pushes.push(mock, token, HI).statusCode());
        mock.client().reset();
        assertTrue(mock.client().deliveries(Map.of("token", token)).isEmpty(), "reset deletes the records");
        JsonNode key = mock.client().call("getKey", Map.of("keyId", mock.provider().keyId()), null, null);
        assertEquals(mock.provider().teamId(), key.get("teamId").asText());
        ProviderCredentials impostor = ProviderCredentials.generate(mock.provider().keyId(), mock.provider().teamId(), null);
        assertEquals(403, Pushes.push(mock.httpClient(), mock.apnsUri(), token, impostor.token(), HI).statusCode(),
                "the key is checked again after the reset");
        assertEquals(200, Pushes.push(mock, token, HI).statusCode());
    }

    @Test
    void callBuildsRequestsFromTheOperationTable() {
        JsonNode health = mock.client().call("health", null, null, null);
        assertTrue(health.isObject(), health.toString());
        String pem = mock.client().call("caCertificate", null, null, null).asText();
        assertTrue(pem.startsWith("-----BEGIN CERTIFICATE-----"), pem);
        assertEquals(GeneratedOperations.BY_ID.get("putFault"), GeneratedOperations.PUT_FAULT);
        assertEquals(List.of("id"), GeneratedOperations.PUT_FAULT.pathParameters());

        // a channel id's "/" and "+" stay in one path segment; a query's space is %20, its "+" %2B
        assertEquals("a%2Fb%20c%2B%C3%A9", AdminClient.percentEncode("a/b c+\u00e9"));
        String id = "missing-" + deviceToken().substring(0, 6);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> mock.client().call("listDeliveries", null, Map.of("tokn", "ab"), null));
        assertTrue(refused.getMessage().contains("takes no query parameter tokn"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> mock.client().call("getKey", Map.of(), null, null));
        assertThrows(IllegalArgumentException.class, () -> mock.client().call("noSuchOperation", null, null, null));
        AdminException notFound = assertThrows(AdminException.class, () -> mock.client().deleteFault(id));
        assertEquals(404, notFound.status());
        assertEquals("notFound", notFound.code());
        AdminException bad = assertThrows(AdminException.class,
                () -> mock.client().call("listDeliveries", null, Map.of("status", "abc"), null));
        assertEquals(400, bad.status());
        assertEquals("badParameter", bad.code());
    }

    @Test
    void startFailureCarriesTheProcessesStderr() {
        ApnsMockException error = assertThrows(ApnsMockException.class,
                () -> ApnsMock.builder().args("--no-such-option").startTimeout(Duration.ofSeconds(20)).start());
        assertTrue(error.getMessage().contains("exited with status"), error.getMessage());
        assertFalse(error.stderr().isBlank());
        assertTrue(error.getMessage().contains(error.stderr().strip()), error.getMessage());
    }

    @Test
    void closeStopsTheProcessAndDeletesItsDirectory() throws Exception {
        ApnsMock other = ApnsMock.start();
        Path directory = other.directory();
        ProcessHandle process = ProcessHandle.of(other.pid()).orElseThrow();
        assertTrue(Files.isRegularFile(other.caPath()));
        other.close();
        assertFalse(process.isAlive());
        assertFalse(Files.exists(directory));
        other.close(); // again: nothing
    }
}
