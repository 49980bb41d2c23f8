package main

import (
	"context"
	"sort"
	"strings"
)

// An engine runs the benchmark's queries. Both engines live in this process,
// so that the same measurements (/proc/self counters, the clock) apply to
// each.
type engine interface {
	name() string
	// exec runs q once, to the end: every row produced (or, for a CSV
	// query, written to q.csvOut). The answer function renders the answer
	// as text rows afterwards, outside the timing; it may run the query
	// again.
	exec(ctx context.Context, q boundQuery) (answer func() ([]string, error), err error)
	close() error
}

// rowText joins a row's cells as the answers are compared: NULL as NULL,
// every other value as DuckDB's CAST(v AS VARCHAR) prints it.
func rowText(cells []string, nulls []bool) string {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteByte('\t')
		}
		if nulls[i] {
			b.WriteString("NULL")
			continue
		}
		b.WriteString(c)
	}
	return b.String()
}

// sameAnswer compares two answers, in order when the query fixes the order
// and as multisets otherwise. It returns a short description of the first
// difference, or "".
func sameAnswer(a, b []string, ordered bool) string {
	if !ordered {
		a, b = sortedCopy(a), sortedCopy(b)
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return "row " + itoa(i+1) + ": pqsql " + quoteCut(a[i]) + ", DuckDB " + quoteCut(b[i])
		}
	}
	if len(a) != len(b) {
		return "pqsql " + itoa(len(a)) + " rows, DuckDB " + itoa(len(b))
	}
	return ""
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// quoteCut quotes s, cut to a length a table cell can hold.
func quoteCut(s string) string {
	const most = 60
	if len(s) > most {
		s = s[:most] + "…"
	}
	return "`" + strings.ReplaceAll(s, "\t", " | ") + "`"
}
