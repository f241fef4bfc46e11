package apnsmock

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// webPushAnswer is what the Web Push listener answered a push.
type webPushAnswer struct {
	status int
	apnsID string
	body   string
}

// webPush is an application server's push (RFC 8030) to endpoint over the mock's HTTPClient,
// without a body: "Authorization: vapid t=<JWT>, k=<key>" (RFC 8292), the JWT
// {"typ":"JWT","alg":"ES256"}.{"aud","exp","sub"} signed with key (R || S), and TTL.
func webPush(t *testing.T, mock *Mock, endpoint string, key *ecdsa.PrivateKey) webPushAnswer {
	t.Helper()
	target, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	encoding := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"typ": "JWT", "alg": "ES256"})
	claims, _ := json.Marshal(map[string]any{"aud": "https://" + target.Host, "exp": time.Now().Add(time.Hour).Unix(), "sub": "mailto:test@example.com"})
	input := encoding.EncodeToString(header) + "." + encoding.EncodeToString(claims)
	digest := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	signature := make([]byte, 64)
	r.FillBytes(signature[:32])
	s.FillBytes(signature[32:])
	request, err := http.NewRequestWithContext(testContext(t), http.MethodPost, endpoint, http.NoBody)
	if err != nil {
		t.Fatal(err)
	}
	request.Header.Set("authorization", fmt.Sprintf("vapid t=%s.%s, k=%s", input, encoding.EncodeToString(signature), ApplicationServerKey(&key.PublicKey)))
	request.Header.Set("ttl", "60")
	response, err := mock.HTTPClient().Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	body, _ := io.ReadAll(response.Body)
	return webPushAnswer{status: response.StatusCode, apnsID: response.Header.Get("apns-id"), body: string(body)}
}

