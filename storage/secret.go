package storage

import (
	"fmt"
	"sort"
	"strings"
)

// A Secret holds the credentials and endpoint of an object store, as
// CREATE SECRET writes them.
type Secret struct {
	// Name is the secret's name; unnamed secrets are __default_<type>.
	Name string
	// Type is "s3" or "gcs".
	Type string
	// Provider is "config" (keys given) or "credential_chain" (the AWS
	// default chain: environment, shared config and credentials files).
	Provider string
	// Profile picks a profile of the shared files for credential_chain.
	Profile                     string
	KeyID, Secret, SessionToken string
	Region, Endpoint, URLStyle  string
	// UseSSL is nil when not given (true).
	UseSSL *bool
	// Scope lists URL prefixes the secret serves; empty: every URL of its
	// type.
	Scope []string
}

// defaultScope is the scope of a secret that names none, as DuckDB
// prints it.
func (s *Secret) defaultScope() []string {
	if s.Type == "gcs" {
		return []string{"gcs://", "gs://"}
	}
	return []string{"s3://", "s3n://", "s3a://"}
}

// Scopes is the secret's scope as duckdb_secrets() shows it.
func (s *Secret) Scopes() []string {
	if len(s.Scope) > 0 {
		return s.Scope
	}
	return s.defaultScope()
}

// Redacted is the secret as duckdb_secrets() shows it: every field but
// the secret key and session token, which read "redacted".
func (s *Secret) Redacted() string {
	fields := map[string]string{
		"endpoint":  s.endpoint(),
		"key_id":    s.KeyID,
		"region":    s.region(),
		"url_style": s.URLStyle,
		"use_ssl":   fmt.Sprint(s.useSSL()),
	}
	if s.Secret != "" {
		fields["secret"] = "redacted"
	}
	if s.SessionToken != "" {
		fields["session_token"] = "redacted"
	}
	if s.Profile != "" {
		fields["profile"] = s.Profile
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{"name=" + s.Name, "type=" + s.Type, "provider=" + s.Provider, "serializable=true", "scope=" + strings.Join(s.Scopes(), ",")}
	for _, k := range keys {
		parts = append(parts, k+"="+fields[k])
	}
	return strings.Join(parts, ";")
}

func (s *Secret) endpoint() string {
	if s.Endpoint != "" {
		return s.Endpoint
	}
	if s.Type == "gcs" {
		return "storage.googleapis.com"
	}
	return "s3.amazonaws.com"
}

func (s *Secret) region() string {
	if s.Region != "" {
		return s.Region
	}
	if s.Type == "gcs" {
		return "auto"
	}
	return "us-east-1"
}

func (s *Secret) useSSL() bool { return s.UseSSL == nil || *s.UseSSL }

// serves reports whether the secret applies to url, and how long the
// matching scope is (the longest match wins, as in DuckDB).
func (s *Secret) serves(loc Location) (int, bool) {
	want := "s3"
	if loc.Scheme == "gs" {
		want = "gcs"
	}
	if s.Type != want {
		return 0, false
	}
	best, ok := 0, false
	for _, sc := range s.Scopes() {
		if strings.HasPrefix(loc.Raw, sc) || strings.HasPrefix(loc.url(), sc) {
			if len(sc) >= best {
				best, ok = len(sc), true
			}
		}
	}
	return best, ok
}

// NewSecret builds a secret from CREATE SECRET's options (names lower
// case, values as written). It checks the options, never echoing a value
// that could be a key.
func NewSecret(name string, options map[string]string) (*Secret, error) {
	s := &Secret{Name: strings.ToLower(name), Provider: "config"}
	typ, ok := options["type"]
	if !ok {
		return nil, fmt.Errorf("%w: CREATE SECRET needs a TYPE (s3 or gcs)", ErrSecret)
	}
	switch t := strings.ToLower(typ); t {
	case "s3", "gcs":
		s.Type = t
	case "r2", "azure", "huggingface", "http":
		return nil, fmt.Errorf("%w: secret type %q is not supported: expected s3 or gcs", ErrUnsupported, t)
	default:
		return nil, fmt.Errorf("%w: unknown secret type %q: expected s3 or gcs", ErrSecret, t)
	}
	if s.Name == "" {
		s.Name = "__default_" + s.Type
	}
	for k, v := range options {
		switch k {
		case "type":
		case "provider":
			switch p := strings.ToLower(v); p {
			case "config", "credential_chain":
				s.Provider = p
			default:
				return nil, fmt.Errorf("%w: unknown provider %q: expected config or credential_chain", ErrSecret, p)
			}
		case "key_id":
			s.KeyID = v
		case "secret":
			s.Secret = v
		case "session_token":
			s.SessionToken = v
		case "region":
			s.Region = v
		case "endpoint":
			s.Endpoint = v
		case "profile":
			s.Profile = v
		case "url_style":
			switch u := strings.ToLower(v); u {
			case "path", "vhost", "":
				s.URLStyle = u
			default:
				return nil, fmt.Errorf("%w: URL_STYLE must be 'path' or 'vhost'", ErrSecret)
			}
		case "use_ssl":
			b, err := parseBool(v)
			if err != nil {
				return nil, fmt.Errorf("%w: USE_SSL: %w", ErrSecret, err)
			}
			s.UseSSL = &b
		case "scope":
			for _, sc := range strings.Split(v, ",") {
				if sc = strings.TrimSpace(sc); sc != "" {
					s.Scope = append(s.Scope, sc)
				}
			}
		case "chain":
			// DuckDB's chain selection; the SDK's default chain covers env,
			// config and sts.
		default:
			return nil, fmt.Errorf("%w: unknown parameter %q for a secret of type %s", ErrSecret, k, s.Type)
		}
	}
	if s.Provider == "config" && (s.KeyID == "") != (s.Secret == "") {
		return nil, fmt.Errorf("%w: KEY_ID and SECRET must be given together", ErrSecret)
	}
	return s, nil
}

func parseBool(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "1", "on", "yes":
		return true, nil
	case "false", "0", "off", "no":
		return false, nil
	}
	return false, fmt.Errorf("expected true or false")
}

