package apnsmock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The JUnit example of README.md, as it is there. */
class ReadmeExampleTest {
    @RegisterExtension static ApnsMockExtension apns = new ApnsMockExtension();

    @Test
    void welcomePushArrives() throws Exception {
        String device = apns.token();                          // this test's own device token
        HttpRequest push = HttpRequest.newBuilder(apns.apnsUri().resolve("/3/device/" + device))
                .header("authorization", "bearer " + apns.provider().token())
                .header("apns-topic", "com.example.app")
                .POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"alert\":\"Welcome\"}}")).build();
        assertEquals(200, apns.httpClient().send(push, HttpResponse.BodyHandlers.ofString()).statusCode());
        apns.waitFor(Map.of("token", device, "payload.aps.alert", "Welcome"));   // or WaitTimeoutException
    }
}
