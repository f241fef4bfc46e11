package apnsmock;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** A provider's push, as a test sends it: POST /3/device/{token} over the given HTTP/2 client. */
final class Pushes {
    static final String TOPIC = "com.example.app";

    private Pushes() {}

    static HttpResponse<String> push(HttpClient http, URI apns, String deviceToken, String providerToken, String payload)
            throws Exception {
        HttpRequest request = HttpRequest.newBuilder(apns.resolve("/3/device/" + deviceToken))
                .header("authorization", "bearer " + providerToken)
                .header("apns-topic", TOPIC)
                .header("apns-push-type", "alert")
                .POST(HttpRequest.BodyPublishers.ofString(payload, StandardCharsets.UTF_8))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    static HttpResponse<String> push(ApnsMock mock, String deviceToken, String payload) throws Exception {
        return push(mock.httpClient(), mock.apnsUri(), deviceToken, mock.provider().token(), payload);
    }
}
