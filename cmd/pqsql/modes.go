package main

import (
	"bufio"
	"html"
	"strings"

	"github.com/pqsql/pqsql/exec"
)

// The plain-text modes DuckDB's shell inherits from SQLite's: list, tabs,
// table, column, html, latex, insert and quote. Each prints NULL as the
// null value (NULL unless .nullvalue changed it) and the column names
// unless .headers is off.

// texts returns the rows of t as text, NULL as null.
func (t *table) texts(null string) [][]string {
	out := make([][]string, t.rows)
	for r := range out {
		row := make([]string, t.numCols())
		for c := range row {
			text, isNull := t.cell(r, c)
			if isNull {
				text = null
			}
			row[c] = text
		}
		out[r] = row
	}
	return out
}

// renderList prints values separated by the column separator, one row a
// line: "|" in list mode, a tab in tabs mode.
func renderList(w *bufio.Writer, t *table, o renderOptions) {
	def := "|"
	if o.mode == modeTabs {
		def = "\t"
	}
	sep := o.sep(def)
	if !o.noHeaders {
		w.WriteString(strings.Join(t.res.Columns, sep))
		w.WriteByte('\n')
	}
	for _, row := range t.texts(o.nullText("NULL")) {
		w.WriteString(strings.Join(row, sep))
		w.WriteByte('\n')
	}
}

// columnWidths is the display width of each column over names and rows.
func columnWidths(names []string, rows [][]string, withNames bool) []int {
	widths := make([]int, len(names))
	for c, n := range names {
		if withNames {
			widths[c] = displayWidth(n)
		}
	}
	for _, row := range rows {
		for c, v := range row {
			widths[c] = max(widths[c], displayWidth(v))
		}
	}
	return widths
}

// isNumeric reports whether column c of t right-aligns.
func (t *table) isNumeric(c int) bool {
	return c < len(t.res.Types) && t.res.Types[c].IsNumeric()
}

// renderTable prints an ASCII grid, as DuckDB's .mode table: names
// centred, values left-aligned.
//
//	+---+----+
//	| a | b  |
//	+---+----+
//	| 1 | xx |
//	+---+----+
func renderTable(w *bufio.Writer, t *table, o renderOptions) {
	names := escapedNames(t.res.Columns)
	rows := escapeRows(t.texts(o.nullText("NULL")))
	widths := columnWidths(names, rows, !o.noHeaders)
	rule := func() {
		w.WriteByte('+')
		for _, wd := range widths {
			w.WriteString(strings.Repeat("-", wd+2))
			w.WriteByte('+')
		}
		w.WriteByte('\n')
	}
	line := func(row []string, a alignment) {
		w.WriteByte('|')
		for c, v := range row {
			w.WriteByte(' ')
			writePadded(w, v, widths[c], a)
			w.WriteString(" |")
		}
		w.WriteByte('\n')
	}
	rule()
	if !o.noHeaders {
		line(names, alignMiddle)
		rule()
	}
	for _, row := range rows {
		line(row, alignLeft)
	}
	if len(rows) > 0 {
		rule()
	}
}

// renderColumn prints columns padded to their width, two blanks apart,
// every value left-aligned, with a row of dashes under the names, as
// DuckDB's .mode column.
func renderColumn(w *bufio.Writer, t *table, o renderOptions) {
	names := escapedNames(t.res.Columns)
	rows := escapeRows(t.texts(o.nullText("NULL")))
	widths := columnWidths(names, rows, !o.noHeaders)
	line := func(row []string) {
		for c, v := range row {
			if c > 0 {
				w.WriteString("  ")
			}
			writePadded(w, v, widths[c], alignLeft)
		}
		w.WriteByte('\n')
	}
	if !o.noHeaders {
		line(names)
		dashes := make([]string, len(widths))
		for c, wd := range widths {
			dashes[c] = strings.Repeat("-", wd)
		}
		line(dashes)
	}
	for _, row := range rows {
		line(row)
	}
}

func escapedNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = escapeControl(n)
	}
	return out
}

func escapeRows(rows [][]string) [][]string {
	for _, row := range rows {
		for c, v := range row {
			row[c] = escapeControl(v)
		}
	}
	return rows
}