func TestWebPushSubscriptionTakesAVAPIDPushAndIsUnsubscribedWhenTheTestEnds(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	var subscription *TestWebPushSubscription
	t.Run("the test that subscribes", func(t *testing.T) {
		ctx := testContext(t)
		var err error
		subscription, err = mock.WebPushSubscription(ctx, t, WebPushSubscriptionOptions{Origin: "https://example.com"})
		if err != nil {
			t.Fatal(err)
		}
		info, err := mock.Client.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if mock.WebPushURL == "" || info.WebPushURL != mock.WebPushURL {
			t.Fatalf("WebPushURL is %q, GET /v1/info's webPushUrl %q", mock.WebPushURL, info.WebPushURL)
		}
		if subscription.Endpoint != mock.WebPushURL+"/"+subscription.ID || subscription.Audience() != mock.WebPushURL {
			t.Fatalf("the endpoint is %s, the audience %s; want %s/%s", subscription.Endpoint, subscription.Audience(), mock.WebPushURL, subscription.ID)
		}
		if subscription.VAPIDKey == nil || subscription.ApplicationServerKey != ApplicationServerKey(&subscription.VAPIDKey.PublicKey) {
			t.Fatalf("the subscription's key %s is not its generated VAPID key's", subscription.ApplicationServerKey)
		}
		var pushSubscription struct {
			Endpoint string                  `json:"endpoint"`
			Keys     WebPushSubscriptionKeys `json:"keys"`
		}
		if err := json.Unmarshal(subscription.PushSubscriptionJSON(), &pushSubscription); err != nil || pushSubscription.Endpoint != subscription.Endpoint || pushSubscription.Keys != subscription.Keys {
			t.Fatalf("PushSubscriptionJSON is %s (%v)", subscription.PushSubscriptionJSON(), err)
		}

		answer := webPush(t, mock, subscription.Endpoint, subscription.VAPIDKey)
		if answer.status != http.StatusCreated || answer.apnsID == "" {
			t.Fatalf("the push answered %d, apns-id %q (%s); want 201 with an apns-id", answer.status, answer.apnsID, answer.body)
		}
		records, err := mock.Client.Wait(ctx, url.Values{"kind": {"webPush"}, "subscriptionId": {subscription.ID}}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(records) != 1 {
			t.Fatalf("Wait answered %d records; want the push's", len(records))
		}
		if !strings.EqualFold(records[0].APNSID, answer.apnsID) || records[0].Token == nil || *records[0].Token != subscription.ID {
			t.Fatalf("the record is of apns-id %s, token %v; want %s, %s", records[0].APNSID, records[0].Token, answer.apnsID, subscription.ID)
		}
	})
	if subscription == nil {
		t.FailNow()
	}

	after, err := mock.Client.GetWebPushSubscription(testContext(t), subscription.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.State != "deleted" {
		t.Fatalf("once the test ended the subscription is %s; want deleted", after.State)
	}
	if answer := webPush(t, mock, subscription.Endpoint, subscription.VAPIDKey); answer.status != http.StatusGone {
		t.Fatalf("a push after the test answered %d (%s); want 410", answer.status, answer.body)
	}
}

func TestWebPushSubscriptionForTheApplicationServersOwnKey(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	ctx := testContext(t)
	own, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := mock.WebPushSubscription(ctx, t, WebPushSubscriptionOptions{VAPIDKey: own})
	if err != nil {
		t.Fatal(err)
	}
	if whole.VAPIDKey != own || len(whole.VAPIDPrivateKeyBase64URL()) != 43 {
		t.Fatalf("the subscription kept %v, private key %q; want the key given", whole.VAPIDKey, whole.VAPIDPrivateKeyBase64URL())
	}
	expires := int64(4102444800000)
	publicOnly, err := mock.Client.SubscribeWebPush(ctx, WebPushSubscriptionOptions{ApplicationServerKey: whole.ApplicationServerKey, ExpirationTime: &expires})
	if err != nil {
		t.Fatal(err)
	}
	if publicOnly.VAPIDKey != nil || publicOnly.VAPIDPrivateKeyBase64URL() != "" || publicOnly.ExpirationTime == nil || *publicOnly.ExpirationTime != expires {
		t.Fatalf("a subscription for a public key: %+v", publicOnly)
	}
	deleted, err := publicOnly.Unsubscribe(context.Background())
	if err != nil || deleted.State != "deleted" {
		t.Fatalf("Unsubscribe answered %+v, %v", deleted, err)
	}
}

func TestWebPushHeldWhileTheBrowserIsOfflineIsDeliveredOnceSetDevicePutsItOnline(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	ctx := testContext(t)
	offline := DevicePresence("offline")
	subscription, err := mock.WebPushSubscription(ctx, t, WebPushSubscriptionOptions{Device: &WebPushDeviceBody{Presence: &offline}})
	if err != nil {
		t.Fatal(err)
	}
	if subscription.Device.Presence != "offline" || subscription.Device.Notifications != "enabled" {
		t.Fatalf("the subscription's device is %+v; want offline, notifications enabled", subscription.Device)
	}

	answer := webPush(t, mock, subscription.Endpoint, subscription.VAPIDKey)
	if answer.status != http.StatusCreated || answer.apnsID == "" {
		t.Fatalf("the push answered %d, apns-id %q (%s); want 201 with an apns-id", answer.status, answer.apnsID, answer.body)
	}
	stored, err := mock.Client.Wait(ctx, url.Values{"kind": {"webPush"}, "subscriptionId": {subscription.ID}, "delivery": {"stored"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 || !strings.EqualFold(stored[0].APNSID, answer.apnsID) {
		t.Fatalf("the stored records are %+v; want the push's, apns-id %s", stored, answer.apnsID)
	}

	online := DevicePresence("online")
	now, err := subscription.SetDevice(ctx, WebPushDeviceBody{Presence: &online})
	if err != nil {
		t.Fatal(err)
	}
	if now.Device.Presence != "online" || subscription.Device.Presence != "online" {
		t.Fatalf("SetDevice answered %+v, the subscription has %+v; want online", now.Device, subscription.Device)
	}
	delivered, err := mock.Client.Wait(ctx, url.Values{"kind": {"webPush"}, "subscriptionId": {subscription.ID}, "delivery": {"delivered"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(delivered) != 1 || !strings.EqualFold(delivered[0].APNSID, answer.apnsID) || delivered[0].Sequence != stored[0].Sequence {
		t.Fatalf("the delivered records are %+v; want the push's, apns-id %s", delivered, answer.apnsID)
	}
	var history []string
	for _, step := range delivered[0].DeliveryHistory {
		history = append(history, string(step.State))
	}
	if strings.Join(history, ",") != "stored,delivered" {
		t.Fatalf("the record's delivery history is %v; want stored, delivered", history)
	}

	_, err = subscription.SetDevice(ctx, map[string]any{"installed": false})
	var refused *AdminError
	if !errors.As(err, &refused) || refused.Status != http.StatusBadRequest || !strings.Contains(refused.Message, "installed") {
		t.Fatalf("SetDevice with installed answered %v; want a 400 naming the field", err)
	}
}

func TestWebPushEndpointBaseKeepsTheEndpointsPathAndTheAudienceFollows(t *testing.T) {
	mock := sharedMock(t)
	t.Parallel()
	ctx := testContext(t)
	subscription, err := mock.WebPushSubscription(ctx, t, WebPushSubscriptionOptions{EndpointBase: "https://127.0.0.1:40443/"})
	if err != nil {
		t.Fatal(err)
	}
	if subscription.Endpoint != "https://127.0.0.1:40443/"+subscription.ID || subscription.Audience() != "https://127.0.0.1:40443" {
		t.Fatalf("the endpoint is %s, the audience %s; want the path on https://127.0.0.1:40443", subscription.Endpoint, subscription.Audience())
	}
	var pushSubscription struct {
		Endpoint string `json:"endpoint"`
	}
	if err := json.Unmarshal(subscription.PushSubscriptionJSON(), &pushSubscription); err != nil || pushSubscription.Endpoint != subscription.Endpoint {
		t.Fatalf("PushSubscriptionJSON is %s (%v)", subscription.PushSubscriptionJSON(), err)
	}
	// SetDevice keeps the endpoint on the base; the server's is its own.
	if _, err := subscription.SetDevice(ctx, map[string]any{"notifications": "disabled"}); err != nil {
		t.Fatal(err)
	}
	if subscription.Endpoint != "https://127.0.0.1:40443/"+subscription.ID || subscription.Device.Notifications != "disabled" {
		t.Fatalf("after SetDevice the endpoint is %s, notifications %s", subscription.Endpoint, subscription.Device.Notifications)
	}
	server, err := mock.Client.GetWebPushSubscription(ctx, subscription.ID)
	if err != nil {
		t.Fatal(err)
	}
	if server.Endpoint != mock.WebPushURL+"/"+subscription.ID {
		t.Fatalf("the server's endpoint is %s; want %s/%s", server.Endpoint, mock.WebPushURL, subscription.ID)
	}
}
