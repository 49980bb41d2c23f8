package main

import (
	"context"
	"errors"
	"fmt"
	osexec "os/exec"
	"strconv"
	"strings"
)

// helpText lists the dot commands, as .help prints it.
const helpText = `.bail on|off             Stop after hitting an error. Default OFF
.echo on|off             Turn command echo on or off
.exit ?CODE?             Exit this program with return-code CODE
.explain ?text|map?       Show how EXPLAIN prints: as text, or as a map of pages
.headers on|off          Turn display of headers on or off
.help                    Show this help
.maxrows N               Rows box mode shows before eliding the middle (0: all)
.maxwidth N              Width box mode fits (0: the terminal's)
.mode MODE ?TABLE?       Set output mode: box, column, csv, html, insert, json,
                         jsonlines, latex, line, list, markdown, quote, table,
                         tabs or trash; TABLE names insert mode's table
.nullvalue TEXT          Use TEXT in place of NULL values
.once FILE               Output for the next SQL command only to FILE
.output ?FILE?           Send output to FILE or stdout if FILE is omitted
.quit                    Exit this program
.read FILE               Read input from FILE
.schema ?SOURCE?         Show the CREATE VIEW statements; describe SOURCE
.separator COL           Change the column separator of list, csv and quote
.shell CMD ARGS...       Run CMD ARGS... in a system shell
.system CMD ARGS...      Run CMD ARGS... in a system shell
.tables                  List the views
.timer on|off            Turn SQL timer on or off
.views                   List the views
`

// dot runs one dot command line, such as ".mode csv".
func (sh *shell) dot(ctx context.Context, line string) error {
	line = strings.TrimSpace(line)
	name, rest, _ := strings.Cut(line[1:], " ")
	rest = strings.TrimSpace(rest)
	args := splitArgs(rest)
	bad := func() error {
		return fmt.Errorf("%w or invalid arguments: %q. Enter \".help\" for help", errUnknownCommand, line)
	}
	onOff := func(set func(bool)) error {
		if len(args) != 1 {
			return bad()
		}
		on, ok := parseSwitch(args[0])
		if !ok {
			return bad()
		}
		set(on)
		return nil
	}
	var err error
	switch name {
	case "help":
		sh.out.WriteString(helpText)
	case "quit":
		if len(args) > 0 {
			return bad()
		}
		sh.quit = true
	case "exit":
		switch len(args) {
		case 0:
		case 1:
			code, err := strconv.Atoi(args[0])
			if err != nil {
				return bad()
			}
			sh.exitWith = &code
		default:
			return bad()
		}
		sh.quit = true
	case "mode":
		switch len(args) {
		case 0:
			fmt.Fprintf(sh.out, "current output mode: %s\n", sh.opts.mode)
		case 1, 2:
			m, err := parseMode(args[0])
			if err != nil {
				return err
			}
			if len(args) == 2 {
				if m != modeInsert {
					return bad()
				}
				sh.opts.table = args[1]
			}
			sh.opts.setMode(m)
		default:
			return bad()
		}
	case "timer":
		err = onOff(func(on bool) { sh.timer = on })
	case "echo":
		err = onOff(func(on bool) { sh.echo = on })
	case "bail":
		err = onOff(func(on bool) { sh.bail = on })
	case "headers", "header":
		err = onOff(func(on bool) { sh.opts.noHeaders = !on })
	case "maxrows", "maxwidth":
		target := &sh.opts.maxRows
		if name == "maxwidth" {
			target = &sh.opts.maxWidth
		}
		switch len(args) {
		case 0:
			fmt.Fprintf(sh.out, "current max %s: %d\n", strings.TrimPrefix(name, "max"), *target)
		case 1:
			n, err := strconv.Atoi(args[0])
			if err != nil || n < 0 {
				return bad()
			}
			*target = n
		default:
			return bad()
		}
	case "nullvalue":
		if len(args) != 1 {
			return bad()
		}
		sh.opts.null, sh.opts.nullSet = args[0], true
	case "separator":
		if len(args) != 1 && len(args) != 2 {
			return bad()
		}
		sh.opts.colSep, sh.opts.sepSet = unescapeSeparator(args[0]), true
	case "output", "once":
		if len(args) > 1 || (name == "once" && len(args) == 0) {
			return bad()
		}
		path := ""
		if len(args) == 1 {
			path = args[0]
		}
		return sh.setOutput(path, name == "once")
	case "shell", "system":
		if rest == "" {
			return bad()
		}
		return sh.system(ctx, rest)
	case "read":
		if len(args) != 1 {
			return bad()
		}
		return sh.read(ctx, args[0])
	case "schema":
		return sh.schema(ctx, rest)
	case "tables", "views":
		if len(args) > 0 {
			return bad()
		}
		if name == "tables" {
			sh.tables()
			break
		}
		for _, v := range sh.session.Views() {
			fmt.Fprintln(sh.out, v)
		}
	case "explain":
		switch {
		case len(args) == 0:
			format := "text"
			if sh.explainMap {
				format = "map"
			}
			fmt.Fprintf(sh.out, "current explain format: %s\n", format)
		case len(args) == 1 && (strings.EqualFold(args[0], "text") || strings.EqualFold(args[0], "map")):
			sh.explainMap = strings.EqualFold(args[0], "map")
		default:
			return bad()
		}
	default:
		return bad()
	}
	if err != nil {
		return err
	}
	sh.out.Flush()
	return nil
}

