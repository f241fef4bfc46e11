package apnsmock;

/**
 * An error answer of the admin API, {@code {"error": {"code": …, "message": …}}}: {@link #status()}
 * is the HTTP status, {@link #code()} the API's stable code ({@code badParameter}, {@code notFound},
 * {@code faultRuleExists}, …) and {@link #apiMessage()} its sentence.
 */
public class AdminException extends ApnsMockException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final String apiMessage;
    private final String method;
    private final String path;

    /** The error answer {@code status code: apiMessage} of {@code method path}. */
    public AdminException(int status, String code, String apiMessage, String method, String path) {
        super(method + " " + path + ": " + status + " " + code + ": " + apiMessage);
        this.status = status;
        this.code = code;
        this.apiMessage = apiMessage;
        this.method = method;
        this.path = path;
    }

    /** The HTTP status (400, 401, 404, 409, 503, …). */
    public int status() {
        return status;
    }

    /** The API's error code, or {@code http} when the answer was not the API's error document. */
    public String code() {
        return code;
    }

    /** The API's sentence naming what was wrong. */
    public String apiMessage() {
        return apiMessage;
    }

    /** The request's method. */
    public String method() {
        return method;
    }

    /** The request's path (without the query). */
    public String path() {
        return path;
    }
}
