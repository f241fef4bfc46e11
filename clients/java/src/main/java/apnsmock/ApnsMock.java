package apnsmock;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * An apns-mock server on free ports, in a temporary directory of its own, for one test run.
 *
 * <pre>{@code
 * try (ApnsMock apns = ApnsMock.start()) {
 *     HttpResponse<String> answer = apns.httpClient().send(HttpRequest.newBuilder(apns.apnsUri().resolve("/3/device/" + token))
 *             .header("authorization", "bearer " + apns.provider().token())
 *             .header("apns-topic", "com.example.app")
 *             .POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"alert\":\"hi\"}}")).build(),
 *         HttpResponse.BodyHandlers.ofString());
 *     apns.client().waitFor(Map.of("token", token));
 * }
 * }</pre>
 *
 * <p>{@link #start()} runs {@code apns-mock serve --port 0 --admin-port 0 <args>} (the binary from
 * {@link ApnsMockBinary#find}) in a new temporary directory with its own {@code XDG_STATE_HOME}, so
 * the development CA it generates is this run's; reads its ready line; fetches the CA ({@code GET
 * /v1/ca.pem}) into {@link #caPath()}; and registers the {@link #provider() provider key}, so
 * tokens it signs are accepted and others refused. {@link #close()} stops it (SIGTERM; SIGKILL
 * after the stop timeout) and deletes the directory.
 */
public final class ApnsMock implements AutoCloseable {
    private static final Pattern READY_LINE =
            Pattern.compile("(?m)^apns-mock ready apns=(\\S+) admin=(\\S+)(?: channels=(\\S+))?(?: webpush=(\\S+))?");

    private final Path binary;
    private final Path directory;
    private final Process process;
    private final Duration stopTimeout;
    private final URI apnsUri;
    private final URI adminUri;
    private final URI channelsUri;
    private final URI webPushUri;
    private final Path caPath;
    private final SSLContext sslContext;
    private final HttpClient httpClient;
    private final AdminClient client;
    private final ProviderCredentials provider;
    private final Thread shutdownHook;
    private boolean closed;

    private ApnsMock(Builder options) {
        this.binary = ApnsMockBinary.find(options.binary);
        this.stopTimeout = options.stopTimeout;
        try {
            this.directory = Files.createTempDirectory("apns-mock-");
        } catch (IOException error) {
            throw new UncheckedIOException("cannot create a temporary directory: " + error, error);
        }
        Process started = null;
        try {
            Path state = Files.createDirectories(directory.resolve("state"));
            String adminToken = options.adminToken != null ? options.adminToken
                    : options.env.getOrDefault("APNS_MOCK_ADMIN_TOKEN", System.getenv("APNS_MOCK_ADMIN_TOKEN"));
            List<String> command = new ArrayList<>(List.of(binary.toString(), "serve", "--port", "0", "--admin-port", "0"));
            command.addAll(options.args);
            if (options.adminToken != null) {
                command.addAll(List.of("--admin-token", options.adminToken));
            }
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    // Files, not pipes: nothing has to keep reading them.
                    .redirectOutput(directory.resolve("stdout.log").toFile())
                    .redirectError(directory.resolve("stderr.log").toFile());
            builder.environment().put("XDG_STATE_HOME", state.toString());
            // The server runs in its own directory; relative paths in the arguments mean the caller's.
            builder.environment().put("APNS_MOCK_BASE_DIRECTORY", Path.of("").toAbsolutePath().toString());
            builder.environment().putAll(options.env);
            started = startProcess(builder, command);
            Matcher ready = awaitReadyLine(started, options.startTimeout, command);
            this.process = started;
            this.apnsUri = URI.create(ready.group(1));
            this.adminUri = URI.create(ready.group(2));
            this.channelsUri = ready.group(3) == null ? null : URI.create(ready.group(3));
            this.webPushUri = ready.group(4) == null ? null : URI.create(ready.group(4));
            this.client = new AdminClient(adminUri, adminToken == null || adminToken.isEmpty() ? null : adminToken);
            this.caPath = directory.resolve("ca.pem");
            Files.writeString(caPath, client.caPem(), StandardCharsets.US_ASCII);
            this.sslContext = trusting(caPath);
            this.httpClient = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_2)
                    .sslContext(sslContext)
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            Map<String, String> environment = new LinkedHashMap<>(System.getenv());
            environment.putAll(options.env);
            this.provider = options.provider != null ? options.provider
                    : ProviderCredentials.fromEnvironment(environment, directory);
            client.registerProviderKey(provider);
        } catch (RuntimeException | IOException | GeneralSecurityException error) {
            String stderr = readStderr();
            stopProcess(started, options.stopTimeout);
            deleteDirectory();
            if (error instanceof ApnsMockException startError && !(error instanceof AdminException)) {
                throw startError;
            }
            throw new ApnsMockException("apns-mock started but could not be set up: " + error, stderr, error);
        }
        this.shutdownHook = new Thread(() -> stopProcess(process, Duration.ofSeconds(2)), "apns-mock-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a server with the defaults: the binary from {@link ApnsMockBinary#find}, no more arguments. */
    public static ApnsMock start() {
        return builder().start();
    }

    /** Starts a server from this binary. */
    public static ApnsMock start(Path binary) {
        return builder().binary(binary).start();
    }

    /** Options for a server: {@code ApnsMock.builder().args("--strict-registry").start()}. */
    public static Builder builder() {
        return new Builder();
    }

    private static Process startProcess(ProcessBuilder builder, List<String> command) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return builder.start();
            } catch (IOException error) {
                // ETXTBSY: a binary extracted a moment ago, while another thread forked, may be busy briefly.
                if (attempt == 5 || String.valueOf(error.getMessage()).indexOf("error=26") < 0) {
                    throw new ApnsMockException("cannot run " + String.join(" ", command) + ": " + error.getMessage(),
                            error);
                }
                try {
                    Thread.sleep(50L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw error;
                }
            }
        }
    }

    private Matcher awaitReadyLine(Process started, Duration timeout, List<String> command) throws IOException {
        Path stdout = directory.resolve("stdout.log");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Matcher matcher = READY_LINE.matcher(Files.readString(stdout, StandardCharsets.UTF_8));
            if (matcher.find()) {
                return matcher;
            }
            if (!started.isAlive()) {
                throw new ApnsMockException("apns-mock exited with status " + started.exitValue()
                        + " before it was ready (" + String.join(" ", command) + ")", readStderr(), null);
            }
            if (System.nanoTime() > deadline) {
                stopProcess(started, stopTimeout);
                throw new ApnsMockException("apns-mock printed no ready line within " + timeout.toMillis() + " ms ("
                        + String.join(" ", command) + ")", readStderr(), null);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException error) {
                Thread.currentThread().interrupt();
                throw new ApnsMockException("interrupted while apns-mock was starting", readStderr(), error);
            }
        }
    }

    /** An SSLContext that trusts the certificates of {@code caPem} (a PEM file) and nothing else. */
    public static SSLContext trusting(Path caPem) throws IOException, GeneralSecurityException {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        int index = 0;
        for (Certificate certificate : factory.generateCertificates(new ByteArrayInputStream(Files.readAllBytes(caPem)))) {
            trusted.setCertificateEntry("apns-mock-ca-" + index++, certificate);
        }
        if (index == 0) {
            throw new GeneralSecurityException(caPem + " holds no certificate");
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** Where a provider pushes: {@code https://127.0.0.1:<port>} (HTTP/2 over TLS). */
    public URI apnsUri() {
        return apnsUri;
    }

    /** The admin API: {@code http://127.0.0.1:<port>}. */
    public URI adminUri() {
        return adminUri;
    }

    /** The channel-management API (broadcast channels), or null when the server has none. */
    public URI channelsUri() {
        return channelsUri;
    }

    /**
     * The Web Push listener, {@code https://127.0.0.1:<port>} ({@code webpush=} of the ready line):
     * Web Push subscriptions' endpoints start with it. Null when the server has none.
     */
    public URI webPushUri() {
        return webPushUri;
    }

    /**
     * {@link AdminClient#createWebPushSubscription()}: a Web Push subscription for a P-256 VAPID key
     * pair generated here. Not scoped: close it when done, or it goes with the server ({@link
     * ApnsScope#webPushSubscription()} closes a test's when the test ends).
     */
    public WebPushSubscription webPushSubscription() {
        return client.createWebPushSubscription();
    }

    /** {@link AdminClient#createWebPushSubscription(String, String, Long)}; not scoped. */
    public WebPushSubscription webPushSubscription(String applicationServerKey, String origin, Long expirationTime) {
        return client.createWebPushSubscription(applicationServerKey, origin, expirationTime);
    }

    /** {@link AdminClient#createWebPushSubscription(WebPushSubscription.Options)}; not scoped. */
    public WebPushSubscription webPushSubscription(WebPushSubscription.Options options) {
        return client.createWebPushSubscription(options);
    }

    /** {@link AdminClient#createWebPushSubscription(KeyPair, String, Long)}; not scoped. */
    public WebPushSubscription webPushSubscription(KeyPair vapidKeyPair, String origin, Long expirationTime) {
        return client.createWebPushSubscription(vapidKeyPair, origin, expirationTime);
    }

    /** The CA certificate (PEM) the APNs ports' certificate chains to. */
    public Path caPath() {
        return caPath;
    }

    /** TLS that trusts the mock's CA only. */
    public SSLContext sslContext() {
        return sslContext;
    }

    /** An HttpClient for the APNs port: HTTP/2, {@link #sslContext()}. One per server, shared. */
    public HttpClient httpClient() {
        return httpClient;
    }

    /** The admin API's client. Its {@link AdminClient#reset()} registers the provider key again. */
    public AdminClient client() {
        return client;
    }

    /** The provider credentials registered with this server; {@link ProviderCredentials#token()} is a valid token. */
    public ProviderCredentials provider() {
        return provider;
    }

    /** The binary that runs. */
    public Path binary() {
        return binary;
    }

    /** The server's temporary directory (its state, logs and ca.pem), deleted by {@link #close()}. */
    public Path directory() {
        return directory;
    }

    /** The server's process id. */
    public long pid() {
        return process.pid();
    }

    /** What the server wrote to its standard error so far. */
    public String stderr() {
        return readStderr();
    }

    /** Stops the server (SIGTERM; SIGKILL after the stop timeout), then deletes its directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopProcess(process, stopTimeout);
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook runs anyway
        }
        deleteDirectory();
    }

    private static void stopProcess(Process process, Duration timeout) {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException error) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private String readStderr() {
        try {
            return Files.readString(directory.resolve("stderr.log"), StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException error) {
            return "";
        }
    }

    private void deleteDirectory() {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // already gone, or partly: a temporary directory
        }
    }

    @Override
    public String toString() {
        return "ApnsMock(apns=" + apnsUri + ", admin=" + adminUri + ")";
    }

    /** The options of a server; {@link #start()} starts one. Not thread-safe. */
    public static final class Builder {
        private Path binary;
        private final List<String> args = new ArrayList<>();
        private String adminToken;
        private final Map<String, String> env = new LinkedHashMap<>();
        private ProviderCredentials provider;
        private Duration startTimeout = Duration.ofSeconds(30);
        private Duration stopTimeout = Duration.ofSeconds(10);

        private Builder() {}

        /** The binary (a path, or a name on PATH); default {@link ApnsMockBinary#find}'s order. */
        public Builder binary(Path binary) {
            this.binary = binary;
            return this;
        }

        /** More {@code serve} arguments, after {@code --port 0 --admin-port 0} ({@code apns-mock serve --help}). */
        public Builder args(String... args) {
            this.args.addAll(List.of(args));
            return this;
        }

        /** More {@code serve} arguments. */
        public Builder args(List<String> args) {
            this.args.addAll(args);
            return this;
        }

        /** Starts the server with {@code --admin-token token}; the admin client sends it. */
        public Builder adminToken(String token) {
            this.adminToken = token;
            return this;
        }

        /** An environment variable of the server process (and of the provider key's lookup). */
        public Builder env(String name, String value) {
            this.env.put(name, value);
            return this;
        }

        /** Environment variables of the server process. */
        public Builder env(Map<String, String> variables) {
            this.env.putAll(variables);
            return this;
        }

        /** The provider key: an Apple {@code .p8} file; {@code keyId} null reads it from {@code AuthKey_<id>.p8}; {@code teamId} null for MOCKTEAM00. */
        public Builder providerKey(Path p8, String keyId, String teamId) {
            this.provider = ProviderCredentials.fromP8(p8, keyId, teamId);
            return this;
        }

        /** These provider credentials (default: the environment's, else a key generated for this server). */
        public Builder provider(ProviderCredentials credentials) {
            this.provider = credentials;
            return this;
        }

        /** How long to wait for the ready line (default 30 s). */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** How long to wait after SIGTERM before SIGKILL (default 10 s). */
        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = timeout;
            return this;
        }

        /**
         * Starts the server.
         *
         * @throws ApnsMockException when no binary is found, or it exits or prints no ready line in
         *     time (with its stderr), or it cannot be set up
         */
        public ApnsMock start() {
            return new ApnsMock(this);
        }
    }
}
