package main

import (
	"fmt"
	"io"
	"os"
)

// maxScriptBytes caps a script read whole (-f, .read, stdin): far above
// any hand-written or generated script, and a bound on what a stream
// without end (-f /dev/zero) can make the shell read.
const maxScriptBytes = 64 << 20

// readScript reads a script from r, failing once it passes maxScriptBytes.
func readScript(r io.Reader, name string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxScriptBytes+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	if len(b) > maxScriptBytes {
		return "", fmt.Errorf("%w: %s is larger than %d MiB", errScriptTooLarge, name, maxScriptBytes>>20)
	}
	return string(b), nil
}

// readScriptFile reads the script in file.
func readScriptFile(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return readScript(f, file)
}
