package apnsmock

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests that start apns-mock need the binary ($APNS_MOCK_BIN, or apns-mock on PATH). Without
// it they are skipped, and so is the example (whose output needs a server), unless
// APNS_MOCK_E2E_REQUIRED=1, which makes a missing binary a failure.
var binaryMissing error

func TestMain(m *testing.M) {
	flag.Parse()
	if _, err := findBinary(""); err != nil {
		if os.Getenv("APNS_MOCK_E2E_REQUIRED") == "1" {
			fmt.Fprintf(os.Stderr, "apnsmock tests: %v (APNS_MOCK_E2E_REQUIRED=1)\n", err)
			os.Exit(1)
		}
		binaryMissing = err
		fmt.Fprintf(os.Stderr, "apnsmock tests: %v\napnsmock tests: skipping the example and the tests that start apns-mock\n", err)
		if run := flag.Lookup("test.run"); run.Value.String() == "" {
			_ = flag.Set("test.run", "^Test") // examples are named Example…
		}
	}
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}

func requireBinary(t *testing.T) {
	t.Helper()
	if binaryMissing != nil {
		t.Skipf("%v", binaryMissing)
	}
}

var (
	shared      *Mock
	sharedErr   error
	sharedStart sync.Once
)

// sharedMock is one server for the tests that need nothing of their own: each pushes to its own
// device tokens (NewDeviceToken) and waits on them.
func sharedMock(t *testing.T) *Mock {
	t.Helper()
	requireBinary(t)
	sharedStart.Do(func() {
		shared, sharedErr = Start(context.Background(), Options{})
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// pushAnswer is what the APNs port answered a push.
type pushAnswer struct {
	status     int
	protoMajor int
	apnsID     string
	reason     string
}

// push sends an alert to the device as a provider would: POST /3/device/<token> over client.
func push(t *testing.T, client *http.Client, mock *Mock, providerToken, device, alert string) pushAnswer {
	t.Helper()
	payload := fmt.Sprintf(`{"aps":{"alert":%q}}`, alert)
	request, err := http.NewRequestWithContext(testContext(t), http.MethodPost, mock.APNSURL+"/3/device/"+device, strings.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	request.Header.Set("authorization", "bearer "+providerToken)
	request.Header.Set("apns-topic", "com.example.app")
	request.Header.Set("apns-push-type", "alert")
	response, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	body, err := io.ReadAll(response.Body)
	if err != nil {
		t.Fatal(err)
	}
	answer := pushAnswer{status: response.StatusCode, protoMajor: response.ProtoMajor, apnsID: response.Header.Get("apns-id")}
	if len(body) > 0 {
		var reason struct {
			Reason string `json:"reason"`
		}
		if err := json.Unmarshal(body, &reason); err != nil {
			t.Fatalf("the APNs answer %d is no JSON: %q", response.StatusCode, body)
		}
		answer.reason = reason.Reason
	}
	return answer
}

func providerToken(t *testing.T, provider *Provider) string {
	t.Helper()
	token, err := provider.Token()
	if err != nil {
		t.Fatal(err)
	}
	return token
}
