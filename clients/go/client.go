package apnsmock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Record is one request the mock answered (or left unanswered), as the admin API gives it: the
// document's Delivery schema.
type Record = Delivery

// DefaultWaitTimeout is the timeout Client.Wait sends when the query names none (the server's
// own default is 30 s; the Python and Node clients wait 10 s too).
const DefaultWaitTimeout = "10"

// Client is the admin API of one apns-mock server.
//
// Every operation of the admin API's document is a method named after its operationId
// (generated.go), and Do sends any of them by that id; Wait, Deliveries and Reset are written by
// hand. An error answer is an *AdminError; a Wait that times out a *WaitTimeoutError.
type Client struct {
	// AdminURL is the admin API's base, "http://127.0.0.1:2198".
	AdminURL string

	// Token is the server's --admin-token, sent as "Authorization: Bearer <Token>"; empty sends none.
	Token string

	// HTTP sends the requests; nil uses http.DefaultClient.
	HTTP *http.Client

	// Timeout bounds a call whose context has no deadline (30 s when zero). A wait is given its
	// own timeout plus 30 s, POST /v1/verify 330 s.
	Timeout time.Duration

	mu sync.Mutex
	// Keys that Reset registers again after POST /v1/reset removes them (Start's provider key).
	kept []keptKey
}

type keptKey struct {
	id   string
	body map[string]any
}

// NewClient is a client of the admin API at adminURL ("http://127.0.0.1:2198"), sending token
// as the bearer token when it is not empty.
func NewClient(adminURL, token string) *Client {
	return &Client{AdminURL: strings.TrimRight(adminURL, "/"), Token: token}
}

// AdminError is an error answer of the admin API: {"error": {"code": …, "message": …}}.
type AdminError struct {
	// Status is the HTTP status: 400, 401, 404, 409, 503.
	Status int
	// Code is the API's stable code: "badParameter", "notFound", "faultRuleExists", ….
	Code string
	// Message is the API's sentence, naming the parameter or field at fault.
	Message string
	// Method and Path are the request's.
	Method, Path string
}

func (e *AdminError) Error() string {
	return fmt.Sprintf("apns-mock admin API: %s %s: %d %s: %s", e.Method, e.Path, e.Status, e.Code, e.Message)
}

// WaitTimeoutError is Client.Wait's error when GET /v1/deliveries/wait answered 408: fewer than
// Count records matched within Timeout. Its text is the server's explanation: the records that
// matched, the closest others ("near misses") and how each differs from the conditions, and a
// link to the dashboard filtered by the query; the same words `apns-mock wait` and the Python and
// Node clients print.
type WaitTimeoutError struct {
	// Count is how many records were awaited, Timeout the timeout sent ("10", "500ms").
	Count   int
	Timeout string
	// Query is the matcher waited on, as a query string (count, timeout, since, before left out).
	Query string
	// Records are the records that did match.
	Records []Record
	// NearMisses are the recent records closest to matching, with their differences.
	NearMisses []NearMissesItem
	// Explanation is the server's text; Error returns it.
	Explanation string
	// Dashboard is the dashboard's address filtered by Query.
	Dashboard string
}

func (e *WaitTimeoutError) Error() string {
	if e.Explanation != "" {
		return e.Explanation
	}
	// Only for a server too old to explain its 408 itself.
	return strings.TrimSpace(fmt.Sprintf("timed out after %s: %d of %d matched %s", e.Timeout, len(e.Records), e.Count, e.Query))
}

// Operations are the admin API's operations in the document's order, as Do knows them.
func Operations() []Operation {
	return append([]Operation(nil), operations...)
}

func lookupOperation(id string) (Operation, error) {
	for _, op := range operations {
		if op.ID == id {
			return op, nil
		}
	}
	return Operation{}, fmt.Errorf("apnsmock: the admin API has no operation %q (see Operations())", id)
}

