package apnsmock

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultVAPIDSubject is what a VAPID sub claim says when a test names no contact of its own.
const DefaultVAPIDSubject = "mailto:test@example.com"

// WebPushSubscriptionOptions are how Client.SubscribeWebPush and Mock.WebPushSubscription make a
// Web Push subscription. The zero value subscribes for a P-256 VAPID key pair generated for it.
type WebPushSubscriptionOptions struct {
	// ApplicationServerKey is the application server's VAPID public key: base64url of its
	// uncompressed P-256 point (65 bytes). When empty, VAPIDKey's public key is sent, and when
	// that is nil too, a key pair is generated.
	ApplicationServerKey string
	// VAPIDKey is the application server's VAPID key pair (EC P-256), kept as the subscription's
	// VAPIDKey; nil for a generated one (unless ApplicationServerKey is given).
	VAPIDKey *ecdsa.PrivateKey
	// Origin is the site that subscribed ("https://example.com"); empty for none.
	Origin string
	// ExpirationTime is when the subscription stops taking pushes (epoch milliseconds; a push
	// after it is answered 410); nil for never.
	ExpirationTime *int64
	// Device is the subscription's browser's conditions from the start (the create body's
	// device, the body of TestWebPushSubscription.SetDevice): Presence ("online", "offline",
	// "lowPower") with Until (epoch ms) or For ("10m"), or Periods, and Notifications
	// ("enabled", "disabled"). nil: an online browser with notifications enabled.
	Device *WebPushDeviceBody
	// EndpointBase replaces the endpoint's origin, its path kept: the Web Push URL as the caller
	// reaches it when that is not the server's own (a container's published port,
	// "https://localhost:2199"). Audience follows the endpoint. Empty: the server's endpoint.
	EndpointBase string
}

// TestWebPushSubscription is a Web Push subscription the mock made for a test, as a browser makes
// one for a page that calls pushManager.subscribe({applicationServerKey}), with the VAPID key
// it was made for when that was generated or given.
//
// Its WebPushSubscription is the admin API's answer: ID (the matcher's subscriptionId, its
// pushes' records' token), Endpoint, Keys (P256Dh, Auth), ExpirationTime, ApplicationServerKey,
// Origin, CreatedAt, State (as created), Device (its browser's conditions, as SetDevice last
// answered). Endpoint is on WebPushSubscriptionOptions.EndpointBase when one was given.
// PushSubscriptionJSON is what the page would send its application server.
//
// Its browser is a device to the delivery model: a push accepted while the browser is offline is
// held (its record's delivery is "stored") until SetDevice puts it online.
//
// The mock checks each push's "Authorization: vapid t=<JWT>, k=<key>": k is
// ApplicationServerKey, the JWT is signed ES256 with VAPIDKey, its aud is Audience(), its exp
// at most 24 hours ahead and its sub a mailto: or https: URL; a TTL header is required. Success
// is 201 with an apns-id header.
type TestWebPushSubscription struct {
	WebPushSubscription
	// VAPIDKey is the VAPID key pair (generated, or WebPushSubscriptionOptions.VAPIDKey); nil when
	// only ApplicationServerKey was given.
	VAPIDKey *ecdsa.PrivateKey `json:"-"`

	client       *Client
	endpointBase string
}

// ApplicationServerKey is the applicationServerKey of a VAPID public key (EC P-256): its
// uncompressed point (0x04 || X || Y, 65 bytes) in base64url without padding; also the k= of a
// push's Authorization.
func ApplicationServerKey(key *ecdsa.PublicKey) string {
	point := make([]byte, 65)
	point[0] = 4
	key.X.FillBytes(point[1:33])
	key.Y.FillBytes(point[33:])
	return base64.RawURLEncoding.EncodeToString(point)
}

// SubscribeWebPush makes a Web Push subscription as a browser makes one (POST
// /v1/webpush/subscriptions; see WebPushSubscriptionOptions). It is not scoped: Unsubscribe it
// when done (Mock.WebPushSubscription does that when a test ends).
func (c *Client) SubscribeWebPush(ctx context.Context, options WebPushSubscriptionOptions) (*TestWebPushSubscription, error) {
	key := options.VAPIDKey
	applicationServerKey := options.ApplicationServerKey
	if applicationServerKey == "" {
		if key == nil {
			generated, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			if err != nil {
				return nil, fmt.Errorf("apnsmock: generating a VAPID key: %w", err)
			}
			key = generated
		}
		if key.Curve != elliptic.P256() {
			return nil, errors.New("apnsmock: a VAPID key is an EC P-256 key")
		}
		applicationServerKey = ApplicationServerKey(&key.PublicKey)
	}
	body := WebPushSubscriptionBody{ApplicationServerKey: applicationServerKey, ExpirationTime: options.ExpirationTime, Device: options.Device}
	if options.Origin != "" {
		body.Origin = &options.Origin
	}
	created, err := c.CreateWebPushSubscription(ctx, body)
	if err != nil {
		return nil, err
	}
	subscription := &TestWebPushSubscription{VAPIDKey: key, client: c, endpointBase: options.EndpointBase}
	if err := subscription.take(created); err != nil {
		return nil, err
	}
	return subscription, nil
}