// read runs the script in file. Its errors are reported with its own line
// numbers; the returned error is only about the file itself.
func (sh *shell) read(ctx context.Context, file string) error {
	if sh.readDepth >= maxReadDepth {
		return fmt.Errorf("%w: %s", errReadDepth, file)
	}
	text, err := readScriptFile(file)
	if err != nil {
		return err
	}
	sh.readDepth++
	defer func() { sh.readDepth-- }()
	if sh.runScript(ctx, text) && sh.bail && !sh.quit {
		sh.halted = true
	}
	return nil
}

// schema prints the CREATE VIEW statement of every view, or of the view
// named; any other source (a file or glob) it describes with DESCRIBE.
func (sh *shell) schema(ctx context.Context, source string) error {
	if source == "" {
		for _, v := range sh.session.Views() {
			sh.printView(v)
		}
		return nil
	}
	if name := strings.Trim(source, `"`); !strings.ContainsAny(source, "'./*") {
		if _, ok := sh.session.ViewText(name); ok {
			sh.printView(name)
			return nil
		}
	}
	// A bare path such as data/x.parquet is a file; DESCRIBE needs it quoted.
	if !strings.ContainsAny(source[:1], `'"`) && strings.ContainsAny(source, "./*") &&
		!strings.ContainsAny(source, " (") {
		source = "'" + strings.ReplaceAll(source, "'", "''") + "'"
	}
	return sh.execute(ctx, "DESCRIBE "+source)
}

// printView prints a view's CREATE VIEW statement.
func (sh *shell) printView(name string) {
	text, _ := sh.session.ViewText(name)
	fmt.Fprintf(sh.out, "CREATE VIEW %s AS %s;\n", sqlIdent(name), strings.TrimRight(strings.TrimSpace(text), ";"))
}

// tables lists the views in columns across the line, as DuckDB's .tables
// lists tables.
func (sh *shell) tables() {
	names := sh.session.Views()
	if len(names) == 0 {
		return
	}
	width := 0
	for _, n := range names {
		width = max(width, displayWidth(n))
	}
	lineWidth := 80
	if sh.termWidth != nil && sh.out == sh.stdout {
		if w := sh.termWidth(); w > 0 {
			lineWidth = w
		}
	}
	perLine := max(1, (lineWidth+2)/(width+2))
	rows := (len(names) + perLine - 1) / perLine
	for r := range rows {
		var b strings.Builder
		for c := 0; ; c++ {
			i := c*rows + r
			if i >= len(names) {
				break
			}
			if c > 0 {
				b.WriteString("  ")
			}
			b.WriteString(names[i])
			b.WriteString(strings.Repeat(" ", width-displayWidth(names[i])))
		}
		fmt.Fprintln(sh.out, strings.TrimRight(b.String(), " "))
	}
}

// system runs a command line in the system shell, its output where
// results go.
func (sh *shell) system(ctx context.Context, command string) error {
	sh.out.Flush()
	cmd := osexec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdout = sh.out
	cmd.Stderr = sh.errOut
	err := cmd.Run()
	sh.out.Flush()
	var exitErr *osexec.ExitError
	if errors.As(err, &exitErr) {
		return fmt.Errorf("%w: %s exited with status %d", errSystem, command, exitErr.ExitCode())
	}
	return err
}

// quoteIdent quotes a name as a SQL identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// parseSwitch reads on/off in the spellings DuckDB accepts.
func parseSwitch(s string) (on, ok bool) {
	switch strings.ToLower(s) {
	case "on", "true", "yes", "1":
		return true, true
	case "off", "false", "no", "0":
		return false, true
	}
	return false, false
}

// splitArgs splits dot command arguments at blanks; '...' and "..." quote
// an argument (a doubled quote inside stands for itself), so a pair of
// quotes with nothing between sets an empty string.
func splitArgs(s string) []string {
	var args []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return args
		}
		if q := s[0]; q == '\'' || q == '"' {
			var arg strings.Builder
			i := 1
			for ; i < len(s); i++ {
				if s[i] != q {
					arg.WriteByte(s[i])
					continue
				}
				if i+1 < len(s) && s[i+1] == q {
					arg.WriteByte(q)
					i++
					continue
				}
				break
			}
			args = append(args, arg.String())
			s = s[min(i+1, len(s)):]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			return append(args, s)
		}
		args = append(args, s[:end])
		s = s[end:]
	}
}