// Do sends one operation of the admin API, named by its operationId ("listDeliveries",
// "putFault"), and answers the success's body: JSON, or text for the CA, the metrics and the
// document, or nothing.
//
// pathParams fills the path template ({"id": "gone"} for "/v1/faults/{id}"; each value
// percent-encoded); query holds the query parameters (an operation that takes a matcher also
// takes its dotted fields, payload.aps.alert.title=Hi); body is encoded with encoding/json (a
// json.RawMessage or []byte is sent as it is). Do checks these against the operation's
// declaration before sending anything; the server checks the values. An error answer is an
// *AdminError. A 408 from waitForDeliveries is an *AdminError here; Wait reads it instead.
func (c *Client) Do(ctx context.Context, operationID string, pathParams map[string]string, query url.Values, body any) ([]byte, error) {
	op, err := lookupOperation(operationID)
	if err != nil {
		return nil, err
	}
	if op.Answer == "stream" {
		return nil, fmt.Errorf("apnsmock: %s (%s %s) answers a stream of events, which this client does not read", op.ID, op.Method, op.Path)
	}
	_, data, err := c.send(ctx, op, pathParams, query, body)
	return data, err
}

// call is Do that decodes a JSON answer into answer (what the generated methods use).
func (c *Client) call(ctx context.Context, operationID string, pathParams map[string]string, query url.Values, body any, answer any) error {
	data, err := c.Do(ctx, operationID, pathParams, query, body)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, answer); err != nil {
		return fmt.Errorf("apnsmock: %s: decoding the answer: %w", operationID, err)
	}
	return nil
}

// send sends the request; a status in allowed is not an error.
func (c *Client) send(ctx context.Context, op Operation, pathParams map[string]string, query url.Values, body any, allowed ...int) (int, []byte, error) {
	path, err := expandPath(op, pathParams)
	if err != nil {
		return 0, nil, err
	}
	if !op.MatcherQuery {
		for name := range query {
			if !contains(op.QueryParams, name) {
				return 0, nil, fmt.Errorf("apnsmock: %s takes no query parameter %q (it takes %v)", op.ID, name, op.QueryParams)
			}
		}
	}
	var reader io.Reader
	if body != nil {
		if !op.Body {
			return 0, nil, fmt.Errorf("apnsmock: %s (%s %s) takes no body", op.ID, op.Method, op.Path)
		}
		var data []byte
		switch b := body.(type) {
		case json.RawMessage:
			data = b
		case []byte:
			data = b
		default:
			if data, err = json.Marshal(body); err != nil {
				return 0, nil, fmt.Errorf("apnsmock: %s: encoding the body: %w", op.ID, err)
			}
		}
		reader = bytes.NewReader(data)
	} else if op.BodyRequired {
		return 0, nil, fmt.Errorf("apnsmock: %s (%s %s) needs a body", op.ID, op.Method, op.Path)
	}
	if _, has := ctx.Deadline(); !has {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout(op, query))
		defer cancel()
	}
	address := strings.TrimRight(c.AdminURL, "/") + path
	if encoded := EncodeQuery(query); encoded != "" {
		address += "?" + encoded
	}
	request, err := http.NewRequestWithContext(ctx, op.Method, address, reader)
	if err != nil {
		return 0, nil, err
	}
	if reader != nil {
		request.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		request.Header.Set("Authorization", "Bearer "+c.Token)
	}
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	response, err := httpClient.Do(request)
	if err != nil {
		return 0, nil, fmt.Errorf("apnsmock: %s %s: %w", op.Method, path, err)
	}
	defer response.Body.Close()
	data, err := io.ReadAll(response.Body)
	if err != nil {
		return 0, nil, fmt.Errorf("apnsmock: %s %s: reading the answer: %w", op.Method, path, err)
	}
	if response.StatusCode >= 400 && !containsInt(allowed, response.StatusCode) {
		return response.StatusCode, data, adminError(response, data, op.Method, path)
	}
	return response.StatusCode, data, nil
}

func (c *Client) timeout(op Operation, query url.Values) time.Duration {
	switch op.ID {
	case "verify":
		return 330 * time.Second
	case "waitForDeliveries":
		timeout := query.Get("timeout")
		if timeout == "" {
			timeout = "30"
		}
		return durationOf(timeout) + 30*time.Second
	}
	if c.Timeout > 0 {
		return c.Timeout
	}
	return 30 * time.Second
}

