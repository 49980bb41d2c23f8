package storage

import (
	"strconv"
)

// SettingNames are the storage settings SET changes, in the order
// duckdb_settings() lists them (by name).
var SettingNames = []string{
	"http_retries", "http_retry_backoff", "http_retry_wait_ms", "http_timeout",
	"remote_coalesce_gap", "remote_concurrency",
	"s3_access_key_id", "s3_endpoint", "s3_region", "s3_secret_access_key", "s3_session_token",
	"s3_url_style", "s3_use_ssl",
}

// Redacted stands for the value of a key setting wherever settings are
// listed: a key never leaves the store.
const Redacted = "redacted"

// Setting returns a storage setting's value as SET would write it; keys
// read as Redacted once set. It reports false for a name it does not know.
func (st *Store) Setting(name string) (string, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	secret := func(v string) string {
		if v == "" {
			return ""
		}
		return Redacted
	}
	o := st.opts
	switch name {
	case "http_retries":
		return strconv.Itoa(o.Retries), true
	case "http_retry_backoff":
		return strconv.FormatFloat(o.Backoff, 'g', -1, 64), true
	case "http_retry_wait_ms":
		return strconv.FormatInt(o.RetryWait.Milliseconds(), 10), true
	case "http_timeout":
		return strconv.FormatFloat(o.Timeout.Seconds(), 'g', -1, 64), true
	case "remote_coalesce_gap":
		return strconv.FormatInt(o.CoalesceGap, 10), true
	case "remote_concurrency":
		return strconv.Itoa(o.Concurrency), true
	case "s3_access_key_id":
		return secret(st.s3.KeyID), true
	case "s3_secret_access_key":
		return secret(st.s3.Secret), true
	case "s3_session_token":
		return secret(st.s3.SessionToken), true
	case "s3_endpoint":
		return st.s3.Endpoint, true
	case "s3_region":
		return st.s3.Region, true
	case "s3_url_style":
		return st.s3.URLStyle, true
	case "s3_use_ssl":
		if st.s3.UseSSL == nil {
			return "true", true
		}
		return strconv.FormatBool(*st.s3.UseSSL), true
	}
	return "", false
}

// Reset restores a storage setting to the value a new store has (the
// s3_* settings to unset). It
// reports false for a name it does not know.
func (st *Store) Reset(name string) bool {
	def := DefaultOptions
	st.mu.Lock()
	defer st.mu.Unlock()
	switch name {
	case "http_retries":
		st.opts.Retries = def.Retries
	case "http_retry_backoff":
		st.opts.Backoff = def.Backoff
	case "http_retry_wait_ms":
		st.opts.RetryWait = def.RetryWait
	case "http_timeout":
		st.opts.Timeout = def.Timeout
	case "remote_coalesce_gap":
		st.opts.CoalesceGap = def.CoalesceGap
	case "remote_concurrency":
		st.opts.Concurrency = max(1, def.Concurrency)
		st.sem = make(chan struct{}, st.opts.Concurrency)
	case "s3_access_key_id":
		st.s3.KeyID = ""
	case "s3_secret_access_key":
		st.s3.Secret = ""
	case "s3_session_token":
		st.s3.SessionToken = ""
	case "s3_endpoint":
		st.s3.Endpoint = ""
	case "s3_region":
		st.s3.Region = ""
	case "s3_url_style":
		st.s3.URLStyle = ""
	case "s3_use_ssl":
		st.s3.UseSSL = nil
	default:
		return false
	}
	st.clients = map[string]any{}
	return true
}
