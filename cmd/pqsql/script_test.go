package main

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// zeros is a stream without end, as /dev/zero is.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestEndlessScriptIsCapped(t *testing.T) {
	var out, errOut strings.Builder
	if code := run(nil, zeros{}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "script too large: standard input is larger than 64 MiB") {
		t.Fatalf("stdin: exit %d, stderr %q", code, errOut.String())
	}
	code, _, stderr := runCapture(t, "", "-f", "/dev/zero")
	if code != 1 || !strings.Contains(stderr, "script too large: /dev/zero is larger than 64 MiB") {
		t.Fatalf("-f /dev/zero: exit %d, stderr %q", code, stderr)
	}
	if _, err := readScript(strings.NewReader(strings.Repeat("x", maxScriptBytes)), "full"); err != nil {
		t.Fatalf("a script of exactly the cap: %v", err)
	}
	if _, err := readScript(strings.NewReader(strings.Repeat("x", maxScriptBytes+1)), "over"); !errors.Is(err, errScriptTooLarge) {
		t.Fatalf("one byte over the cap: %v", err)
	}
}

// BenchmarkStatementOverManyLines runs one statement written over n lines
// (an IN list, one item a line): the shell must find its end in time linear
// in the script, not by lexing the whole buffer again at every line.
func BenchmarkStatementOverManyLines(b *testing.B) {
	for _, n := range []int{2_000, 20_000} {
		var sb strings.Builder
		sb.WriteString("SELECT 1 IN (0\n")
		for i := 1; i < n; i++ {
			sb.WriteString("," + strconv.Itoa(i) + "\n")
		}
		sb.WriteString(") AS a;\n")
		script := sb.String()
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				var out, errOut strings.Builder
				if code := run([]string{"-csv"}, strings.NewReader(script), &out, &errOut); code != 0 || out.String() != "a\ntrue\n" {
					b.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
				}
			}
		})
	}
}

// An unterminated string ends the script with its error at its line and
// runs none of the lines it swallows, however many; a line of Unicode
// blanks holds no statement.
func TestOpenStringSwallowsTheScript(t *testing.T) {
	script := "SELECT 1 AS a;\n\u00a0\nSELECT 'x\n" + strings.Repeat("SELECT 2;\n", 20_000)
	code, stdout, stderr := runCapture(t, script, "-csv")
	want := `Error: line 3: syntax error at line 1, column 8 near "'x": unterminated string: expected closing '` + "\n"
	if code != 1 || stdout != "a\n1\n" || stderr != want {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
