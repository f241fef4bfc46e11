package apnsmock

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPushOverHTTP2IsRecordedAndWaitFindsIt(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	device := NewDeviceToken()
	answer := push(t, mock.HTTPClient(), mock, providerToken(t, mock.Provider), device, "hello")
	if answer.status != http.StatusOK || answer.protoMajor != 2 || answer.apnsID == "" {
		t.Fatalf("push answered %+v; want 200 over HTTP/2 with an apns-id", answer)
	}
	records, err := mock.Client.Wait(testContext(t), url.Values{"token": {device}, "payload.aps.alert": {"hello"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 1 {
		t.Fatalf("Wait answered %d records; want 1", len(records))
	}
	record := records[0]
	if record.APNSID != answer.apnsID || record.Token == nil || *record.Token != device {
		t.Fatalf("the record is of apns-id %s, token %v; want %s, %s", record.APNSID, record.Token, answer.apnsID, device)
	}
	if record.Response == nil || record.Response.Status == nil || *record.Response.Status != 200 {
		t.Fatalf("the record's response is %+v; want status 200", record.Response)
	}
	auth, _ := record.Auth.(map[string]any)
	if auth["keyId"] != mock.Provider.KeyID || auth["signatureVerified"] != true {
		t.Fatalf("the record's auth is %v; want key %s, its signature verified", record.Auth, mock.Provider.KeyID)
	}

	// The same record through Deliveries and through Do with the operation's id.
	listed, err := mock.Client.Deliveries(testContext(t), url.Values{"token": {device}})
	if err != nil || len(listed) != 1 || listed[0].Sequence != record.Sequence {
		t.Fatalf("Deliveries answered %d records (%v); want #%d", len(listed), err, record.Sequence)
	}
	raw, err := mock.Client.Do(testContext(t), "getDelivery", map[string]string{"apnsId": answer.apnsID}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var byID ExplainedDelivery
	if err := json.Unmarshal(raw, &byID); err != nil || byID.Sequence != record.Sequence {
		t.Fatalf("getDelivery answered #%d (%v); want #%d", byID.Sequence, err, record.Sequence)
	}
}

func TestFaultRuleAnswers410Unregistered(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	ctx := testContext(t)
	device := NewDeviceToken()
	ruleID := "gone-" + device[:8]
	rule := putUnregisteredRule(t, mock, ruleID, device, nil)
	if rule.ID != ruleID {
		t.Fatalf("PutFault answered the rule %q; want %q", rule.ID, ruleID)
	}
	token := providerToken(t, mock.Provider)
	answer := push(t, mock.HTTPClient(), mock, token, device, "gone")
	if answer.status != http.StatusGone || answer.reason != "Unregistered" {
		t.Fatalf("push answered %+v; want 410 Unregistered", answer)
	}
	records, err := mock.Client.Wait(ctx, url.Values{"token": {device}, "status": {"410"}, "faultId": {ruleID}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if records[0].Response == nil || records[0].Response.Reason == nil || *records[0].Response.Reason != "Unregistered" {
		t.Fatalf("the record's response is %+v; want Unregistered", records[0].Response)
	}
	// Another device is not matched by the rule; once it is deleted, neither is this one.
	if other := push(t, mock.HTTPClient(), mock, token, NewDeviceToken(), "other"); other.status != http.StatusOK {
		t.Fatalf("a push to another device answered %+v; want 200", other)
	}
	if err := mock.Client.DeleteFault(ctx, ruleID); err != nil {
		t.Fatal(err)
	}
	if again := push(t, mock.HTTPClient(), mock, token, device, "back"); again.status != http.StatusOK {
		t.Fatalf("after DeleteFault the push answered %+v; want 200", again)
	}
}

// A wait is open before the push, and the push waits out a fault rule's delay before its 410:
// the wait returns the answered record, no earlier than the delay, and carries the rule's id.
func TestALiveWaitSeesADelayed410(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	ctx := testContext(t)
	device := NewDeviceToken()
	ruleID := "slow-gone-" + device[:8]
	putUnregisteredRule(t, mock, ruleID, device, FaultDelay1{Duration: "1s"})
	defer mock.Client.DeleteFault(ctx, ruleID)
	type waited struct {
		records []Record
		err     error
		at      time.Time
	}
	done := make(chan waited, 1)
	go func() {
		records, err := mock.Client.Wait(ctx, url.Values{"token": {device}, "status": {"410"}, "timeout": {"20s"}}, 1)
		done <- waited{records, err, time.Now()}
	}()
	time.Sleep(200 * time.Millisecond) // the wait is open on the server before the push
	started := time.Now()
	answer := push(t, mock.HTTPClient(), mock, providerToken(t, mock.Provider), device, "slow")
	if answer.status != http.StatusGone || answer.reason != "Unregistered" {
		t.Fatalf("push answered %+v; want 410 Unregistered after the delay", answer)
	}
	if elapsed := time.Since(started); elapsed < 900*time.Millisecond {
		t.Fatalf("the push was answered after %v; the rule holds it 1 s", elapsed)
	}
	result := <-done
	if result.err != nil {
		t.Fatal(result.err)
	}
	if len(result.records) != 1 || result.records[0].FaultID == nil || *result.records[0].FaultID != ruleID {
		t.Fatalf("the wait returned %+v; want the one record of rule %s", result.records, ruleID)
	}
	if result.at.Sub(started) < 900*time.Millisecond {
		t.Fatalf("the wait returned %v after the push started, before the delayed answer", result.at.Sub(started))
	}
}

// putUnregisteredRule puts the fault rule ruleID: pushes to device are answered 410 Unregistered, after delay
// when it is not nil.
func putUnregisteredRule(t *testing.T, mock *Mock, ruleID, device string, delay FaultDelay) *FaultRule {
	t.Helper()
	rule, err := mock.Client.PutFault(testContext(t), ruleID, FaultRuleBody{
		Match:  &FaultMatch{Token: &device},
		Action: FaultAction{Delay: delay, Respond: FaultResponseError{Status: 410, Reason: "Unregistered"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rule
}

// forgedToken is a token with the provider's key id and team id, signed by another key.
func forgedToken(t *testing.T, provider *Provider) string {
	t.Helper()
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	forger, err := NewProvider(other, provider.KeyID, provider.TeamID)
	if err != nil {
		t.Fatal(err)
	}
	return providerToken(t, forger)
}

// freshClient pushes on connections of its own (a refused token may end its connection).
func freshClient(mock *Mock) *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: mock.TLSConfig(), ForceAttemptHTTP2: true}}
}

func TestTokenSignedByAnotherKeyIsRefused(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	answer := push(t, freshClient(mock), mock, forgedToken(t, mock.Provider), NewDeviceToken(), "forged")
	if answer.status != http.StatusForbidden || answer.reason != "InvalidProviderToken" {
		t.Fatalf("a push with a forged token answered %+v; want 403 InvalidProviderToken", answer)
	}
}

func TestWaitTimeoutCarriesTheServersExplanation(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	ctx := testContext(t)
	device := NewDeviceToken()
	if answer := push(t, mock.HTTPClient(), mock, providerToken(t, mock.Provider), device, "hello"); answer.status != 200 {
		t.Fatalf("push answered %+v", answer)
	}
	records, err := mock.Client.Wait(ctx, url.Values{"token": {device}, "payload.aps.alert": {"good bye"}, "timeout": {"300ms"}}, 1)
	var timeout *WaitTimeoutError
	if !errors.As(err, &timeout) {
		t.Fatalf("Wait answered %d records and %v; want a *WaitTimeoutError", len(records), err)
	}
	for _, want := range []string{"timed out after", "0 of 1", "closest records:", "payload.aps.alert: expected good bye, got hello", "dashboard: "} {
		if !strings.Contains(timeout.Error(), want) {
			t.Errorf("the error's text lacks %q:\n%s", want, timeout.Error())
		}
	}
	if len(timeout.NearMisses) != 1 || timeout.NearMisses[0].Record.Token == nil || *timeout.NearMisses[0].Record.Token != device {
		t.Fatalf("NearMisses = %+v; want the record pushed to %s", timeout.NearMisses, device)
	}
	if timeout.Count != 1 || timeout.Timeout != "300ms" || !strings.Contains(timeout.Query, "payload.aps.alert=good%20bye") ||
		!strings.HasPrefix(timeout.Dashboard, mock.AdminURL+"/#filter=") {
		t.Fatalf("the error's fields: count %d, timeout %q, query %q, dashboard %q", timeout.Count, timeout.Timeout, timeout.Query, timeout.Dashboard)
	}
}

func TestAdminErrorCarriesTheAPIsCode(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	_, err := mock.Client.Wait(testContext(t), url.Values{"tokn": {"00"}}, 1)
	var adminErr *AdminError
	if !errors.As(err, &adminErr) || adminErr.Status != 400 || adminErr.Code != "badParameter" || !strings.Contains(adminErr.Message, "tokn") {
		t.Fatalf("a misspelled field answered %v; want 400 badParameter naming it", err)
	}
}

func TestResetKeepsTheProviderKeyAndStopCleansUp(t *testing.T) {
	requireBinary(t)
	ctx := testContext(t)
	mock, err := Start(ctx, Options{AdminToken: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Stop()
	device := NewDeviceToken()
	if answer := push(t, mock.HTTPClient(), mock, providerToken(t, mock.Provider), device, "before"); answer.status != 200 {
		t.Fatalf("push answered %+v", answer)
	}
	if err := mock.Client.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if records, err := mock.Client.Deliveries(ctx, url.Values{"token": {device}}); err != nil || len(records) != 0 {
		t.Fatalf("after Reset, %d records (%v); want none", len(records), err)
	}
	// POST /v1/reset removes the keys registered since the start; Reset registers the provider's
	// again, so its signature is still checked: a forged token is refused, the real one accepted.
	if key, err := mock.Client.GetKey(ctx, mock.Provider.KeyID); err != nil || key.TeamID != mock.Provider.TeamID {
		t.Fatalf("after Reset, GetKey answered %+v, %v", key, err)
	}
	if answer := push(t, freshClient(mock), mock, forgedToken(t, mock.Provider), device, "forged"); answer.status != 403 {
		t.Fatalf("after Reset a forged token answered %+v; want 403", answer)
	}
	if answer := push(t, mock.HTTPClient(), mock, providerToken(t, mock.Provider), device, "after"); answer.status != 200 {
		t.Fatalf("after Reset the provider's token answered %+v; want 200", answer)
	}

	// The admin token: the mock's Client sends it; a client without it is refused.
	if _, err := NewClient(mock.AdminURL, "").ListKeys(ctx); !isAdminError(err) || err.(*AdminError).Status != 401 {
		t.Fatalf("without the admin token, ListKeys answered %v; want 401", err)
	}

	if err := mock.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mock.Dir); !os.IsNotExist(err) {
		t.Fatalf("after Stop, %s still exists (%v)", mock.Dir, err)
	}
	select {
	case <-mock.exited:
	default:
		t.Fatal("after Stop, the process is still running")
	}
	if _, err := mock.Client.Health(ctx); err == nil {
		t.Fatal("after Stop, the admin API still answers")
	}
}

func TestOwnP8KeyIsRegistered(t *testing.T) {
	requireBinary(t)
	path := writeP8(t, filepath.Join(t.TempDir(), "AuthKey_ABCDE12345.p8"))
	t.Setenv("APNS_MOCK_PROVIDER_KEY", path)
	t.Setenv("APNS_MOCK_PROVIDER_TEAM_ID", "TEAM123456")
	mock, err := Start(testContext(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Stop()
	if mock.Provider.KeyPath != path || mock.Provider.KeyID != "ABCDE12345" || mock.Provider.TeamID != "TEAM123456" {
		t.Fatalf("the provider is %s %s %s; want the file's key ABCDE12345 of TEAM123456", mock.Provider.KeyPath, mock.Provider.KeyID, mock.Provider.TeamID)
	}
	if answer := push(t, mock.HTTPClient(), mock, providerToken(t, mock.Provider), NewDeviceToken(), "own key"); answer.status != 200 {
		t.Fatalf("push answered %+v; want 200", answer)
	}
	if answer := push(t, freshClient(mock), mock, forgedToken(t, mock.Provider), NewDeviceToken(), "forged"); answer.status != 403 {
		t.Fatalf("a forged token answered %+v; want 403", answer)
	}
}

func TestMissingBinaryNamesWhereItLooked(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "apns-mock")
	_, err := Start(testContext(t), Options{Binary: missing})
	if !errors.Is(err, ErrBinaryNotFound) {
		t.Fatalf("Start answered %v; want ErrBinaryNotFound", err)
	}
	for _, want := range []string{missing, "Options.Binary", "$APNS_MOCK_BIN", "PATH"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q: %v", want, err)
		}
	}

	t.Setenv("APNS_MOCK_BIN", "")
	t.Setenv("PATH", t.TempDir())
	if _, err := Start(testContext(t), Options{}); !errors.Is(err, ErrBinaryNotFound) || !strings.Contains(err.Error(), "(from PATH)") {
		t.Fatalf("with neither Options.Binary nor $APNS_MOCK_BIN nor apns-mock on PATH, Start answered %v", err)
	}
}

func TestStartErrorHasTheProcessStderr(t *testing.T) {
	requireBinary(t)
	_, err := Start(testContext(t), Options{Args: []string{"--no-such-flag"}})
	var startErr *StartError
	if !errors.As(err, &startErr) || !strings.Contains(startErr.Message, "exited") || !strings.Contains(startErr.Stderr, "no-such-flag") {
		t.Fatalf("Start with an unknown flag answered %v; want a *StartError with the process's stderr", err)
	}
}