func adminError(response *http.Response, data []byte, method, path string) *AdminError {
	e := &AdminError{Status: response.StatusCode, Code: "http", Message: strings.TrimSpace(string(data)), Method: method, Path: path}
	if e.Message == "" {
		e.Message = http.StatusText(response.StatusCode)
	}
	var answer Error
	if json.Unmarshal(data, &answer) == nil && answer.Error.Code != "" {
		e.Code, e.Message = answer.Error.Code, answer.Error.Message
	}
	return e
}

// expandPath fills the operation's path template, each value percent-encoded as one segment.
func expandPath(op Operation, values map[string]string) (string, error) {
	for name := range values {
		if !contains(op.PathParams, name) {
			return "", fmt.Errorf("apnsmock: %s (%s) has no path parameter %q", op.ID, op.Path, name)
		}
	}
	path := op.Path
	for _, name := range op.PathParams {
		value, ok := values[name]
		if !ok || value == "" {
			return "", fmt.Errorf("apnsmock: %s (%s) needs the path parameter %q", op.ID, op.Path, name)
		}
		path = strings.Replace(path, "{"+name+"}", escapeSegment(value), 1)
	}
	return path, nil
}

// escapeSegment percent-encodes every byte but A-Z a-z 0-9 - . _ ~ (a channel id's / and + too).
func escapeSegment(value string) string {
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		ch := value[i]
		if ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || strings.IndexByte("-._~", ch) >= 0 {
			b.WriteByte(ch)
		} else {
			fmt.Fprintf(&b, "%%%02X", ch)
		}
	}
	return b.String()
}

// EncodeQuery is query as the admin API reads it: names in order, a space as %20 (the API reads
// a + as a plus sign, where url.Values.Encode writes + for a space).
func EncodeQuery(query url.Values) string {
	names := make([]string, 0, len(query))
	for name := range query {
		names = append(names, name)
	}
	sort.Strings(names)
	var parts []string
	for _, name := range names {
		for _, value := range query[name] {
			parts = append(parts, queryEscape(name)+"="+queryEscape(value))
		}
	}
	return strings.Join(parts, "&")
}

func queryEscape(text string) string {
	// QueryEscape writes a space as + and a + as %2B, so every + it writes is a space.
	return strings.ReplaceAll(url.QueryEscape(text), "+", "%20")
}

