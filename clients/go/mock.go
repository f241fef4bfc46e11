package apnsmock

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrBinaryNotFound is the error (errors.Is) Start answers when it finds no apns-mock binary.
var ErrBinaryNotFound = errors.New("apns-mock binary not found")

// Options are how Start runs apns-mock. The zero value runs `apns-mock serve` from
// $APNS_MOCK_BIN (else PATH) with generated provider credentials.
type Options struct {
	// Binary is the apns-mock binary; when empty, $APNS_MOCK_BIN, else apns-mock on PATH.
	Binary string
	// Args are added to `apns-mock serve --port 0 --admin-port 0` (see `apns-mock serve --help`).
	Args []string
	// AdminToken is passed as --admin-token, and sent by the Client.
	AdminToken string
	// Env adds to (or replaces in) the process's environment.
	Env map[string]string
	// StartTimeout bounds the wait for the ready line (30 s when zero).
	StartTimeout time.Duration
	// StopTimeout is how long Stop waits after SIGTERM before SIGKILL (10 s when zero).
	StopTimeout time.Duration

	// ProviderKeyPath is your own .p8 provider key (PKCS#8 PEM, EC P-256); when empty,
	// $APNS_MOCK_PROVIDER_KEY; when that is empty too, a key is generated for this mock.
	ProviderKeyPath string
	// ProviderKeyID is the key's id; when empty, $APNS_MOCK_PROVIDER_KEY_ID, else read from a
	// key file named AuthKey_<KEYID>.p8, else (a generated key) 10 random characters.
	ProviderKeyID string
	// ProviderTeamID is the team id; when empty, $APNS_MOCK_PROVIDER_TEAM_ID, else DefaultTeamID.
	ProviderTeamID string
}

// StartError is Start's error when apns-mock exits or prints no ready line in time; Stderr
// holds what it wrote to its standard error, which Error includes.
type StartError struct {
	Message string
	Stderr  string
}

func (e *StartError) Error() string {
	if strings.TrimSpace(e.Stderr) == "" {
		return e.Message
	}
	return e.Message + "\n--- apns-mock stderr ---\n" + strings.TrimRight(e.Stderr, "\n")
}

// Mock is an apns-mock process Start runs on free ports, in a temporary directory of its own.
type Mock struct {
	// APNSURL is where a provider pushes: "https://127.0.0.1:<port>" (POST /3/device/<token>,
	// HTTP/2 over TLS).
	APNSURL string
	// AdminURL is the admin API: "http://127.0.0.1:<port>".
	AdminURL string
	// ChannelsURL is the broadcast channels' port: "https://127.0.0.1:<port>".
	ChannelsURL string
	// WebPushURL is the Web Push listener, "https://127.0.0.1:<port>": Web Push subscriptions'
	// endpoints start with it (WebPushSubscription). TLSConfig and HTTPClient reach it too.
	WebPushURL string
	// CAPath is the CA certificate (PEM) the APNs ports' certificate chains to, in a file; empty
	// when the server was given certificate files (--tls-cert) and has no CA to give.
	CAPath string
	// Dir is the temporary directory: the process's working directory, its XDG_STATE_HOME
	// (state/), stdout.log, stderr.log, ca.pem and a generated key. Stop removes it.
	Dir string
	// Client is the admin API's client.
	Client *Client
	// Provider is the provider credentials registered with the mock.
	Provider *Provider

	cmd         *exec.Cmd
	exited      chan struct{}
	caPEM       []byte
	stopTimeout time.Duration

	httpMu     sync.Mutex
	httpClient *http.Client

	stopOnce sync.Once
	stopErr  error
}

var readyLine = regexp.MustCompile(`(?m)^apns-mock ready apns=(\S+) admin=(\S+)(?: channels=(\S+))?(?: webpush=(\S+))?`)

// findBinary is the apns-mock binary: given, else $APNS_MOCK_BIN, else apns-mock on PATH, as an
// absolute path (the process runs in its own directory).
func findBinary(given string) (string, error) {
	name, from := given, "Options.Binary"
	if name == "" {
		if env := os.Getenv("APNS_MOCK_BIN"); env != "" {
			name, from = env, "$APNS_MOCK_BIN"
		} else {
			name, from = "apns-mock", "PATH"
		}
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %q (from %s): set Options.Binary, set $APNS_MOCK_BIN, or put apns-mock on PATH", ErrBinaryNotFound, name, from)
	}
	return filepath.Abs(path)
}

