package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/pqsql/pqsql/exec"
)

// version is the release, set with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// A scriptSource is one -c text or -f file, kept in command-line order.
type scriptSource struct {
	file bool
	text string // the SQL for -c, the path for -f
}

// sourceFlag collects -c and -f into one ordered list.
type sourceFlag struct {
	list *[]scriptSource
	file bool
}

func (f sourceFlag) String() string { return "" }

func (f sourceFlag) Set(v string) error {
	*f.list = append(*f.list, scriptSource{file: f.file, text: v})
	return nil
}

// modeFlag is a boolean flag such as -csv that selects an output mode.
type modeFlag struct {
	mode *outputMode
	set  outputMode
}

func (f modeFlag) String() string   { return "" }
func (f modeFlag) IsBoolFlag() bool { return true }

func (f modeFlag) Set(v string) error {
	if v == "true" {
		*f.mode = f.set
	}
	return nil
}

// run is the whole command: it parses args, runs scripts or the REPL and
// returns the exit code. Tests call it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pqsql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		sources []scriptSource
		mode    = modeBox
	)
	fs.Var(sourceFlag{list: &sources}, "c", "run the SQL `statements` and exit (repeatable)")
	fs.Var(sourceFlag{list: &sources, file: true}, "f", "run the SQL script `file` and exit (repeatable)")
	modeName := fs.String("mode", "", "output `mode`: box, csv, json, jsonlines, markdown or line")
	for _, m := range modeNames {
		fs.Var(modeFlag{mode: &mode, set: m.mode}, m.name, "shorthand for -mode "+m.name)
	}
	maxRows := fs.Int("maxrows", 40, "rows box mode shows before eliding the middle (0: all)")
	nullValue := fs.String("nullvalue", "", "`text` printed for NULL (default: NULL in box, line and markdown; empty in csv)")
	bail := fs.Bool("bail", false, "stop a script at its first error")
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: pqsql [flags]\n\n"+
			"With no -c or -f, pqsql reads statements from stdin: a REPL on a\n"+
			"terminal, a script otherwise.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "Error: unexpected argument %q (SQL goes in -c or -f)\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "pqsql %s\n", version)
		return 0
	}
	if *modeName != "" {
		m, err := parseMode(*modeName)
		if err != nil {
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 2
		}
		mode = m
	}
	if *maxRows < 0 {
		fmt.Fprintf(stderr, "Error: -maxrows must not be negative\n")
		return 2
	}
	nullSet := false
	fs.Visit(func(f *flag.Flag) { nullSet = nullSet || f.Name == "nullvalue" })

	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	sh := &shell{
		session: exec.NewSession(),
		out:     out,
		errOut:  stderr,
		opts: renderOptions{
			mode:    mode,
			maxRows: *maxRows,
			null:    *nullValue,
			nullSet: nullSet,
		},
		bail:     *bail,
		progress: isTerminal(stderr),
		columns:  newNameCache(),
	}
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
	ctx := context.Background()

	if len(sources) > 0 {
		for _, src := range sources {
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
	if isTerminal(stdin) {
		return sh.repl(ctx, stdout, stderr)
	}
	text, err := readScript(stdin, "standard input")
	if err != nil {
		sh.report(0, err)
		return sh.exitCode()
	}
	sh.runScript(ctx, text)
	return sh.exitCode()
}

// isTerminal reports whether a stream is an *os.File on a terminal.
func isTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