// durationOf reads a duration as the admin API does: a bare number is seconds, else a number
// with ms, s, m or h. Anything else counts as the API's longest, 300 s.
func durationOf(text string) time.Duration {
	text = strings.TrimSpace(text)
	unit := time.Second
	for _, suffix := range []struct {
		text string
		unit time.Duration
	}{{"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}} {
		if strings.HasSuffix(text, suffix.text) {
			text, unit = strings.TrimSuffix(text, suffix.text), suffix.unit
			break
		}
	}
	number, err := strconv.ParseFloat(text, 64)
	if err != nil || number < 0 {
		return 300 * time.Second
	}
	return time.Duration(number * float64(unit))
}

// DashboardLink is the dashboard's address (GET /) showing the records that match query.
func (c *Client) DashboardLink(query url.Values) string {
	link := strings.TrimRight(c.AdminURL, "/") + "/"
	if encoded := EncodeQuery(query); encoded != "" {
		link += "#filter=" + escapeSegment(encoded)
	}
	return link
}

// Wait waits until at least count records match query (GET /v1/deliveries/wait) and answers
// them; records stored before the call count too, unless query has since=<sequence>.
//
// query holds a matcher's fields, ANDed: token, tokenPrefix, topic, pushType, status, reason,
// apnsId, collapseId, priority, faultId, outcome, …, and dotted ones: payload.aps.alert.title,
// headers.apns-collapse-id, preview.body (a repeated name adds a condition); and timeout (a
// number of seconds or "500ms", "5s", "2m"; DefaultWaitTimeout when absent, at most 300 s).
// count 0 leaves query's count (1 when it has none).
//
// When the timeout runs out first the error is a *WaitTimeoutError, whose text is the
// server's explanation of what matched and what came close.
func (c *Client) Wait(ctx context.Context, query url.Values, count int) ([]Record, error) {
	op, err := lookupOperation("waitForDeliveries")
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	for name, values := range query {
		q[name] = append([]string(nil), values...)
	}
	if count > 0 {
		q.Set("count", strconv.Itoa(count))
	}
	if q.Get("timeout") == "" {
		q.Set("timeout", DefaultWaitTimeout)
	}
	status, data, err := c.send(ctx, op, nil, q, nil, http.StatusRequestTimeout)
	if err != nil {
		return nil, err
	}
	var result WaitResult
	if err := json.Unmarshal(data, &result); err != nil {
		return nil, fmt.Errorf("apnsmock: waitForDeliveries: decoding the answer: %w", err)
	}
	if status != http.StatusRequestTimeout {
		return result.Deliveries, nil
	}
	matcher := url.Values{}
	for name, values := range q {
		switch name {
		case "count", "timeout", "since", "before":
		default:
			matcher[name] = values
		}
	}
	awaited, _ := strconv.Atoi(q.Get("count"))
	if awaited == 0 {
		awaited = 1
	}
	explanation := ""
	if result.Explanation != nil {
		explanation = *result.Explanation
	}
	return nil, &WaitTimeoutError{
		Count:       awaited,
		Timeout:     q.Get("timeout"),
		Query:       EncodeQuery(matcher),
		Records:     result.Deliveries,
		NearMisses:  result.NearMisses,
		Explanation: explanation,
		Dashboard:   c.DashboardLink(matcher),
	}
}

// Deliveries answers the records that match query (GET /v1/deliveries), oldest first
// (order=desc: newest first), reading every page; with limit in query, one page of at most
// that many. query is a matcher as for Wait, with since, before, limit and order.
func (c *Client) Deliveries(ctx context.Context, query url.Values) ([]Record, error) {
	q := url.Values{}
	for name, values := range query {
		q[name] = append([]string(nil), values...)
	}
	var records []Record
	for {
		page, err := c.ListDeliveries(ctx, q)
		if err != nil {
			return nil, err
		}
		records = append(records, page.Deliveries...)
		if q.Get("limit") != "" || page.Next == nil || len(page.Deliveries) == 0 {
			return records, nil
		}
		if q.Get("order") == "desc" {
			q.Set("before", strconv.FormatInt(*page.Next, 10))
		} else {
			q.Set("since", strconv.FormatInt(*page.Next, 10))
		}
	}
}

// Reset puts the server back to its start-up state (POST /v1/reset): it deletes every record and
// fault rule and the keys, devices and channels registered since. The provider key Start
// registered is registered again, so Mock.Provider's tokens keep working.
func (c *Client) Reset(ctx context.Context) error {
	if _, err := c.Do(ctx, "reset", nil, nil, nil); err != nil {
		return err
	}
	c.mu.Lock()
	kept := append([]keptKey(nil), c.kept...)
	c.mu.Unlock()
	for _, key := range kept {
		if _, err := c.PutKey(ctx, key.id, key.body); err != nil {
			return fmt.Errorf("apnsmock: registering the provider key %s again after the reset: %w", key.id, err)
		}
	}
	return nil
}

// keep registers the key and remembers it for Reset.
func (c *Client) keep(ctx context.Context, keyID string, body map[string]any) error {
	if _, err := c.PutKey(ctx, keyID, body); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kept = append(c.kept, keptKey{id: keyID, body: body})
	return nil
}

func contains(values []string, value string) bool {
	for _, v := range values {
		if v == value {
			return true
		}
	}
	return false
}

func containsInt(values []int, value int) bool {
	for _, v := range values {
		if v == value {
			return true
		}
	}
	return false
}

// isAdminError reports whether err is an error answer of the admin API.
func isAdminError(err error) bool {
	var adminErr *AdminError
	return errors.As(err, &adminErr)
}