// Start runs `apns-mock serve --port 0 --admin-port 0 [Args]` in a new temporary directory
// with its own XDG_STATE_HOME (so the development CA the binary generates is this run's), waits
// for its ready line, fetches the CA (GET /v1/ca.pem) into CAPath, and registers the provider
// key (PUT /v1/keys/{keyId}). ctx bounds the start only, not the process's life: call Stop.
//
// It fails with an error wrapping ErrBinaryNotFound when there is no binary, and a *StartError
// (with the process's stderr) when the process exits or prints no ready line within
// StartTimeout.
func Start(ctx context.Context, options Options) (*Mock, error) {
	binary, err := findBinary(options.Binary)
	if err != nil {
		return nil, err
	}
	keyPath := firstOf(options.ProviderKeyPath, os.Getenv("APNS_MOCK_PROVIDER_KEY"))
	keyID := firstOf(options.ProviderKeyID, os.Getenv("APNS_MOCK_PROVIDER_KEY_ID"))
	teamID := firstOf(options.ProviderTeamID, os.Getenv("APNS_MOCK_PROVIDER_TEAM_ID"), DefaultTeamID)
	var provider *Provider
	if keyPath != "" {
		if provider, err = LoadProvider(keyPath, keyID, teamID); err != nil {
			return nil, err
		}
	}

	dir, err := os.MkdirTemp("", "apns-mock-")
	if err != nil {
		return nil, err
	}
	m := &Mock{Dir: dir, exited: make(chan struct{}), stopTimeout: options.StopTimeout}
	if m.stopTimeout <= 0 {
		m.stopTimeout = 10 * time.Second
	}
	if provider == nil {
		if provider, err = generateProvider(dir, keyID, teamID); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	m.Provider = provider
	if err := m.run(binary, options); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := m.waitUntilReady(ctx, options.StartTimeout); err != nil {
		return nil, err
	}

	m.Client = NewClient(m.AdminURL, options.AdminToken)
	ca, err := m.Client.CACertificate(ctx)
	switch {
	case err == nil:
		m.caPEM = []byte(ca)
		m.CAPath = filepath.Join(dir, "ca.pem")
		if err := os.WriteFile(m.CAPath, m.caPEM, 0o644); err != nil {
			return nil, m.fail(fmt.Sprintf("writing the CA: %v", err))
		}
	case isAdminError(err):
		// A server given certificate files has no CA to give; CAPath stays empty.
	default:
		return nil, m.fail(fmt.Sprintf("fetching the CA: %v", err))
	}

	publicKey, err := provider.PublicKeyPEM()
	if err != nil {
		return nil, m.fail(err.Error())
	}
	body := map[string]any{"teamId": provider.TeamID, "environment": "both", "publicKey": publicKey}
	if err := m.Client.keep(ctx, provider.KeyID, body); err != nil {
		return nil, m.fail(fmt.Sprintf("registering the provider key %s: %v", provider.KeyID, err))
	}
	return m, nil
}

func (m *Mock) run(binary string, options Options) error {
	state := filepath.Join(m.Dir, "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		return err
	}
	// stdout and stderr go to files, not pipes: nothing has to keep reading them.
	stdout, err := os.Create(filepath.Join(m.Dir, "stdout.log"))
	if err != nil {
		return err
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(m.Dir, "stderr.log"))
	if err != nil {
		return err
	}
	defer stderr.Close()
	args := append([]string{"serve", "--port", "0", "--admin-port", "0"}, options.Args...)
	if options.AdminToken != "" {
		args = append(args, "--admin-token", options.AdminToken)
	}
	m.cmd = exec.Command(binary, args...)
	m.cmd.Dir = m.Dir
	// Later entries win: Env overrides the inherited environment and XDG_STATE_HOME.
	// The server runs in its own directory; relative paths in Args mean the caller's.
	caller, _ := os.Getwd()
	m.cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "APNS_MOCK_BASE_DIRECTORY="+caller)
	for name, value := range options.Env {
		m.cmd.Env = append(m.cmd.Env, name+"="+value)
	}
	m.cmd.Stdout, m.cmd.Stderr = stdout, stderr
	if err := m.cmd.Start(); err != nil {
		return fmt.Errorf("apnsmock: starting %s: %w", binary, err)
	}
	go func() {
		_ = m.cmd.Wait()
		close(m.exited)
	}()
	return nil
}

