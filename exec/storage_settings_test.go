package exec

import (
	"fmt"
	"strings"
	"testing"
)

// The storage settings are listed by duckdb_settings() with the values SET
// gave them, keys redacted, and RESET restores each to a new session's.
func TestStorageSettingsListedAndReset(t *testing.T) {
	s := NewSession()
	value := func(name string) string {
		t.Helper()
		rows := textRows(mustExec(t, s, fmt.Sprintf("SELECT value FROM duckdb_settings() WHERE name = '%s'", name)))
		if len(rows) != 1 {
			t.Fatalf("%s: %d rows in duckdb_settings(), want 1", name, len(rows))
		}
		return rows[0]
	}
	defaults := map[string]string{}
	for _, n := range []string{"s3_region", "s3_url_style", "s3_use_ssl", "http_retries", "remote_coalesce_gap", "s3_secret_access_key"} {
		defaults[n] = value(n)
	}
	const key = "wJalrXUtnFEMI-do-not-show"
	for _, q := range []string{"SET s3_region = 'eu-west-3'", "SET s3_url_style = 'path'", "SET s3_use_ssl = false",
		"SET http_retries = 7", "SET remote_coalesce_gap = 4096", "SET s3_secret_access_key = '" + key + "'"} {
		mustExec(t, s, q)
	}
	want := map[string]string{"s3_region": "eu-west-3", "s3_url_style": "path", "s3_use_ssl": "false",
		"http_retries": "7", "remote_coalesce_gap": "4096", "s3_secret_access_key": "redacted"}
	for n, w := range want {
		if got := value(n); got != w {
			t.Errorf("after SET, %s = %q, want %q", n, got, w)
		}
	}
	all := strings.Join(textRows(mustExec(t, s, "SELECT * FROM duckdb_settings()")), "\n")
	if strings.Contains(all, key) {
		t.Errorf("duckdb_settings() shows the secret key")
	}
	for n := range want {
		mustExec(t, s, "RESET "+n)
		if got := value(n); got != defaults[n] {
			t.Errorf("after RESET, %s = %q, want the default %q", n, got, defaults[n])
		}
	}
	if _, err := s.Execute(t.Context(), "RESET no_such_setting"); err == nil || !strings.Contains(err.Error(), "no_such_setting") {
		t.Errorf("RESET of an unknown setting: %v", err)
	}
}
