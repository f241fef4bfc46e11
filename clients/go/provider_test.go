package apnsmock

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeP8 writes a new P-256 key to path as Apple's .p8 files hold one (PKCS#8 PEM).
func writeP8(t *testing.T, path string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// verifyToken checks a token's header, claims and ES256 signature; answers the claims' text.
func verifyToken(t *testing.T, token string, public *ecdsa.PublicKey, wantHeader string) string {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("the token %q has %d parts; want 3", token, len(parts))
	}
	header, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil || string(header) != wantHeader {
		t.Fatalf("the header is %q (%v); want %s", header, err, wantHeader)
	}
	claims, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	signature, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(signature) != 64 {
		t.Fatalf("the signature is %d bytes (%v); want R and S, 64 bytes, base64url without padding", len(signature), err)
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(signature[:32]), new(big.Int).SetBytes(signature[32:])
	if !ecdsa.Verify(public, digest[:], r, s) {
		t.Fatal("the signature does not verify with the provider's public key")
	}
	return string(claims)
}

func TestTokenIsAnES256JWTOfTheKey(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	provider, err := NewProvider(key, "KEY1234567", "")
	if err != nil {
		t.Fatal(err)
	}
	issued := time.Unix(1_700_000_000, 0)
	provider.now = func() time.Time { return issued }
	token, err := provider.Token()
	if err != nil {
		t.Fatal(err)
	}
	claims := verifyToken(t, token, &key.PublicKey, `{"alg":"ES256","kid":"KEY1234567"}`)
	if claims != `{"iss":"MOCKTEAM00","iat":1700000000}` {
		t.Fatalf("the claims are %s", claims)
	}
}

func TestTokenIsReusedFor50Minutes(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	provider, err := NewProvider(key, "KEY1234567", "TEAM123456")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	provider.now = func() time.Time { return now }
	first, _ := provider.Token()
	now = now.Add(49 * time.Minute)
	if again, _ := provider.Token(); again != first {
		t.Fatal("after 49 minutes Token made a new token; want the same one (Apple answers 429 to frequent updates)")
	}
	now = now.Add(2 * time.Minute)
	renewed, _ := provider.Token()
	if renewed == first {
		t.Fatal("after 51 minutes Token answered the old token; want a new one")
	}
	if claims := verifyToken(t, renewed, &key.PublicKey, `{"alg":"ES256","kid":"KEY1234567"}`); claims != `{"iss":"TEAM123456","iat":1700003060}` {
		t.Fatalf("the new token's claims are %s", claims)
	}
}

func TestLoadProviderReadsAP8File(t *testing.T) {
	dir := t.TempDir()
	path := writeP8(t, filepath.Join(dir, "AuthKey_ABCDE12345.p8"))
	provider, err := LoadProvider(path, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if provider.KeyID != "ABCDE12345" || provider.TeamID != DefaultTeamID || provider.KeyPath != path {
		t.Fatalf("LoadProvider answered key %s, team %s, path %s", provider.KeyID, provider.TeamID, provider.KeyPath)
	}
	token, _ := provider.Token()
	verifyToken(t, token, &provider.PrivateKey().PublicKey, `{"alg":"ES256","kid":"ABCDE12345"}`)

	unnamed := writeP8(t, filepath.Join(dir, "key.p8"))
	if _, err := LoadProvider(unnamed, "", ""); err == nil || !strings.Contains(err.Error(), "AuthKey_<KEYID>.p8") {
		t.Fatalf("a key file of another name without a key id answered %v; want an error saying how to name it", err)
	}
	if provider, err := LoadProvider(unnamed, "KEY7654321", "TEAM000001"); err != nil || provider.KeyID != "KEY7654321" || provider.TeamID != "TEAM000001" {
		t.Fatalf("with a key id given, LoadProvider answered %+v, %v", provider, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "not.p8"), []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadProvider(filepath.Join(dir, "not.p8"), "KEY7654321", ""); err == nil || !strings.Contains(err.Error(), "no PEM block") {
		t.Fatalf("a file with no key answered %v", err)
	}
}

func TestGeneratedProviderWritesItsKey(t *testing.T) {
	provider, err := generateProvider(t.TempDir(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(provider.KeyID) != 10 || strings.Trim(provider.KeyID, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
		t.Fatalf("the generated key id %q is not 10 characters of A-Z 0-9", provider.KeyID)
	}
	loaded, err := LoadProvider(provider.KeyPath, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if loaded.KeyID != provider.KeyID || !loaded.PrivateKey().Equal(provider.PrivateKey()) {
		t.Fatalf("the key written to %s is not the provider's", provider.KeyPath)
	}
}
