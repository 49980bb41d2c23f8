package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// helpText lists the dot commands, as .help prints it.
const helpText = `.exit                    Exit this program
.help                    Show this help
.maxrows N               Rows box mode shows before eliding the middle (0: all)
.mode [MODE]             Show or set the output mode: box, csv, json, jsonlines, markdown, line
.nullvalue TEXT          Print TEXT for NULL values
.quit                    Exit this program
.read FILE               Run the statements of FILE
.schema [SOURCE]         Describe SOURCE (a file, glob or view); all views without SOURCE
.timer on|off            Print the run time of each statement
.views                   List the views of this session
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
	switch name {
	case "help":
		sh.out.WriteString(helpText)
	case "quit", "exit":
		if len(args) > 0 {
			return bad()
		}
		sh.quit = true
	case "mode":
		switch len(args) {
		case 0:
			fmt.Fprintf(sh.out, "current output mode: %s\n", sh.opts.mode)
		case 1:
			m, err := parseMode(args[0])
			if err != nil {
				return err
			}
			sh.opts.mode = m
		default:
			return bad()
		}
	case "timer":
		if len(args) != 1 {
			return bad()
		}
		on, ok := parseSwitch(args[0])
		if !ok {
			return bad()
		}
		sh.timer = on
	case "maxrows":
		switch len(args) {
		case 0:
			fmt.Fprintf(sh.out, "current max rows: %d\n", sh.opts.maxRows)
		case 1:
			n, err := strconv.Atoi(args[0])
			if err != nil || n < 0 {
				return bad()
			}
			sh.opts.maxRows = n
		default:
			return bad()
		}
	case "nullvalue":
		if len(args) != 1 {
			return bad()
		}
		sh.opts.null, sh.opts.nullSet = args[0], true
	case "read":
		if len(args) != 1 {
			return bad()
		}
		return sh.read(ctx, args[0])
	case "schema":
		return sh.schema(ctx, rest)
	case "views":
		if len(args) > 0 {
			return bad()
		}
		for _, v := range sh.session.Views() {
			fmt.Fprintln(sh.out, v)
		}
	default:
		return bad()
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

// schema describes one source with DESCRIBE, or every view without one.
func (sh *shell) schema(ctx context.Context, source string) error {
	if source == "" {
		for _, v := range sh.session.Views() {
			if err := sh.execute(ctx, "DESCRIBE "+quoteIdent(v)); err != nil {
				return err
			}
		}
		return nil
	}
	// A bare path such as data/x.parquet is a file; DESCRIBE needs it quoted.
	if !strings.ContainsAny(source[:1], `'"`) && strings.ContainsAny(source, "./*") &&
		!strings.ContainsAny(source, " (") {
		source = "'" + strings.ReplaceAll(source, "'", "''") + "'"
	}
	return sh.execute(ctx, "DESCRIBE "+source)
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
