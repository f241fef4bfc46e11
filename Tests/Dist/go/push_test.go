// The Go module from dist/goproxy, fetched with go get; the binary is dist/apns-mock installed on PATH.
package disttest

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	apnsmock "github.com/apns-mock/apns-mock/clients/go"
)

func TestPushIsRecorded(t *testing.T) {
	if value, set := os.LookupEnv("APNS_MOCK_BIN"); set {
		t.Fatalf("APNS_MOCK_BIN is set (%q): this test is of apns-mock on PATH", value)
	}
	ctx := context.Background()
	mock, err := apnsmock.Start(ctx, apnsmock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer mock.Stop()
	device := apnsmock.NewDeviceToken()
	token, err := mock.Provider.Token()
	if err != nil {
		t.Fatal(err)
	}
	request, _ := http.NewRequest("POST", mock.APNSURL+"/3/device/"+device, strings.NewReader(`{"aps":{"alert":"from the Go module"}}`))
	request.Header.Set("authorization", "bearer "+token)
	request.Header.Set("apns-topic", "com.example.app")
	request.Header.Set("apns-push-type", "alert")
	response, err := mock.HTTPClient().Do(request)
	if err != nil {
		t.Fatal(err)
	}
	response.Body.Close()
	if response.StatusCode != 200 || response.ProtoMajor != 2 {
		t.Fatalf("push answered %s over %s", response.Status, response.Proto)
	}
	if _, err := mock.Client.Wait(ctx, url.Values{"token": {device}, "payload.aps.alert": {"from the Go module"}}, 1); err != nil {
		t.Fatal(err)
	}
}