// take keeps an answer of the admin API, its endpoint on endpointBase when there is one.
func (s *TestWebPushSubscription) take(answer *WebPushSubscription) error {
	subscription := *answer
	if s.endpointBase != "" {
		endpoint, err := url.Parse(subscription.Endpoint)
		if err != nil {
			return fmt.Errorf("apnsmock: the subscription's endpoint %q: %w", subscription.Endpoint, err)
		}
		subscription.Endpoint = strings.TrimRight(s.endpointBase, "/") + endpoint.EscapedPath()
	}
	s.WebPushSubscription = subscription
	return nil
}

// TestCleanup is what a test registers its cleanups with and reports errors to: *testing.T,
// *testing.B and testing.TB have both methods.
type TestCleanup interface {
	Cleanup(func())
	Errorf(format string, args ...any)
}

// WebPushSubscription is Client.SubscribeWebPush for the test t: the subscription is
// unsubscribed (DELETE /v1/webpush/subscriptions/{id}; a push to it is then answered 410) when
// t and its subtests end, and an unsubscribe that fails is reported with t.Errorf. Its pushes
// are records of kind webPush: Client.Wait(ctx, url.Values{"kind": {"webPush"},
// "subscriptionId": {subscription.ID}}, 1).
func (m *Mock) WebPushSubscription(ctx context.Context, t TestCleanup, options WebPushSubscriptionOptions) (*TestWebPushSubscription, error) {
	subscription, err := m.Client.SubscribeWebPush(ctx, options)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() {
		// The test's own context may be over by now.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := subscription.Unsubscribe(ctx); err != nil && !isNotFound(err) {
			t.Errorf("apnsmock: unsubscribing the test's Web Push subscription %s: %v", subscription.ID, err)
		}
	})
	return subscription, nil
}

// Unsubscribe unsubscribes (DELETE /v1/webpush/subscriptions/{id}): a push to it is then
// answered 410. It answers the subscription as the server then has it (State "deleted").
func (s *TestWebPushSubscription) Unsubscribe(ctx context.Context) (*WebPushSubscription, error) {
	if s.client == nil {
		return nil, errors.New("apnsmock: this subscription was made without a client: use Client.DeleteWebPushSubscription")
	}
	return s.client.DeleteWebPushSubscription(ctx, s.ID)
}

// SetDevice sets the conditions of the subscription's browser (PUT
// /v1/webpush/subscriptions/{id}/device), and the server judges again what it holds: setting
// "online" delivers what was held while offline (the record's delivery becomes "delivered").
// device is the body: a WebPushDeviceBody, or a map or struct of your own that encoding/json
// writes as one (Presence "online", "offline" or "lowPower" with Until or For, or Periods;
// Notifications). It answers the subscription as the server then has it, and s follows (its
// Endpoint stays on the EndpointBase). An unknown field is an *AdminError 400 naming it.
func (s *TestWebPushSubscription) SetDevice(ctx context.Context, device any) (*WebPushSubscription, error) {
	if s.client == nil {
		return nil, errors.New("apnsmock: this subscription was made without a client: use Client.PutWebPushDevice")
	}
	answer, err := s.client.PutWebPushDevice(ctx, s.ID, device)
	if err != nil {
		return nil, err
	}
	if err := s.take(answer); err != nil {
		return nil, err
	}
	return answer, nil
}

// Audience is the endpoint's origin, "https://host:port": the VAPID JWT's aud.
func (s *TestWebPushSubscription) Audience() string {
	endpoint, err := url.Parse(s.Endpoint)
	if err != nil {
		return ""
	}
	return endpoint.Scheme + "://" + endpoint.Host
}

// VAPIDPrivateKeyBase64URL is the VAPID private key as base64url of its 32 bytes (the form Web
// Push libraries' "VAPID private key" settings take), or "" when there is no VAPIDKey.
func (s *TestWebPushSubscription) VAPIDPrivateKeyBase64URL() string {
	if s.VAPIDKey == nil {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(s.VAPIDKey.D.FillBytes(make([]byte, 32)))
}

// PushSubscriptionJSON is the W3C PushSubscription JSON, {"endpoint", "expirationTime", "keys":
// {"p256dh", "auth"}}: what a browser gives the page, and what Web Push libraries read.
func (s *TestWebPushSubscription) PushSubscriptionJSON() []byte {
	data, _ := json.Marshal(struct {
		Endpoint       string                  `json:"endpoint"`
		ExpirationTime *int64                  `json:"expirationTime"`
		Keys           WebPushSubscriptionKeys `json:"keys"`
	}{s.Endpoint, s.ExpirationTime, s.Keys})
	return data
}

// isNotFound reports whether err is the admin API's 404 (a subscription a full reset removed).
func isNotFound(err error) bool {
	var adminErr *AdminError
	return errors.As(err, &adminErr) && adminErr.Status == http.StatusNotFound
}
