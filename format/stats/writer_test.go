package stats

import "testing"

func TestParseCreatedBy(t *testing.T) {
	tests := []struct {
		in         string
		app        string
		version    string // "" when no readable version
		build      string
		preRelease string
	}{
		{"parquet-mr version 1.8.0 (build 0fda28af84b9746396014ad6a415b90592a98b3b)", "parquet-mr", "1.8.0", "0fda28af84b9746396014ad6a415b90592a98b3b", ""},
		{"parquet-mr version 1.18.0-SNAPSHOT (build c5dcd8ca)", "parquet-mr", "1.18.0-SNAPSHOT", "c5dcd8ca", "SNAPSHOT"},
		{"parquet-mr version 1.5.0-cdh5.5.0 (build abc)", "parquet-mr", "1.5.0-cdh5.5.0", "abc", "cdh5.5.0"},
		{"parquet-cpp-arrow version 14.0.1", "parquet-cpp-arrow", "14.0.1", "", ""},
		{"parquet-cpp version 1.3.2-SNAPSHOT", "parquet-cpp", "1.3.2-SNAPSHOT", "", "SNAPSHOT"},
		{"impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)", "impala", "1.3.0-INTERNAL", "8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9", "INTERNAL"},
		{"Parquet-MR Version 1.9.0", "parquet-mr", "1.9.0", "", ""},
		{"DuckDB version v1.1.3 (build 19864453f7)", "duckdb", "1.1.3", "19864453f7", ""},
		{"parquet-rs version 55.1.0", "parquet-rs", "55.1.0", "", ""},
		{"parquet-mr", "parquet-mr", "", "", ""},
		{"parquet-mr version", "parquet-mr", "", "", ""},
		{"parquet-mr version 1.8", "parquet-mr", "", "", ""},
		{"HVR 5.3.0/9 (linux_glibc2.5-x64-64bit)", "hvr 5.3.0/9", "", "", ""},
		{"", "", "", "", ""},
		{"   ", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			w := ParseCreatedBy(tt.in)
			if w.App != tt.app {
				t.Errorf("App = %q, want %q", w.App, tt.app)
			}
			got := ""
			if w.HasVersion {
				got = w.Version.String()
			}
			if got != tt.version {
				t.Errorf("Version = %q, want %q", got, tt.version)
			}
			if w.Build != tt.build {
				t.Errorf("Build = %q, want %q", w.Build, tt.build)
			}
			if w.Version.PreRelease != tt.preRelease {
				t.Errorf("PreRelease = %q, want %q", w.Version.PreRelease, tt.preRelease)
			}
		})
	}
}

func TestVersionCompare(t *testing.T) {
	v := func(s string) Version {
		t.Helper()
		x, ok := parseSemver(s)
		if !ok {
			t.Fatalf("parseSemver(%q) failed", s)
		}
		return x
	}
	tests := []struct {
		a, b string
		want int
	}{
		{"1.8.0", "1.7.9", 1},
		{"1.10.0", "1.9.0", 1},
		{"1.5.0-cdh5.5.0", "1.5.0", -1},
		{"1.5.0-cdh5.7.1", "1.5.0-cdh5.5.0", 1},
		{"1.5.0-cdh5.4.0", "1.5.0-cdh5.5.0", -1},
		{"1.5.0-cdh5.10.0", "1.5.0-cdh5.5.0", 1}, // numeric identifiers compare as numbers
		{"1.0.0-alpha", "1.0.0-alpha.1", -1},
		{"1.0.0-1", "1.0.0-alpha", -1},
		{"1.8.0+build", "1.8.0", 0},
	}
	for _, tt := range tests {
		if got := v(tt.a).Compare(v(tt.b)); got != tt.want {
			t.Errorf("%s vs %s = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