func (m *Mock) waitUntilReady(ctx context.Context, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	command := strings.Join(m.cmd.Args, " ")
	for {
		output, _ := os.ReadFile(filepath.Join(m.Dir, "stdout.log"))
		if match := readyLine.FindSubmatch(output); match != nil {
			m.APNSURL, m.AdminURL, m.ChannelsURL, m.WebPushURL = string(match[1]), string(match[2]), string(match[3]), string(match[4])
			return nil
		}
		select {
		case <-m.exited:
			return m.fail(fmt.Sprintf("apns-mock exited with %v before it was ready (%s)", m.cmd.ProcessState, command))
		case <-deadline.C:
			return m.fail(fmt.Sprintf("apns-mock printed no ready line within %s (%s)", timeout, command))
		case <-ctx.Done():
			return m.fail(fmt.Sprintf("apns-mock was not ready when the context ended: %v (%s)", ctx.Err(), command))
		case <-tick.C:
		}
	}
}

// fail stops the process, removes the directory, and answers a *StartError with its stderr.
func (m *Mock) fail(message string) error {
	stderr := m.Stderr()
	_ = m.Stop()
	return &StartError{Message: "apnsmock: " + message, Stderr: stderr}
}

// Stderr is what the process wrote to its standard error so far.
func (m *Mock) Stderr() string {
	data, _ := os.ReadFile(filepath.Join(m.Dir, "stderr.log"))
	return string(data)
}

// TLSConfig is a TLS configuration for the APNs port: it trusts the mock's CA (the system's
// roots when the mock has none to give) and offers HTTP/2 ("h2") by ALPN. A new one each call.
func (m *Mock) TLSConfig() *tls.Config {
	config := &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"h2"}}
	if len(m.caPEM) > 0 {
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(m.caPEM)
		config.RootCAs = pool
	}
	return config
}

// HTTPClient is an *http.Client that pushes over HTTP/2 with TLSConfig (net/http negotiates h2 by
// ALPN when the Transport has ForceAttemptHTTP2). The same client each call; Stop closes its
// idle connections.
func (m *Mock) HTTPClient() *http.Client {
	m.httpMu.Lock()
	defer m.httpMu.Unlock()
	if m.httpClient == nil {
		m.httpClient = &http.Client{Transport: &http.Transport{TLSClientConfig: m.TLSConfig(), ForceAttemptHTTP2: true}}
	}
	return m.httpClient
}

// Stop sends SIGTERM, waits for the process to exit (SIGKILL after Options.StopTimeout), and
// removes Dir. Later calls answer the first's error: nil, or why the process had to be killed
// or the directory could not be removed.
func (m *Mock) Stop() error {
	m.stopOnce.Do(func() {
		m.httpMu.Lock()
		if m.httpClient != nil {
			m.httpClient.CloseIdleConnections()
		}
		m.httpMu.Unlock()
		if m.cmd != nil && m.cmd.Process != nil {
			select {
			case <-m.exited:
			default:
				_ = m.cmd.Process.Signal(syscall.SIGTERM)
				timer := time.NewTimer(m.stopTimeout)
				select {
				case <-m.exited:
				case <-timer.C:
					_ = m.cmd.Process.Kill()
					<-m.exited
					m.stopErr = fmt.Errorf("apnsmock: apns-mock did not exit within %s of SIGTERM: killed", m.stopTimeout)
				}
				timer.Stop()
			}
		}
		if err := os.RemoveAll(m.Dir); err != nil && m.stopErr == nil {
			m.stopErr = err
		}
	})
	return m.stopErr
}

// NewDeviceToken is a new random device token: 64 hex digits, as APNs's are.
func NewDeviceToken() string {
	token := make([]byte, 32)
	if _, err := rand.Read(token); err != nil {
		panic(err)
	}
	return hex.EncodeToString(token)
}

func firstOf(values ...string) string {
	for _, value := range values {
		if value != "" {
			return value
		}
	}
	return ""
}
