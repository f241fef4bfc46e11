package apnsmock_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"strings"

	apnsmock "github.com/apns-mock/apns-mock/clients/go"
)

// A provider pushes to the mock over HTTP/2 with a token of the registered key, and the test
// waits for the push to arrive (README.md's example, as a test function there).
func Example() {
	ctx := context.Background()
	mock, err := apnsmock.Start(ctx, apnsmock.Options{}) // apns-mock from $APNS_MOCK_BIN, else PATH
	if err != nil {
		log.Fatal(err)
	}
	defer mock.Stop()

	// What the provider under test does, given mock.APNSURL, mock.TLSConfig() (or mock.CAPath)
	// and mock.Provider's key (KeyPath, KeyID, TeamID):
	device := apnsmock.NewDeviceToken()
	token, _ := mock.Provider.Token()
	request, _ := http.NewRequest("POST", mock.APNSURL+"/3/device/"+device, strings.NewReader(`{"aps":{"alert":"Welcome"}}`))
	request.Header.Set("authorization", "bearer "+token)
	request.Header.Set("apns-topic", "com.example.app")
	response, err := mock.HTTPClient().Do(request)
	if err != nil {
		log.Fatal(err)
	}
	response.Body.Close()

	records, err := mock.Client.Wait(ctx, url.Values{"token": {device}, "payload.aps.alert": {"Welcome"}}, 1)
	if err != nil {
		log.Fatal(err) // a *WaitTimeoutError says which records came close, and how they differ
	}
	fmt.Println(response.Proto, response.StatusCode, len(records), *records[0].Topic)
	// Output: HTTP/2.0 200 1 com.example.app
}
