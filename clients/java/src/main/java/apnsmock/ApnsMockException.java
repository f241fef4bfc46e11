package apnsmock;

/**
 * apns-mock could not be found, started or reached. When the process ran, {@link #stderr()} holds
 * what it wrote to its standard error (also appended to the message).
 */
public class ApnsMockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String stderr;

    /** An error with this message and no process output. */
    public ApnsMockException(String message) {
        this(message, "", null);
    }

    /** An error with this message and cause. */
    public ApnsMockException(String message, Throwable cause) {
        this(message, "", cause);
    }

    /** An error with this message, the process's standard error, and a cause (may be null). */
    public ApnsMockException(String message, String stderr, Throwable cause) {
        super(withStderr(message, stderr), cause);
        this.stderr = stderr == null ? "" : stderr;
    }

    /** What the apns-mock process wrote to its standard error, or "" when it did not run. */
    public String stderr() {
        return stderr;
    }

    private static String withStderr(String message, String stderr) {
        if (stderr == null || stderr.isBlank()) {
            return message;
        }
        return message + "\n--- apns-mock stderr ---\n" + stderr.stripTrailing();
    }
}
