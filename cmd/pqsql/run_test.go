package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCapture runs the command in-process with stdin and returns its exit
// code, stdout and stderr.
func runCapture(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	// A ~/.pqsqlrc of whoever runs the tests must not change them.
	return runCaptureHome(t, t.TempDir(), stdin, args...)
}

// runCaptureHome is runCapture with HOME set to home.
func runCaptureHome(t *testing.T, home, stdin string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("HOME", home)
	var out, errOut strings.Builder
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// moduleRoot walks up from the package directory to the module root.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			strings.Contains(string(b), "module github.com/pqsql/pqsql\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("module root not found")
		}
		dir = parent
	}
}

// TestRunWithoutEngine covers flags, dot commands, script splitting and
// exit codes: nothing here needs exec to answer SQL.
func TestRunWithoutEngine(t *testing.T) {
	dir := t.TempDir()
	modes := filepath.Join(dir, "modes.sql")
	if err := os.WriteFile(modes, []byte("-- set csv\n.mode csv\n.mode\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	quit := filepath.Join(dir, "quit.sql")
	if err := os.WriteFile(quit, []byte(".quit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	self := filepath.Join(dir, "self.sql")
	if err := os.WriteFile(self, []byte(".read "+self+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.sql")
	if err := os.WriteFile(bad, []byte("\n\n.nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		stdin     string
		args      []string
		code      int
		stdout    string
		stderr    string // exact, unless stderrHas is set
		stderrHas string
	}{
		{name: "version", args: []string{"-version"}, stdout: "pqsql dev\n"},
		{name: "version double dash", args: []string{"--version"}, stdout: "pqsql dev\n"},
		{name: "unknown flag", args: []string{"-nope"}, code: 1,
			stderr: "Error: unknown option -nope. Use -help for a list of options.\n"},
		{name: "unknown double-dash flag", args: []string{"--x", "-c", ".mode"}, code: 1,
			stderr: "Error: unknown option -x. Use -help for a list of options.\n"},
		{name: "missing option value", args: []string{"-cmd"}, code: 1,
			stderr: "Error: missing argument to -cmd\n"},
		{name: "bad mode flag", args: []string{"-mode", "xml"}, code: 1,
			stderrHas: `Error: unknown output mode "xml"`},
		{name: "positional argument", args: []string{"SELECT 1"}, code: 1,
			stderrHas: `Error: unexpected argument "SELECT 1"`},
		{name: "negative maxrows", args: []string{"-maxrows", "-1"}, code: 1,
			stderrHas: "Error: invalid option value: -maxrows wants a number of rows"},
		{name: "mode shown", args: []string{"-c", ".mode"}, stdout: "current output mode: box\n"},
		{name: "mode flag", args: []string{"-mode", "markdown", "-c", ".mode"}, stdout: "current output mode: markdown\n"},
		{name: "csv shorthand", args: []string{"-csv", "-c", ".mode"}, stdout: "current output mode: csv\n"},
		{name: "json shorthand", args: []string{"-json", "-c", ".mode"}, stdout: "current output mode: json\n"},
		{name: "mode set then shown", args: []string{"-c", ".mode jsonlines\n.mode"},
			stdout: "current output mode: jsonlines\n"},
		{name: "mode duckbox alias", args: []string{"-csv", "-c", ".mode duckbox\n.mode"},
			stdout: "current output mode: box\n"},
		{name: "bad mode", args: []string{"-c", "\n.mode xml"}, code: 1,
			stderr: "Error: line 2: unknown output mode \"xml\" (want " + modeNameList() + ")\n"},
		{name: "unknown dot command", args: []string{"-c", "-- first\n\n.frobnicate now"}, code: 1,
			stderr: "Error: line 3: unknown command or invalid arguments: \".frobnicate now\". Enter \".help\" for help\n"},
		{name: "errors continue without bail", args: []string{"-c", ".a\n.b\n.mode"}, code: 1,
			stdout:    "current output mode: box\n",
			stderrHas: "Error: line 2: unknown command"},
		{name: "bail stops", args: []string{"-bail", "-c", ".a\n.b\n.mode"}, code: 1,
			stderr: "Error: line 1: unknown command or invalid arguments: \".a\". Enter \".help\" for help\n"},
		{name: "quit stops the script", args: []string{"-c", ".quit\n.nope"}},
		{name: "exit stops the script", args: []string{"-c", ".exit\n.nope"}},
		{name: "maxrows", args: []string{"-maxrows", "7", "-c", ".maxrows\n.maxrows 3\n.maxrows"},
			stdout: "current max rows: 7\ncurrent max rows: 3\n"},
		{name: "maxrows bad", args: []string{"-c", ".maxrows lots"}, code: 1, stderrHas: "Error: line 1: unknown command or invalid arguments"},
		{name: "timer bad", args: []string{"-c", ".timer maybe"}, code: 1, stderrHas: "Error: line 1: unknown command or invalid arguments"},
		{name: "timer ok", args: []string{"-c", ".timer on\n.timer OFF"}},
		{name: "nullvalue needs text", args: []string{"-c", ".nullvalue"}, code: 1, stderrHas: "Error: line 1:"},
		{name: "nullvalue quoted empty", args: []string{"-c", ".nullvalue ''"}},
		{name: "views none", args: []string{"-c", ".views"}},
		{name: "help", args: []string{"-c", ".help"}, stdout: helpText},
		{name: "read", args: []string{"-c", ".read " + modes}, stdout: "current output mode: csv\n"},
		{name: "read reports its own lines", args: []string{"-c", ".read '" + bad + "'"}, code: 1,
			stderr: "Error: line 3: unknown command or invalid arguments: \".nope\". Enter \".help\" for help\n"},
		{name: "bail stops the scripts around a read", args: []string{"-bail", "-c", ".read " + bad + "\n.mode"}, code: 1,
			stderr: "Error: line 3: unknown command or invalid arguments: \".nope\". Enter \".help\" for help\n"},
		{name: "without bail the script goes on after a read", args: []string{"-c", ".read " + bad + "\n.mode"}, code: 1,
			stdout: "current output mode: box\n",
			stderr: "Error: line 3: unknown command or invalid arguments: \".nope\". Enter \".help\" for help\n"},
		{name: "quit inside a read ends everything", args: []string{"-c", ".read " + quit + "\n.mode"}},
		{name: "read of itself ends", args: []string{"-c", ".read " + self}, code: 1,
			stderr: "Error: line 1: " + errReadDepth.Error() + ": " + self + "\n"},
		{name: "read missing file", args: []string{"-c", ".read " + filepath.Join(dir, "missing.sql")}, code: 1,
			stderrHas: "Error: line 1: open "},
		{name: "f missing file", args: []string{"-f", filepath.Join(dir, "missing.sql")}, code: 1,
			stderrHas: "Error: open "},
		{name: "f file", args: []string{"-f", modes}, stdout: "current output mode: csv\n"},
		{name: "c and f in order", args: []string{"-c", ".mode json", "-f", modes, "-c", ".mode line\n.mode"},
			stdout: "current output mode: csv\ncurrent output mode: line\n"},
		{name: "stdin script", stdin: "-- comment only\n.mode markdown\n.mode\n", stdout: "current output mode: markdown\n"},
		{name: "stdin empty", stdin: ""},
		{name: "comments and semicolons only", args: []string{"-c", "-- nothing\n;\n/* still nothing */ ;"}},
		{name: "unterminated string", args: []string{"-c", ".mode csv\nSELECT 'abc"}, code: 1,
			stderrHas: "Error: line 2: "},
		{name: "unterminated comment on a later line", args: []string{"-c", "\n\n/* open"}, code: 1,
			stderrHas: "Error: line 3: "},
		{name: "dot command inside a statement is SQL", args: []string{"-c", "SELECT 'x\n.mode csv"}, code: 1,
			stderrHas: "Error: line 1: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCapture(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if stdout != tc.stdout {
				t.Errorf("stdout:\n%q\nwant:\n%q", stdout, tc.stdout)
			}
			switch {
			case tc.stderrHas != "":
				if !strings.Contains(stderr, tc.stderrHas) {
					t.Errorf("stderr %q does not contain %q", stderr, tc.stderrHas)
				}
			case stderr != tc.stderr:
				t.Errorf("stderr:\n%q\nwant:\n%q", stderr, tc.stderr)
			}
		})
	}
}

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"csv", []string{"csv"}},
		{"  a   b ", []string{"a", "b"}},
		{`''`, []string{""}},
		{`"my file.sql" x`, []string{"my file.sql", "x"}},
		{`'it''s' "a ""b"""`, []string{"it's", `a "b"`}},
		{`'a'b`, []string{"a", "b"}},
		{`'open`, []string{"open"}},
	}
	for _, tc := range tests {
		got := splitArgs(tc.in)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("splitArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
