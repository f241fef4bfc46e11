import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import apnsmock.ApnsMockExtension;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The jar from dist/ on a javac classpath: ApnsMockExtension runs the binary the jar carries. */
class PushTest {
    @RegisterExtension static ApnsMockExtension apns = new ApnsMockExtension();

    @Test
    void pushIsRecorded() throws Exception {
        assertNull(System.getenv("APNS_MOCK_BIN"));
        Path cache = Path.of(System.getenv("XDG_CACHE_HOME"), "apns-mock");
        assertTrue(apns.server().binary().startsWith(cache), "runs " + apns.server().binary() + ", not the jar's");
        String device = apns.token();
        HttpRequest push = HttpRequest.newBuilder(apns.apnsUri().resolve("/3/device/" + device))
                .header("authorization", "bearer " + apns.provider().token())
                .header("apns-topic", "com.example.app").header("apns-push-type", "alert")
                .POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"alert\":\"from the jar\"}}")).build();
        HttpResponse<String> answer = apns.httpClient().send(push, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(HttpClient.Version.HTTP_2, answer.version());
        apns.waitFor(Map.of("token", device, "payload.aps.alert", "from the jar"));
    }
}
