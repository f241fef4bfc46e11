package apnsmock

import (
	"bytes"
	"context"
	"go/format"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

func TestGeneratedFileIsGofmtClean(t *testing.T) {
	source, err := os.ReadFile("generated.go")
	if err != nil {
		t.Fatal(err)
	}
	formatted, err := format.Source(source)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(formatted, source) {
		t.Fatal("generated.go is not as gofmt writes it: change scripts/generate-admin-api.py's Go section")
	}
}

func TestEncodeQueryWritesASpaceAsPercent20(t *testing.T) {
	query := url.Values{"payload.aps.alert.title": {"Hi there"}, "topic": {"a+b"}, "token": {"ab", "cd"}}
	want := "payload.aps.alert.title=Hi%20there&token=ab&token=cd&topic=a%2Bb"
	if got := EncodeQuery(query); got != want {
		t.Fatalf("EncodeQuery = %s; want %s", got, want)
	}
}

func TestEscapeSegmentEncodesSlashAndPlus(t *testing.T) {
	if got := escapeSegment("dHVy/dGxl+c3A=.~_-"); got != "dHVy%2FdGxl%2Bc3A%3D.~_-" {
		t.Fatalf("escapeSegment = %s", got)
	}
}

func TestDurationOfReadsTheAPIsDurations(t *testing.T) {
	for text, want := range map[string]time.Duration{
		"10": 10 * time.Second, "0.5": 500 * time.Millisecond, "500ms": 500 * time.Millisecond,
		"5s": 5 * time.Second, "2m": 2 * time.Minute, "1h": time.Hour, "soon": 300 * time.Second,
	} {
		if got := durationOf(text); got != want {
			t.Errorf("durationOf(%q) = %s; want %s", text, got, want)
		}
	}
}

func TestDoChecksTheOperationsDeclarationBeforeSending(t *testing.T) {
	// Nothing listens here: each call must fail before it sends anything.
	client := NewClient("http://127.0.0.1:1", "")
	ctx := context.Background()
	for _, c := range []struct {
		name       string
		id         string
		pathParams map[string]string
		query      url.Values
		body       any
		want       string
	}{
		{"unknown operation", "listDelivery", nil, nil, nil, `no operation "listDelivery"`},
		{"missing path parameter", "getFault", nil, nil, nil, `needs the path parameter "id"`},
		{"unknown path parameter", "getFault", map[string]string{"id": "a", "ruleId": "b"}, nil, nil, `no path parameter "ruleId"`},
		{"unknown query parameter", "listConnections", nil, url.Values{"status": {"open"}}, nil, `no query parameter "status"`},
		{"body where none is taken", "getModes", nil, nil, map[string]any{}, "takes no body"},
		{"required body missing", "putFault", map[string]string{"id": "a"}, nil, nil, "needs a body"},
		{"a stream", "deliveryEvents", nil, nil, nil, "stream"},
	} {
		if _, err := client.Do(ctx, c.id, c.pathParams, c.query, c.body); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Do answered %v; want an error containing %q", c.name, err, c.want)
		}
	}
}

func TestOperationsAreTheDocuments(t *testing.T) {
	seen := map[string]bool{}
	var wait Operation
	for _, op := range Operations() {
		if seen[op.ID] {
			t.Fatalf("the operation %s is listed twice", op.ID)
		}
		seen[op.ID] = true
		if op.ID == "waitForDeliveries" {
			wait = op
		}
	}
	if wait.Method != "GET" || wait.Path != "/v1/deliveries/wait" || !wait.MatcherQuery ||
		!contains(wait.QueryParams, "count") || !contains(wait.QueryParams, "timeout") {
		t.Fatalf("waitForDeliveries is %+v", wait)
	}
	if seen["postMCP"] || seen["dashboard"] {
		t.Fatal("the dashboard's files and /mcp are not the client's operations")
	}
}
