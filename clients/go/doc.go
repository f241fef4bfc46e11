// Package apnsmock drives apns-mock, a mock Apple Push Notification service, from Go tests.
//
// Start runs the apns-mock binary on free ports in a temporary directory of its own and
// answers a Mock: where the provider under test pushes (APNSURL, over HTTP/2 with TLSConfig or
// HTTPClient, which trust the mock's CA), the provider credentials it signs with (Provider, a
// key registered with the mock), and the admin API's Client, which reads what the mock
// received (Wait, Deliveries), sets fault rules (PutFault) and resets it (Reset). For Web Push,
// WebPushSubscription gives a test a subscription on the mock's Web Push listener (WebPushURL),
// unsubscribed when the test ends.
//
//	mock, err := apnsmock.Start(ctx, apnsmock.Options{})
//	if err != nil {
//		t.Fatal(err)
//	}
//	defer mock.Stop()
//
// Every operation of the admin API's document (Sources/APNSMockAdmin/openapi.yaml) is a method
// of Client named after its operationId (ListDeliveries, PutDevice, RefuseTLS), and
// Client.Do sends any of them by that id; both, and the schemas' types, are generated from
// the document into generated.go. The standard library only.
package apnsmock
