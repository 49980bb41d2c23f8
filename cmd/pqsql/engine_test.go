package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// These tests need exec to answer SQL over the committed fixtures.

// ordersFile is the path of the sorted orders fixture (20,000 rows,
// order_id 1..20000), quoted as a SQL string.
func ordersFile(t *testing.T) string {
	t.Helper()
	return "'" + filepath.Join(moduleRoot(t), "fixtures", "orders_sorted.parquet") + "'"
}

func TestRunEngine(t *testing.T) {
	f := ordersFile(t)
	firstThree := "SELECT order_id FROM " + f + " WHERE order_id <= 3 ORDER BY order_id"
	script := "SELECT count(*) AS n FROM " + f + " WHERE order_id <= 10;\n" +
		"\n" +
		"SELEC 2;  -- a typo on line 3\n" +
		"SELECT max(order_id) AS m\n" +
		"FROM " + f + ";"
	tests := []struct {
		name      string
		stdin     string
		args      []string
		code      int
		stdout    string // exact, unless stdoutHas is set
		stdoutHas []string
		stdoutRE  string
		stderrHas string // "" means stderr must be empty
	}{
		{name: "bad sql", args: []string{"-c", "SELEC 1"}, code: 1, stderrHas: "Error: line 1: "},
		{name: "box", args: []string{"-c", firstThree}, stdout: `┌──────────┐
│ order_id │
│  int64   │
├──────────┤
│        1 │
│        2 │
│        3 │
└──────────┘
`},
		{name: "csv", args: []string{"-csv", "-c", firstThree}, stdout: "order_id\n1\n2\n3\n"},
		{name: "json", args: []string{"-json", "-c", firstThree},
			stdout: "[{\"order_id\":1},\n{\"order_id\":2},\n{\"order_id\":3}]\n"},
		{name: "jsonlines", args: []string{"-mode", "jsonlines", "-c", firstThree},
			stdout: "{\"order_id\":1}\n{\"order_id\":2}\n{\"order_id\":3}\n"},
		{name: "markdown", args: []string{"-mode", "markdown", "-c", firstThree},
			stdout: "| order_id |\n|---------:|\n| 1        |\n| 2        |\n| 3        |\n"},
		{name: "line", args: []string{"-mode", "line", "-c", firstThree},
			stdout: "order_id = 1\n\norder_id = 2\n\norder_id = 3\n"},
		{name: "script continues after an error", args: []string{"-csv", "-c", script}, code: 1,
			stdout: "n\n10\nm\n20000\n", stderrHas: "Error: line 3: "},
		{name: "bail", args: []string{"-csv", "-bail", "-c", script}, code: 1,
			stdout: "n\n10\n", stderrHas: "Error: line 3: "},
		{name: "stdin script", stdin: ".mode csv\n" + script, code: 1,
			stdout: "n\n10\nm\n20000\n", stderrHas: "Error: line 4: "},
		{name: "elided", args: []string{"-maxrows", "4", "-c", "SELECT order_id FROM " + f + " ORDER BY order_id"},
			stdout: `┌────────────┐
│  order_id  │
│   int64    │
├────────────┤
│          1 │
│          2 │
│          · │
│          · │
│          · │
│      19999 │
│      20000 │
├────────────┤
│ 20000 rows │
│ (4 shown)  │
└────────────┘
`},
		{name: "nullvalue", args: []string{"-csv", "-nullvalue", "-", "-c",
			"SELECT order_id, shipped_at IS NULL AS unshipped FROM " + f + " WHERE order_id = 20000;\n" +
				"SELECT CASE WHEN order_id > 0 THEN NULL END AS x FROM " + f + " WHERE order_id = 1"},
			stdout: "order_id,unshipped\n20000,true\nx\n-\n"},
		{name: "timer", args: []string{"-csv", "-c", ".timer on\n" + firstThree},
			stdoutHas: []string{"order_id\n1\n2\n3\nRun Time (s): real "}},
		{name: "view and dot commands", args: []string{"-csv", "-c",
			"CREATE VIEW o AS SELECT * FROM " + f + ";\n.views\n.schema o\n.schema " + f[1:len(f)-1]},
			stdoutHas: []string{"o\nCREATE VIEW o AS SELECT * FROM " + f + ";\ncolumn_name,column_type,", "\norder_id,BIGINT,", "\nnote,VARCHAR,"}},
		{name: "timer shows real, user and sys", args: []string{"-csv", "-c", ".timer on\n" + firstThree},
			stdoutRE: `(?m)^Run Time \(s\): real \d+\.\d{3} user \d+\.\d{6} sys \d+\.\d{6}$`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCapture(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if tc.stdoutHas == nil && tc.stdoutRE == "" && stdout != tc.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, tc.stdout)
			}
			if tc.stdoutRE != "" && !regexp.MustCompile(tc.stdoutRE).MatchString(stdout) {
				t.Errorf("stdout:\n%s\ndoes not match %s", stdout, tc.stdoutRE)
			}
			for _, s := range tc.stdoutHas {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout:\n%s\ndoes not contain %q", stdout, s)
				}
			}
			switch {
			case tc.stderrHas == "" && stderr != "":
				t.Errorf("stderr %q, want none", stderr)
			case tc.stderrHas != "" && (!strings.HasPrefix(stderr, "Error:") || !strings.Contains(stderr, tc.stderrHas)):
				t.Errorf("stderr %q does not start with Error: and contain %q", stderr, tc.stderrHas)
			}
		})
	}
}