// CreateSecret adds a secret to the store. A secret of the same name is an
// error unless orReplace; with ifNotExists it is kept and nothing happens.
func (st *Store) CreateSecret(s *Secret, orReplace, ifNotExists bool) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, ok := st.secrets[s.Name]; ok && !orReplace {
		if ifNotExists {
			return nil
		}
		return fmt.Errorf("%w: a secret named %q already exists", ErrSecret, s.Name)
	}
	st.secrets[s.Name] = s
	st.clients = map[string]any{}
	return nil
}

// DropSecret removes a secret by name.
func (st *Store) DropSecret(name string, ifExists bool) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	name = strings.ToLower(name)
	if _, ok := st.secrets[name]; !ok {
		if ifExists {
			return nil
		}
		return fmt.Errorf("%w: no secret named %q", ErrSecret, name)
	}
	delete(st.secrets, name)
	st.clients = map[string]any{}
	return nil
}

// Secrets returns the store's secrets sorted by name. Callers show them
// through Redacted.
func (st *Store) Secrets() []*Secret {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]*Secret, 0, len(st.secrets))
	for _, s := range st.secrets {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// secretFor picks the secret serving loc: the longest matching scope, or
// the s3_* settings for s3://, or none (anonymous requests).
func (st *Store) secretFor(loc Location) *Secret {
	st.mu.Lock()
	defer st.mu.Unlock()
	var best *Secret
	bestLen := -1
	for _, s := range st.secrets {
		if n, ok := s.serves(loc); ok && (n > bestLen || n == bestLen && s.Name < best.Name) {
			best, bestLen = s, n
		}
	}
	if best != nil {
		return best
	}
	if loc.Scheme == "s3" {
		set := st.s3
		return &set
	}
	return &Secret{Name: "", Type: "gcs", Provider: "config"}
}
