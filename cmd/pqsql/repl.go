package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/chzyer/readline"

	"github.com/pqsql/pqsql/sql"
)

// The REPL's prompts: a new statement, and the next line of an unfinished one.
const (
	promptFirst = "pqsql> "
	promptMore  = "   ...> "
)

// historyName is the history file, in the home directory.
const historyName = ".pqsql_history"

// repl reads statements from the terminal until Ctrl-D or .quit. Ctrl-C
// drops the line being typed, or cancels the running statement.
func (sh *shell) repl(ctx context.Context, stdout, stderr io.Writer) int {
	sh.interactive = true
	history := ""
	if home, err := os.UserHomeDir(); err == nil {
		history = filepath.Join(home, historyName)
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 promptFirst,
		HistoryFile:            history,
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
		AutoComplete:           &completer{sh: sh},
		EOFPrompt:              "\n", // nothing but the line break
		Stdout:                 stdout,
		Stderr:                 stderr,
	})
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	defer rl.Close()
	if sh.opts.color {
		rl.Config.SetPainter(keywordPainter{})
	}

	// Ctrl-C while a statement runs (the terminal is not in raw mode then)
	// arrives as SIGINT: cancel the statement, keep the REPL.
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt)
	defer func() {
		signal.Stop(sigc)
		close(sigc)
	}()
	go func() {
		for range sigc {
			sh.interrupt()
		}
	}()

	fmt.Fprintf(sh.out, "pqsql %s\nEnter \".help\" for usage hints.\n", version)
	sh.out.Flush()
	var buf strings.Builder
	var complete sql.Completer
	for !sh.quit {
		if buf.Len() == 0 {
			rl.SetPrompt(promptFirst)
		} else {
			rl.SetPrompt(promptMore)
		}
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			buf.Reset()
			complete.Reset()
			continue
		case errors.Is(err, io.EOF):
			return 0
		case err != nil:
			fmt.Fprintf(stderr, "Error: %v\n", err)
			return 1
		}
		if buf.Len() == 0 && isDotCommand(line) {
			rl.SaveHistory(strings.TrimSpace(line))
			if err := sh.dot(ctx, line); err != nil {
				sh.report(0, err)
			}
			sh.halted = false // -bail ends a script, never the REPL
			continue
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
		text := buf.String()
		// A pasted statement of many lines is read once, not once a line.
		complete.Feed(text)
		if blankSQL(&complete, text) {
			buf.Reset()
			complete.Reset()
			continue
		}
		if !complete.Complete() {
			continue
		}
		buf.Reset()
		complete.Reset()
		if !sql.HoldsSecret(text) { // keys stay out of the history file
			rl.SaveHistory(strings.TrimSpace(strings.ReplaceAll(text, "\n", " ")))
		}
		sh.runSQL(ctx, text, 1)
	}
	return 0
}

// sqlKeywords are completed in the case the user types them.
var sqlKeywords = strings.Fields(`
	ALL ANALYZE AND AS ASC BETWEEN BY CASE CAST CREATE CROSS DESC DESCRIBE
	DISTINCT DROP ELSE END EXISTS EXPLAIN FALSE FIRST FROM FULL GROUP HAVING
	IF ILIKE IN INNER IS JOIN LAST LEFT LIKE LIMIT NOT NULL NULLS OFFSET ON
	OR ORDER OUTER REPLACE RIGHT SELECT SET TEMP THEN TO TRUE UNION USING
	VIEW WHEN WHERE`)

// sqlFunctions are completed in lower case.
var sqlFunctions = strings.Fields(`
	abs avg coalesce count date_part length lower max min parquet_metadata
	parquet_scan parquet_schema read_parquet round sum upper`)

// dotCommands are completed at the start of a line.
var dotCommands = strings.Fields(`.bail .echo .exit .explain .headers .help
	.maxrows .maxwidth .mode .nullvalue .once .output .quit .read .schema
	.separator .shell .system .tables .timer .views`)

// A completer completes SQL keywords, function names, column names seen in
// earlier results, view names, dot commands and, inside a quote, file paths.
type completer struct{ sh *shell }

var _ readline.AutoCompleter = (*completer)(nil)

// Do returns the suffixes that complete the word before pos, and the
// length of that word.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	before := string(line[:min(pos, len(line))])
	if prefix, ok := openQuote(before); ok {
		return completePath(prefix)
	}
	if t := strings.TrimLeft(before, " \t"); strings.HasPrefix(t, ".") && !strings.ContainsAny(t, " \t") {
		return completeWord(t, dotCommands)
	}
	start := len(before)
	for start > 0 {
		r := rune(before[start-1])
		if !(r == '_' || r >= 0x80 || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		start--
	}
	word := before[start:]
	if word == "" {
		return nil, 0
	}
	keywords := sqlKeywords
	if strings.ToUpper(word) != word {
		keywords = make([]string, len(sqlKeywords))
		for i, k := range sqlKeywords {
			keywords[i] = strings.ToLower(k)
		}
	}
	var words []string
	words = append(words, keywords...)
	words = append(words, sqlFunctions...)
	words = append(words, c.sh.columns.list()...)
	words = append(words, c.sh.session.Views()...)
	return completeWord(word, words)
}

// completeWord returns the suffixes of the words that start with word,
// ignoring case, without duplicates.
func completeWord(word string, words []string) ([][]rune, int) {
	seen := map[string]bool{}
	var out [][]rune
	n := len([]rune(word))
	for _, w := range words {
		if len(w) < len(word) || !strings.EqualFold(w[:len(word)], word) || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, []rune(w[len(word):]))
	}
	return out, n
}

// openQuote reports whether before ends inside a single-quoted string, and
// returns the string's text so far.
func openQuote(before string) (string, bool) {
	inSingle, inDouble := false, false
	start := 0
	for i, r := range before {
		switch {
		case r == '\'' && !inDouble:
			inSingle = !inSingle
			start = i + 1
		case r == '"' && !inSingle:
			inDouble = !inDouble
		}
	}
	return before[start:], inSingle
}

// completePath completes a file path with filepath.Glob; directories get a
// trailing slash.
func completePath(prefix string) ([][]rune, int) {
	dir, file := filepath.Split(prefix)
	matches, err := filepath.Glob(escapeGlob(dir) + escapeGlob(file) + "*")
	if err != nil {
		return nil, 0
	}
	var out [][]rune
	for _, m := range matches {
		base := filepath.Base(m)
		if !strings.HasPrefix(base, file) || (strings.HasPrefix(base, ".") && !strings.HasPrefix(file, ".")) {
			continue
		}
		suffix := base[len(file):]
		if st, err := os.Stat(m); err == nil && st.IsDir() {
			suffix += "/"
		}
		out = append(out, []rune(suffix))
	}
	return out, len([]rune(file))
}

// escapeGlob quotes the characters filepath.Match treats specially.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