// renderHTML prints table rows for pasting into a <table>, names in <th>.
func renderHTML(w *bufio.Writer, t *table, o renderOptions) {
	if !o.noHeaders {
		w.WriteString("<tr>")
		for _, n := range t.res.Columns {
			w.WriteString("<th>" + html.EscapeString(n) + "</th>\n")
		}
		w.WriteString("</tr>\n")
	}
	for _, row := range t.texts(o.nullText("NULL")) {
		w.WriteString("<tr>")
		for _, v := range row {
			w.WriteString("<td>" + html.EscapeString(v) + "</td>\n")
		}
		w.WriteString("</tr>\n")
	}
}

// renderLatex prints a tabular environment as DuckDB's .mode latex:
// numeric columns right-aligned in the column spec, cells padded to their
// column's width (names centred), values as they are.
func renderLatex(w *bufio.Writer, t *table, o renderOptions) {
	names := escapedNames(t.res.Columns)
	rows := escapeRows(t.texts(o.nullText("NULL")))
	widths := columnWidths(names, rows, !o.noHeaders)
	w.WriteString(`\begin{tabular}{|`)
	for c := range t.numCols() {
		if t.isNumeric(c) {
			w.WriteByte('r')
		} else {
			w.WriteByte('l')
		}
	}
	w.WriteString("|}\n\\hline\n")
	line := func(row []string, a alignment) {
		for c, v := range row {
			if c > 0 {
				w.WriteString(" & ")
			}
			writePadded(w, v, widths[c], a)
		}
		w.WriteString(" \\\\\n")
	}
	if !o.noHeaders {
		line(names, alignMiddle)
		w.WriteString("\\hline\n")
	}
	for _, row := range rows {
		line(row, alignLeft)
	}
	w.WriteString("\\hline\n\\end{tabular}\n")
}

// renderInsert prints one INSERT statement a row, into the table named by
// .mode insert TABLE ("table" by default), with the column names unless
// headers are off.
func renderInsert(w *bufio.Writer, t *table, o renderOptions) {
	name := o.table
	if name == "" {
		name = "table"
	}
	prefix := "INSERT INTO " + quoteIdent(name)
	if !o.noHeaders {
		names := make([]string, t.numCols())
		for c, n := range t.res.Columns {
			names[c] = sqlIdent(n)
		}
		prefix += "(" + strings.Join(names, ",") + ")"
	}
	prefix += " VALUES("
	for r := 0; r < t.rows; r++ {
		w.WriteString(prefix)
		writeSQLValues(w, t, r, ",")
		w.WriteString(");\n")
	}
}

// renderQuote prints values as SQL literals: strings quoted, numbers bare.
func renderQuote(w *bufio.Writer, t *table, o renderOptions) {
	sep := o.sep(",")
	if !o.noHeaders {
		for c, n := range t.res.Columns {
			if c > 0 {
				w.WriteString(sep)
			}
			w.WriteString(sqlString(n))
		}
		w.WriteByte('\n')
	}
	for r := 0; r < t.rows; r++ {
		writeSQLValues(w, t, r, sep)
		w.WriteByte('\n')
	}
}

// writeSQLValues writes row r as SQL literals: NULL, numbers and booleans
// bare, everything else a quoted string.
func writeSQLValues(w *bufio.Writer, t *table, r int, sep string) {
	for c := range t.numCols() {
		if c > 0 {
			w.WriteString(sep)
		}
		text, isNull := t.cell(r, c)
		switch {
		case isNull:
			w.WriteString("NULL")
		case t.isNumeric(c) && isFiniteNumber(text):
			w.WriteString(text)
		case c < len(t.res.Types) && t.res.Types[c].ID == exec.TypeBoolean:
			w.WriteString(text)
		default:
			w.WriteString(sqlString(text))
		}
	}
}

// isFiniteNumber reports whether a number's text is a literal SQL reads
// back (nan and inf need quotes).
func isFiniteNumber(text string) bool {
	switch strings.ToLower(strings.TrimLeft(text, "+-")) {
	case "nan", "inf", "infinity":
		return false
	}
	return true
}

// sqlString quotes s as a SQL string literal.
func sqlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// sqlIdent quotes a name only when it is not a plain lower-case identifier.
func sqlIdent(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return quoteIdent(name)
}
