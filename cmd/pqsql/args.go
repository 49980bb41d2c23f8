package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// An option is one command-line option, as DuckDB's shell spells it: a
// single dash (a double one is accepted too), a value in the next argument
// when arg names it.
type option struct {
	name string
	arg  string // the value's name in help; "" for a switch
	help string
	set  func(o *options, v string) error
}

// A scriptSource is one -c/-s text or -f file, kept in command-line order.
type scriptSource struct {
	file bool
	text string // the SQL for -c and -s, the path for -f
}

// options are what the command line asks for.
type options struct {
	// sources run in order, then pqsql exits.
	sources []scriptSource
	// cmds run after the init file and before stdin or the prompt.
	cmds []string
	// initFile replaces ~/.pqsqlrc when initSet; "/dev/null" or "" skips it.
	initFile string
	initSet  bool
	render   renderOptions
	headers  bool
	bail     bool
	echo     bool
	readonly bool
	version  bool
	help     bool
}

// modeOption selects an output mode, as -csv does.
func modeOption(name string, m outputMode) option {
	return option{name: name, help: "set output mode to '" + name + "'", set: func(o *options, _ string) error {
		o.render.setMode(m)
		return nil
	}}
}

// commandLine lists the options in the order -help prints them.
var commandLine = []option{
	{name: "bail", help: "stop after hitting an error", set: func(o *options, _ string) error { o.bail = true; return nil }},
	modeOption("box", modeBox),
	{name: "c", arg: "COMMAND", help: "run \"COMMAND\" and exit", set: func(o *options, v string) error {
		o.sources = append(o.sources, scriptSource{text: v})
		return nil
	}},
	{name: "cmd", arg: "COMMAND", help: "run \"COMMAND\" before reading stdin", set: func(o *options, v string) error {
		o.cmds = append(o.cmds, v)
		return nil
	}},
	modeOption("column", modeColumn),
	modeOption("csv", modeCSV),
	{name: "echo", help: "print commands before execution", set: func(o *options, _ string) error { o.echo = true; return nil }},
	{name: "f", arg: "FILENAME", help: "read/process named file and exit", set: func(o *options, v string) error {
		o.sources = append(o.sources, scriptSource{file: true, text: v})
		return nil
	}},
	{name: "header", help: "turn headers on", set: func(o *options, _ string) error { o.headers = true; return nil }},
	{name: "help", help: "show this message", set: func(o *options, _ string) error { o.help = true; return nil }},
	modeOption("html", modeHTML),
	{name: "init", arg: "FILENAME", help: "read/process named file instead of ~/.pqsqlrc", set: func(o *options, v string) error {
		o.initFile, o.initSet = v, true
		return nil
	}},
	modeOption("json", modeJSON),
	modeOption("jsonlines", modeJSONLines),
	modeOption("latex", modeLatex),
	modeOption("line", modeLine),
	modeOption("list", modeList),
	modeOption("markdown", modeMarkdown),
	{name: "maxrows", arg: "N", help: "rows box mode shows before eliding the middle (0: all). Default 40", set: func(o *options, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("%w: -maxrows wants a number of rows, not %q", errBadOption, v)
		}
		o.render.maxRows = n
		return nil
	}},
	{name: "mode", arg: "MODE", help: "set output mode to MODE", set: func(o *options, v string) error {
		m, err := parseMode(v)
		if err != nil {
			return err
		}
		o.render.setMode(m)
		return nil
	}},
	{name: "noheader", help: "turn headers off", set: func(o *options, _ string) error { o.headers = false; return nil }},
	{name: "nullvalue", arg: "TEXT", help: "set text string for NULL values. Default 'NULL'", set: func(o *options, v string) error {
		o.render.null, o.render.nullSet = v, true
		return nil
	}},
	modeOption("quote", modeQuote),
	{name: "readonly", help: "accepted as DuckDB takes it; pqsql never writes to the files it queries", set: func(o *options, _ string) error {
		o.readonly = true
		return nil
	}},
	{name: "s", arg: "COMMAND", help: "run \"COMMAND\" and exit", set: func(o *options, v string) error {
		o.sources = append(o.sources, scriptSource{text: v})
		return nil
	}},
	{name: "separator", arg: "SEP", help: "set output column separator. Default: '|'", set: func(o *options, v string) error {
		o.render.colSep, o.render.sepSet = unescapeSeparator(v), true
		return nil
	}},
	modeOption("table", modeTable),
	modeOption("tabs", modeTabs),
	{name: "version", help: "show the pqsql version", set: func(o *options, _ string) error { o.version = true; return nil }},
}

// parseArgs reads the command line. Options come first; a value may also
// follow "=" (-mode=csv). Any other argument is an error: SQL goes in -c.
func parseArgs(args []string) (*options, error) {
	o := &options{headers: true, render: defaultRenderOptions()}
	sepSet := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			return nil, fmt.Errorf("%w %q (SQL goes in -c or -f)", errUnexpectedArgument, a)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		opt := lookupOption(name)
		if opt == nil {
			return nil, fmt.Errorf("%w -%s. Use -help for a list of options.", errUnknownOption, name)
		}
		if opt.arg != "" && !hasValue {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("%w to -%s", errMissingArgument, name)
			}
			i++
			value = args[i]
		}
		if err := opt.set(o, value); err != nil {
			return nil, err
		}
		sepSet = sepSet || name == "separator"
	}
	o.render.noHeaders = !o.headers
	if sepSet {
		// -separator wins over the mode's own separator, whatever the order.
		o.render.sepSet = true
	}
	return o, nil
}

func lookupOption(name string) *option {
	for i := range commandLine {
		if commandLine[i].name == name {
			return &commandLine[i]
		}
	}
	return nil
}

// printUsage writes -help's text.
func printUsage(w io.Writer) {
	fmt.Fprintf(w, "Usage: pqsql [OPTIONS]\n"+
		"With no -c, -s or -f, pqsql reads statements from stdin: a prompt on a\n"+
		"terminal, a script otherwise. ~/.pqsqlrc runs first, unless -init names\n"+
		"another file (-init /dev/null runs none).\n"+
		"OPTIONS include:\n")
	for _, opt := range commandLine {
		left := "-" + opt.name
		if opt.arg != "" {
			left += " " + opt.arg
		}
		fmt.Fprintf(w, "   %-20s %s\n", left, opt.help)
	}
}

// unescapeSeparator reads the backslash escapes a separator may hold
// (\t, \n, \r, \\), as DuckDB's shell does.
func unescapeSeparator(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	r := strings.NewReplacer(`\t`, "\t", `\n`, "\n", `\r`, "\r", `\\`, `\`)
	return r.Replace(s)
}
