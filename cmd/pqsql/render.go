package main

import (
	"bufio"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/exec"
	"github.com/pqsql/pqsql/format"
)

// An outputMode is how results are printed.
type outputMode int

// The output modes.
const (
	modeBox outputMode = iota
	modeCSV
	modeJSON
	modeJSONLines
	modeMarkdown
	modeLine
	modeList
	modeTabs
	modeTable
	modeColumn
	modeHTML
	modeLatex
	modeInsert
	modeQuote
	modeTrash
)

// modeNames lists the modes by name, in the order help shows them.
var modeNames = []struct {
	name string
	mode outputMode
}{
	{"box", modeBox}, {"column", modeColumn}, {"csv", modeCSV}, {"html", modeHTML},
	{"insert", modeInsert}, {"json", modeJSON}, {"jsonlines", modeJSONLines},
	{"latex", modeLatex}, {"line", modeLine}, {"list", modeList},
	{"markdown", modeMarkdown}, {"quote", modeQuote}, {"table", modeTable},
	{"tabs", modeTabs}, {"trash", modeTrash},
}

func (m outputMode) String() string {
	for _, n := range modeNames {
		if n.mode == m {
			return n.name
		}
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// modeNameList is the mode names for messages: "box, column, ... or trash".
func modeNameList() string {
	var names []string
	for _, n := range modeNames {
		names = append(names, n.name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// parseMode reads a mode name; "duckbox", "ndjson" and "ascii"'s
// neighbours DuckDB accepts are aliases.
func parseMode(name string) (outputMode, error) {
	switch strings.ToLower(name) {
	case "duckbox":
		return modeBox, nil
	case "ndjson":
		return modeJSONLines, nil
	}
	for _, n := range modeNames {
		if strings.EqualFold(n.name, name) {
			return n.mode, nil
		}
	}
	return 0, fmt.Errorf("%w %q (want %s)", errUnknownMode, name, modeNameList())
}

// renderOptions are the settings rendering reads.
type renderOptions struct {
	mode outputMode
	// maxRows is how many rows box mode shows before eliding the middle; 0
	// shows all.
	maxRows int
	// null is printed for NULL when nullSet; otherwise NULL, as DuckDB's
	// .nullvalue defaults to.
	null    string
	nullSet bool
	// quoteNull quotes a value whose text is the null text, as COPY does,
	// so that reading the file back tells the two apart.
	quoteNull bool
	// maxWidth bounds box output to a terminal's width; 0 means no bound.
	maxWidth int
	// largeNumbers adds DuckDB's "(1.23 million)" readings on a terminal.
	largeNumbers bool
	// noHeaders leaves the column names out in the modes that may (list,
	// tabs, csv, column, table, html, latex, insert, quote).
	noHeaders bool
	// colSep separates values in list, tabs, csv and quote modes; each
	// mode sets its own unless sepSet (.separator or -separator) fixed it.
	colSep string
	sepSet bool
	// table names the table of insert mode's statements.
	table string
	// color draws box mode's types row faint, on a terminal without
	// NO_COLOR.
	color bool
}

// defaultRenderOptions are DuckDB's shell defaults: box mode, 40 rows,
// headers on.
func defaultRenderOptions() renderOptions {
	return renderOptions{mode: modeBox, maxRows: 40, colSep: "|", table: "table"}
}

// setMode switches to m with its own column separator, unless one was set.
func (o *renderOptions) setMode(m outputMode) {
	o.mode = m
	if o.sepSet {
		return
	}
	switch m {
	case modeCSV, modeQuote:
		o.colSep = ","
	case modeTabs:
		o.colSep = "\t"
	default:
		o.colSep = "|"
	}
}

// nullText is what NULL prints as in a mode whose default is def.
func (o renderOptions) nullText(def string) string {
	if o.nullSet {
		return o.null
	}
	return def
}

// sep is the column separator, def when none is set.
func (o renderOptions) sep(def string) string {
	if o.colSep == "" {
		return def
	}
	return o.colSep
}

// render prints res in the mode of o. Write errors stay in w, for its
// Flush to report.
func render(w *bufio.Writer, res *exec.Result, o renderOptions) {
	renderTableOf(w, newTable(res), o)
}

// renderTableOf prints the rows of t in the mode of o.
func renderTableOf(w *bufio.Writer, t *table, o renderOptions) {
	if len(t.res.Columns) == 0 {
		return
	}
	switch o.mode {
	case modeCSV:
		renderCSV(w, t, o)
	case modeJSON:
		renderJSON(w, t, true)
	case modeJSONLines:
		renderJSON(w, t, false)
	case modeMarkdown:
		renderMarkdown(w, t, o)
	case modeLine:
		renderLine(w, t, o)
	case modeList, modeTabs:
		renderList(w, t, o)
	case modeTable:
		renderTable(w, t, o)
	case modeColumn:
		renderColumn(w, t, o)
	case modeHTML:
		renderHTML(w, t, o)
	case modeLatex:
		renderLatex(w, t, o)
	case modeInsert:
		renderInsert(w, t, o)
	case modeQuote:
		renderQuote(w, t, o)
	case modeTrash:
	default:
		renderBox(w, t, o)
	}
}

// A table gives row-and-column access to a result's batches.
type table struct {
	res    *exec.Result
	starts []int // first row of each batch
	rows   int
	buf    []byte
	// gap rows, from row gapAt on, are not held: a streamed result kept
	// only its first and last rows for box mode, which shows no others.
	gapAt, gap int
}

func newTable(res *exec.Result) *table {
	t := &table{res: res}
	for _, b := range res.Batches {
		t.starts = append(t.starts, t.rows)
		t.rows += b.Len
	}
	return t
}

func (t *table) numCols() int { return len(t.res.Columns) }

// vector finds row's batch and returns the column's vector and the row's
// index in it; v is nil when the batch lacks the column.
func (t *table) vector(row, col int) (v *exec.Vector, i int) {
	if t.gap > 0 && row >= t.gapAt {
		if row < t.gapAt+t.gap {
			return nil, 0
		}
		row -= t.gap
	}
	bi := sort.Search(len(t.starts), func(k int) bool { return t.starts[k] > row }) - 1
	if bi < 0 || bi >= len(t.res.Batches) {
		return nil, 0
	}
	b := t.res.Batches[bi]
	i = row - t.starts[bi]
	if col >= len(b.Vectors) || i >= b.Len || b.Vectors[col] == nil {
		return nil, 0
	}
	return b.Vectors[col], i
}

// cell returns a value as DuckDB's text; null is true for NULL.
func (t *table) cell(row, col int) (text string, null bool) {
	v, i := t.vector(row, col)
	if v == nil || v.IsNull(i) {
		return "", true
	}
	t.buf = exec.AppendText(t.buf[:0], v, i)
	return string(t.buf), false
}

// renderCSV prints a header and the rows, quoted as RFC 4180 asks.
func renderCSV(w *bufio.Writer, t *table, o renderOptions) {
	null := o.nullText("NULL")
	sep := o.sep(",")
	f := exec.CSVFormat{Sep: sep, Null: null, QuoteNull: o.quoteNull}
	if !o.noHeaders {
		t.buf = f.AppendHeader(t.buf[:0], t.res.Columns)
		w.Write(t.buf)
	}
	// Batch by batch, the rows appended to one reused buffer: a million
	// rows must not cost a million strings.
	cols := make([]*exec.Vector, t.numCols())
	for _, b := range t.res.Batches {
		for c := range cols {
			cols[c] = nil
			if c < len(b.Vectors) {
				cols[c] = b.Vectors[c]
			}
		}
		t.buf = f.AppendRows(t.buf[:0], cols, b.Len)
		w.Write(t.buf)
	}
}

// renderJSON prints rows as JSON objects: inside an array, one row a line
// (DuckDB's json mode), or one object a line (jsonlines).
func renderJSON(w *bufio.Writer, t *table, array bool) {
	if array {
		w.WriteByte('[')
	}
	renderJSONRows(w, t, array)
	if array {
		w.WriteString("]\n")
	} else if t.rows > 0 {
		w.WriteByte('\n')
	}
}

// renderJSONRows prints t's rows as JSON objects, separated as renderJSON
// separates them, without the array's brackets or the last line break.
func renderJSONRows(w *bufio.Writer, t *table, array bool) {
	for r := 0; r < t.rows; r++ {
		if r > 0 {
			if array {
				w.WriteByte(',')
			}
			w.WriteByte('\n')
		}
		w.WriteByte('{')
		for c, name := range t.res.Columns {
			if c > 0 {
				w.WriteByte(',')
			}
			writeJSONString(w, name)
			w.WriteByte(':')
			v, i := t.vector(r, c)
			if v == nil || v.IsNull(i) {
				w.WriteString("null")
				continue
			}
			writeJSONValue(w, t, v, i)
		}
		w.WriteByte('}')
	}
}

// writeJSONValue writes one non-null value: numbers and booleans bare,
// nested values as JSON arrays and objects, everything else as a string.
func writeJSONValue(w *bufio.Writer, t *table, v *exec.Vector, i int) {
	if v.Type.ID == exec.TypeNested && i < len(v.Nested) {
		writeJSONNested(w, v.Nested[i])
		return
	}
	t.buf = exec.AppendText(t.buf[:0], v, i)
	text := string(t.buf)
	switch {
	case v.Type.ID == exec.TypeBoolean:
		w.WriteString(text)
	case v.Type.IsNumeric():
		writeJSONNumber(w, text)
	default:
		writeJSONString(w, text)
	}
}

// writeJSONNumber writes a number bare, but nan and inf, which JSON lacks,
// as strings.
func writeJSONNumber(w *bufio.Writer, text string) {
	switch strings.ToLower(strings.TrimLeft(text, "+-")) {
	case "nan", "inf", "infinity":
		writeJSONString(w, text)
	default:
		w.WriteString(text)
	}
}

// writeJSONNested writes an assembled LIST, STRUCT or MAP as JSON, the way
// DuckDB casts nested values to JSON; MAP keys become object keys.
func writeJSONNested(w *bufio.Writer, v format.Value) {
	switch x := v.(type) {
	case nil:
		w.WriteString("null")
	case format.Scalar:
		text := string(format.AppendText(nil, x.Logical, x.Values, x.Index))
		switch x.Logical.Kind {
		case format.KindBoolean:
			w.WriteString(text)
		case format.KindInt8, format.KindInt16, format.KindInt32, format.KindInt64,
			format.KindUint8, format.KindUint16, format.KindUint32, format.KindUint64,
			format.KindFloat, format.KindDouble, format.KindFloat16, format.KindDecimal:
			writeJSONNumber(w, text)
		default:
			writeJSONString(w, text)
		}
	case format.List:
		w.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				w.WriteByte(',')
			}
			writeJSONNested(w, e)
		}
		w.WriteByte(']')
	case *format.Struct:
		w.WriteByte('{')
		for i, e := range x.Values {
			if i > 0 {
				w.WriteByte(',')
			}
			name := ""
			if i < len(x.Fields) && x.Fields[i] != nil {
				name = x.Fields[i].Name
			}
			writeJSONString(w, name)
			w.WriteByte(':')
			writeJSONNested(w, e)
		}
		w.WriteByte('}')
	case *format.Map:
		w.WriteByte('{')
		for i := range x.Keys {
			if i > 0 {
				w.WriteByte(',')
			}
			writeJSONString(w, string(format.AppendValueText(nil, x.Keys[i])))
			w.WriteByte(':')
			if i < len(x.Values) {
				writeJSONNested(w, x.Values[i])
			} else {
				w.WriteString("null")
			}
		}
		w.WriteByte('}')
	default:
		writeJSONString(w, string(format.AppendValueText(nil, v)))
	}
}

// writeJSONString writes s as a JSON string, escaping only what JSON
// requires (quote, backslash, control characters).
func writeJSONString(w *bufio.Writer, s string) {
	const hex = "0123456789abcdef"
	w.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			w.WriteByte('\\')
			w.WriteByte(c)
		case c == '\n':
			w.WriteString(`\n`)
		case c == '\r':
			w.WriteString(`\r`)
		case c == '\t':
			w.WriteString(`\t`)
		case c == '\b':
			w.WriteString(`\b`)
		case c == '\f':
			w.WriteString(`\f`)
		case c < 0x20:
			w.WriteString(`\u00`)
			w.WriteByte(hex[c>>4])
			w.WriteByte(hex[c&0xf])
		default:
			w.WriteByte(c)
		}
	}
	w.WriteByte('"')
}

// renderMarkdown prints a GitHub table: centred headers, a separator that
// right-aligns numeric columns, pipes in values escaped.
func renderMarkdown(w *bufio.Writer, t *table, o renderOptions) {
	null := o.nullText("NULL")
	n := t.numCols()
	if n == 0 {
		return
	}
	names := make([]string, n)
	widths := make([]int, n)
	for c, name := range t.res.Columns {
		names[c] = markdownEscape(name)
		widths[c] = displayWidth(names[c])
	}
	cells := make([][]string, t.rows)
	for r := range cells {
		cells[r] = make([]string, n)
		for c := range n {
			text, isNull := t.cell(r, c)
			if isNull {
				text = null
			} else {
				text = markdownEscape(text)
			}
			cells[r][c] = text
			widths[c] = max(widths[c], displayWidth(text))
		}
	}
	w.WriteString("|")
	for c, name := range names {
		w.WriteByte(' ')
		writePadded(w, name, widths[c], alignMiddle)
		w.WriteString(" |")
	}
	w.WriteString("\n|")
	for c := range n {
		if c < len(t.res.Types) && t.res.Types[c].IsNumeric() {
			w.WriteString(strings.Repeat("-", widths[c]+1))
			w.WriteString(":|")
		} else {
			w.WriteString(strings.Repeat("-", widths[c]+2))
			w.WriteByte('|')
		}
	}
	w.WriteByte('\n')
	for _, row := range cells {
		w.WriteString("|")
		for c, text := range row {
			w.WriteByte(' ')
			writePadded(w, text, widths[c], alignLeft)
			w.WriteString(" |")
		}
		w.WriteByte('\n')
	}
}

// markdownEscape escapes pipes, which end a cell, and control characters,
// which would break the row.
func markdownEscape(s string) string {
	return strings.ReplaceAll(escapeControl(s), "|", `\|`)
}

// renderLine prints each row as "name = value" lines, names right-aligned,
// rows separated by a blank line.
func renderLine(w *bufio.Writer, t *table, o renderOptions) {
	null := o.nullText("NULL")
	width := 5
	for _, name := range t.res.Columns {
		width = max(width, displayWidth(name))
	}
	for r := 0; r < t.rows; r++ {
		if r > 0 {
			w.WriteByte('\n')
		}
		for c, name := range t.res.Columns {
			text, isNull := t.cell(r, c)
			if isNull {
				text = null
			}
			writePadded(w, name, width, alignRight)
			w.WriteString(" = ")
			w.WriteString(text)
			w.WriteByte('\n')
		}
	}
}

// An alignment places text in a wider cell.
type alignment int

// The alignments.
const (
	alignLeft alignment = iota
	alignMiddle
	alignRight
)

// writePadded writes s padded with blanks to width display columns.
func writePadded(w *bufio.Writer, s string, width int, a alignment) {
	pad := max(width-displayWidth(s), 0)
	var left int
	switch a {
	case alignRight:
		left = pad
	case alignMiddle:
		left = pad / 2
	}
	writeSpaces(w, left)
	w.WriteString(s)
	writeSpaces(w, pad-left)
}

func writeSpaces(w *bufio.Writer, n int) {
	for ; n > 0; n-- {
		w.WriteByte(' ')
	}
}
