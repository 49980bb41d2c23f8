package main

import (
	"errors"
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
