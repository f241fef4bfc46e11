package apnsmock

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"
)

// DefaultTeamID is the team id of the provider credentials when none is given.
const DefaultTeamID = "MOCKTEAM00"

// TokenLifetime is how long Provider.Token reuses one token. Apple answers 429
// TooManyProviderTokenUpdates to a provider that makes a new one more often than every 20
// minutes, and refuses one older than an hour.
const TokenLifetime = 50 * time.Minute

// Provider is a provider's token-signing credentials, as Apple issues them: an EC P-256 key
// (the .p8 file at KeyPath), its KeyID and the TeamID. Start registers the key with the mock,
// so the tokens it signs are verified like Apple's; a token signed by any other key is refused
// 403 InvalidProviderToken.
type Provider struct {
	// KeyPath is the key's .p8 file (PKCS#8 PEM): the one given, or the generated key written
	// in the mock's directory, for a provider under test that reads its key from a file.
	KeyPath string
	// KeyID is the key's 10-character id, the JWT header's kid.
	KeyID string
	// TeamID is the team's 10-character id, the JWT's iss.
	TeamID string

	key *ecdsa.PrivateKey
	now func() time.Time

	mu       sync.Mutex
	token    string
	issuedAt time.Time
}

// NewProvider is the credentials of key (EC P-256), keyID and teamID (DefaultTeamID when empty).
func NewProvider(key *ecdsa.PrivateKey, keyID, teamID string) (*Provider, error) {
	if key == nil || key.Curve != elliptic.P256() {
		return nil, errors.New("apnsmock: a provider key is an EC P-256 key")
	}
	if keyID == "" {
		return nil, errors.New("apnsmock: a provider key needs its key id")
	}
	if teamID == "" {
		teamID = DefaultTeamID
	}
	return &Provider{KeyID: keyID, TeamID: teamID, key: key}, nil
}

var authKeyName = regexp.MustCompile(`^AuthKey_([A-Z0-9]{10})\.p8$`)

// LoadProvider reads a .p8 file (a PKCS#8 PEM "PRIVATE KEY", EC P-256, as Apple's developer
// site gives it). An empty keyID is read from the file's name when it is Apple's
// AuthKey_<KEYID>.p8; an empty teamID is DefaultTeamID.
func LoadProvider(path, keyID, teamID string) (*Provider, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("apnsmock: reading the provider key: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("apnsmock: %s holds no PEM block (a .p8 file is a PKCS#8 PEM PRIVATE KEY)", path)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("apnsmock: %s: %w", path, err)
	}
	key, ok := parsed.(*ecdsa.PrivateKey)
	if !ok || key.Curve != elliptic.P256() {
		return nil, fmt.Errorf("apnsmock: %s is no EC P-256 key (Apple's provider keys are)", path)
	}
	if keyID == "" {
		match := authKeyName.FindStringSubmatch(filepath.Base(path))
		if match == nil {
			return nil, fmt.Errorf("apnsmock: no key id for %s: give one (Options.ProviderKeyID, $APNS_MOCK_PROVIDER_KEY_ID) or name the file AuthKey_<KEYID>.p8", path)
		}
		keyID = match[1]
	}
	provider, err := NewProvider(key, keyID, teamID)
	if err != nil {
		return nil, err
	}
	provider.KeyPath = path
	return provider, nil
}

// generateProvider makes a new P-256 key (and a random key id unless keyID is given) and writes
// it to dir/AuthKey_<KEYID>.p8.
func generateProvider(dir, keyID, teamID string) (*Provider, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	if keyID == "" {
		if keyID, err = randomID(10); err != nil {
			return nil, err
		}
	}
	provider, err := NewProvider(key, keyID, teamID)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	provider.KeyPath = filepath.Join(dir, "AuthKey_"+keyID+".p8")
	if err := os.WriteFile(provider.KeyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		return nil, err
	}
	return provider, nil
}

// randomID is n characters from A-Z 0-9, as Apple's key and team ids are.
func randomID(n int) (string, error) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	random := make([]byte, n)
	if _, err := rand.Read(random); err != nil {
		return "", err
	}
	id := make([]byte, n)
	for i, b := range random {
		id[i] = alphabet[int(b)%len(alphabet)]
	}
	return string(id), nil
}

// PrivateKey is the signing key, for a provider library that takes the key itself.
func (p *Provider) PrivateKey() *ecdsa.PrivateKey {
	return p.key
}

// PublicKeyPEM is the key's public half as a PEM "PUBLIC KEY", as PUT /v1/keys/{keyId} takes it.
func (p *Provider) PublicKeyPEM() (string, error) {
	der, err := x509.MarshalPKIXPublicKey(&p.key.PublicKey)
	if err != nil {
		return "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})), nil
}

// Token is a provider authentication token for the authorization header ("bearer " + token):
// an ES256 JWT, header {"alg":"ES256","kid":KeyID}, claims {"iss":TeamID,"iat":<now, seconds>},
// signed with the key (the JOSE signature: R and S, 32 bytes each, base64url without padding).
// The same token is answered for TokenLifetime (50 minutes), as Apple asks a provider to do.
func (p *Provider) Token() (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.now != nil {
		now = p.now()
	}
	if p.token != "" && !now.Before(p.issuedAt) && now.Sub(p.issuedAt) < TokenLifetime {
		return p.token, nil
	}
	token, err := signToken(p.key, p.KeyID, p.TeamID, now)
	if err != nil {
		return "", err
	}
	p.token, p.issuedAt = token, now
	return token, nil
}

func signToken(key *ecdsa.PrivateKey, keyID, teamID string, now time.Time) (string, error) {
	header, err := json.Marshal(struct {
		Alg string `json:"alg"`
		Kid string `json:"kid"`
	}{"ES256", keyID})
	if err != nil {
		return "", err
	}
	claims, err := json.Marshal(struct {
		Iss string `json:"iss"`
		Iat int64  `json:"iat"`
	}{teamID, now.Unix()})
	if err != nil {
		return "", err
	}
	encoding := base64.RawURLEncoding
	input := encoding.EncodeToString(header) + "." + encoding.EncodeToString(claims)
	digest := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, key, digest[:])
	if err != nil {
		return "", err
	}
	signature := make([]byte, 64)
	r.FillBytes(signature[:32])
	s.FillBytes(signature[32:])
	return input + "." + encoding.EncodeToString(signature), nil
}
