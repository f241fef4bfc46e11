package apnsmock;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;

/**
 * {@code GET /v1/deliveries/wait} answered 408: fewer than {@link #count()} records matched before
 * the timeout ran out.
 *
 * <p>The message is the server's {@code explanation}: the conditions, each record that matched, the
 * closest records with each condition that does not hold ({@code field: expected X, got Y}, "did you
 * mean" for a misspelled payload path) and a dashboard link — the words {@code apns-mock wait} and
 * the other clients print. It is an {@link AssertionError}, so a test whose push never came fails
 * rather than errors.
 */
public class WaitTimeoutException extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final int count;
    private final Duration timeout;
    private final String query;
    private final transient List<JsonNode> records;
    private final transient List<JsonNode> nearMisses;
    private final String explanation;
    private final String dashboard;

    /**
     * A timed-out wait for {@code count} records matching {@code query} (a query string) within
     * {@code timeout}; {@code explanation} is the server's text (null from a server too old to give
     * one).
     */
    public WaitTimeoutException(int count, Duration timeout, String query, List<JsonNode> records,
            List<JsonNode> nearMisses, String explanation, String dashboard) {
        super(explanation != null ? explanation : fallback(count, timeout, query, records));
        this.count = count;
        this.timeout = timeout;
        this.query = query;
        this.records = List.copyOf(records);
        this.nearMisses = List.copyOf(nearMisses);
        this.explanation = explanation;
        this.dashboard = dashboard;
    }

    private static String fallback(int count, Duration timeout, String query, List<JsonNode> records) {
        return ("timed out after " + timeout.toMillis() + "ms: " + records.size() + " of " + count + " matched "
                + query).stripTrailing();
    }

    /** How many records the wait asked for. */
    public int count() {
        return count;
    }

    /** How long it waited (null when the query gave a timeout this client could not read). */
    public Duration timeout() {
        return timeout;
    }

    /** The matcher waited on, as a query string ({@code tokenPrefix=…&status=200}). */
    public String query() {
        return query;
    }

    /** The records that did match (fewer than {@link #count()}). */
    public List<JsonNode> records() {
        return records;
    }

    /**
     * The recent records closest to matching, as the API gives them: {@code {sequence, satisfied, of,
     * differences: [{field, expected, actual, suggestion?}], record}}.
     */
    public List<JsonNode> nearMisses() {
        return nearMisses;
    }

    /** The server's explanation (the message), or null from an older server. */
    public String explanation() {
        return explanation;
    }

    /** The dashboard's address filtered to the matcher. */
    public String dashboard() {
        return dashboard;
    }
}
