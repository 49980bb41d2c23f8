package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/term"

	"github.com/pqsql/pqsql/exec"
)

// version is the release, set with -ldflags "-X main.version=v1.2.3".
var version = "dev"

// rcName is the file run at start, in the home directory, as DuckDB runs
// ~/.duckdbrc.
const rcName = ".pqsqlrc"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command: it parses args, runs the init file, -cmd,
// scripts or the REPL and returns the exit code. Tests call it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if o.help {
		printUsage(stdout)
		return 0
	}
	if o.version {
		fmt.Fprintf(stdout, "pqsql %s\n", version)
		return 0
	}

	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	sh := &shell{
		session:  exec.NewSession(),
		stdout:   out,
		out:      out,
		errOut:   stderr,
		opts:     o.render,
		bail:     o.bail,
		progress: isTerminal(stderr),
		columns:  newNameCache(),
		color:    colorWanted(stderr),
	}
	sh.opts.color = colorWanted(stdout)
	if sh.progress {
		sh.session.Settings.Progress = &exec.Progress{}
	}
	sh.session.Settings.MapColor = sh.opts.color
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		// On a terminal, box output fits its width, as DuckDB's does.
		sh.opts.largeNumbers = true
		sh.termWidth = func() int {
			w, _, err := term.GetSize(int(f.Fd()))
			if err != nil {
				return 0
			}
			return w
		}
	}
	defer sh.closeOutput()
	ctx := context.Background()
	interactive := len(o.sources) == 0 && isTerminal(stdin)

	if sh.runInit(ctx, o, interactive) {
		return sh.exitCode()
	}
	// As in DuckDB's shell, -echo starts after the init file.
	sh.echo = o.echo
	for _, c := range o.cmds {
		if sh.runScript(ctx, c) {
			return sh.exitCode()
		}
	}
	if len(o.sources) > 0 {
		for _, src := range o.sources {
			text := src.text
			if src.file {
				var err error
				if text, err = readScriptFile(src.text); err != nil {
					sh.report(0, err)
					if sh.bail {
						break
					}
					continue
				}
			}
			if sh.runScript(ctx, text) {
				break
			}
		}
		return sh.exitCode()
	}
	if interactive {
		code := sh.repl(ctx, stdout, stderr)
		if sh.exitWith != nil {
			return *sh.exitWith
		}
		return code
	}
	text, err := readScript(stdin, "standard input")
	if err != nil {
		sh.report(0, err)
		return sh.exitCode()
	}
	sh.runScript(ctx, text)
	return sh.exitCode()
}

// runInit runs the -init file or, without -init, ~/.pqsqlrc when it
// exists. It returns true when the file asked to stop (.exit).
func (sh *shell) runInit(ctx context.Context, o *options, interactive bool) (stop bool) {
	path := o.initFile
	if !o.initSet {
		home, err := os.UserHomeDir()
		if err != nil {
			return false
		}
		path = filepath.Join(home, rcName)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return false
		}
	}
	if path == "" {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		sh.report(0, fmt.Errorf("cannot open init file: %w", err))
		return false
	}
	if interactive {
		fmt.Fprintf(sh.errOut, "-- Loading resources from %s\n", path)
	}
	return sh.runScript(ctx, string(b)) && sh.quit
}

// isTerminal reports whether a stream is an *os.File on a terminal.
func isTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// colorWanted reports whether output to w may be coloured: w is a terminal
// and NO_COLOR is unset or empty (https://no-color.org).
func colorWanted(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	return isTerminal(w)
}
