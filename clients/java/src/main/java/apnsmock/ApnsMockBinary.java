package apnsmock;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where the apns-mock binary comes from, in this order: the path given to {@link ApnsMock}; {@code
 * $APNS_MOCK_BIN}; the binary this jar carries for this OS and architecture; {@code apns-mock} on
 * {@code PATH}.
 *
 * <p>A jar built with {@code build.sh --binary} carries the binary as the resource {@code
 * apnsmock/native/<platform>/apns-mock} with its SHA-256 beside it ({@code apns-mock.sha256}). It is
 * extracted once per user, to {@code $XDG_CACHE_HOME/apns-mock/<version>-<first 12 hex digits of
 * the SHA-256>/apns-mock} ({@code ~/.cache/…} without {@code XDG_CACHE_HOME}): written to a
 * temporary file in that directory, checked against the SHA-256, made executable (755) and renamed
 * into place, so a process that sees the file sees all of it; later starts (in this JVM or another)
 * use it as it is.
 */
public final class ApnsMockBinary {
    /** The directory of the embedded binaries in the jar. */
    public static final String RESOURCE_DIRECTORY = "apnsmock/native/";

    private static final String NAME = "apns-mock";

    private ApnsMockBinary() {}

    /** This library's version, as build.sh recorded it ({@code unknown} when run from unpackaged classes). */
    public static String version() {
        try (InputStream in = resource("apnsmock/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException error) {
            throw new UncheckedIOException(error);
        }
    }

    /**
     * This JVM's platform as the jar names it: {@code linux-x86_64}, {@code linux-aarch64}, {@code
     * macos-aarch64}, {@code macos-x86_64}, or {@code <os.name>-<os.arch>} for another.
     */
    public static String platform() {
        return platform(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    static String platform(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        os = os.startsWith("linux") ? "linux" : os.startsWith("mac") || os.startsWith("darwin") ? "macos"
                : os.replaceAll("[^a-z0-9]+", "");
        String arch = osArch.toLowerCase(Locale.ROOT);
        arch = switch (arch) {
            case "amd64", "x86_64", "x86-64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return os + "-" + arch;
    }

    /** The platforms whose binary this jar carries (none for a jar built without {@code --binary}). */
    public static List<String> embeddedPlatforms() {
        try (InputStream in = resource(RESOURCE_DIRECTORY + "platforms")) {
            if (in == null) {
                return List.of();
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(line -> !line.isEmpty()).toList();
        } catch (IOException error) {
            throw new UncheckedIOException(error);
        }
    }

    /**
     * The binary to run: {@code given} when not null (a path, or a name looked up on PATH), else
     * {@code $APNS_MOCK_BIN}, else the embedded binary of this platform (extracted on first use),
     * else {@code apns-mock} on PATH.
     *
     * @throws ApnsMockException when none is found, saying which platforms the jar carries when
     *     this is not one of them
     */
    public static Path find(Path given) {
        return find(given, System.getenv());
    }

    static Path find(Path given, Map<String, String> environment) {
        String path = environment.getOrDefault("PATH", "");
        if (given != null) {
            return which(given.toString(), path).orElseThrow(() -> new ApnsMockException(
                    "apns-mock not found or not executable: " + given + " (given)"));
        }
        String fromEnvironment = environment.get("APNS_MOCK_BIN");
        if (fromEnvironment != null && !fromEnvironment.isEmpty()) {
            return which(fromEnvironment, path).orElseThrow(() -> new ApnsMockException(
                    "apns-mock not found or not executable: " + fromEnvironment + " (from $APNS_MOCK_BIN)"));
        }
        String platform = platform();
        List<String> embedded = embeddedPlatforms();
        if (embedded.contains(platform)) {
            return extract(platform, environment);
        }
        Optional<Path> onPath = which(NAME, path);
        if (onPath.isPresent()) {
            return onPath.get();
        }
        if (!embedded.isEmpty()) {
            throw new ApnsMockException("this apns-mock jar carries the server for " + String.join(", ", embedded)
                    + " only, and this JVM runs on " + platform + " (os.name=" + System.getProperty("os.name")
                    + ", os.arch=" + System.getProperty("os.arch") + "): set APNS_MOCK_BIN to an apns-mock built "
                    + "for it, or put one on PATH");
        }
        throw new ApnsMockException("apns-mock not found: pass its path to ApnsMock.start(path), set APNS_MOCK_BIN, "
                + "put apns-mock on PATH, or use a jar built with the binary (build.sh --binary)");
    }

    private static Optional<Path> which(String name, String searchPath) {
        if (name.contains(File.separator)) {
            Path candidate = Path.of(name).toAbsolutePath();
            return Files.isRegularFile(candidate) && Files.isExecutable(candidate)
                    ? Optional.of(candidate) : Optional.empty();
        }
        for (String directory : searchPath.split(File.pathSeparator)) {
            if (directory.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(directory, name).toAbsolutePath();
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The per-user directory the embedded binaries are extracted under: {@code
     * $XDG_CACHE_HOME/apns-mock}, or {@code ~/.cache/apns-mock} when it is unset or not absolute.
     */
    public static Path cacheDirectory() {
        return cacheDirectory(System.getenv());
    }

    static Path cacheDirectory(Map<String, String> environment) {
        String cache = environment.get("XDG_CACHE_HOME");
        Path root = cache != null && !cache.isEmpty() && Path.of(cache).isAbsolute()
                ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache");
        return root.resolve(NAME);
    }

    /**
     * The embedded binary of {@code platform}, extracted to the cache directory unless it is already
     * there (see the class comment).
     */
    static synchronized Path extract(String platform, Map<String, String> environment) {
        String base = RESOURCE_DIRECTORY + platform + "/";
        String sha256;
        try (InputStream in = resource(base + NAME + ".sha256")) {
            if (in == null) {
                throw new ApnsMockException("this jar lists " + platform + " but carries no " + base + NAME + ".sha256");
            }
            sha256 = new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip().split("\\s+")[0]
                    .toLowerCase(Locale.ROOT);
        } catch (IOException error) {
            throw new UncheckedIOException(error);
        }
        if (!sha256.matches("[0-9a-f]{64}")) {
            throw new ApnsMockException(base + NAME + ".sha256 holds no SHA-256: " + sha256);
        }
        Path directory = cacheDirectory(environment).resolve(version() + "-" + sha256.substring(0, 12));
        Path target = directory.resolve(NAME);
        if (Files.isRegularFile(target) && Files.isExecutable(target)) {
            return target;
        }
        Path partial = null;
        try {
            Files.createDirectories(directory);
            partial = Files.createTempFile(directory, "." + NAME + "-", ".part");
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (InputStream in = resource(base + NAME)) {
                if (in == null) {
                    throw new ApnsMockException("this jar lists " + platform + " but carries no " + base + NAME);
                }
                Files.copy(new DigestInputStream(in, digest), partial, StandardCopyOption.REPLACE_EXISTING);
            }
            String actual = HexFormat.of().formatHex(digest.digest());
            if (!actual.equals(sha256)) {
                throw new ApnsMockException("the apns-mock this jar carries for " + platform + " has SHA-256 " + actual
                        + ", not the " + sha256 + " recorded beside it: the jar is damaged");
            }
            Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException error) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
            partial = null;
            return target;
        } catch (IOException error) {
            throw new ApnsMockException("cannot extract apns-mock to " + target + ": " + error, error);
        } catch (NoSuchAlgorithmException error) {
            throw new IllegalStateException(error);
        } finally {
            if (partial != null) {
                try {
                    Files.deleteIfExists(partial);
                } catch (IOException ignored) {
                    // a temporary file left behind; the next extraction makes another
                }
            }
        }
    }

    private static InputStream resource(String name) {
        ClassLoader loader = ApnsMockBinary.class.getClassLoader();
        return loader == null ? ClassLoader.getSystemResourceAsStream(name) : loader.getResourceAsStream(name);
    }
}
