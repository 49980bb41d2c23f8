package main

import (
	"bufio"
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/exec"
)

// Box layout constants, DuckDB's: columns are not squeezed below
// boxMaxColWidth before whole columns are dropped, and a width bound is
// never below boxMinWidth.
const (
	boxMaxColWidth = 20
	boxMinWidth    = 80
)

// A boxCell is one value of a box row, already in display form.
type boxCell struct {
	text  string
	width int
	align alignment
	dim   bool // drawn faint, as DuckDB draws the types row on a terminal
}

// boxRowKind says what a box row draws.
type boxRowKind int

const (
	boxValues    boxRowKind = iota
	boxSeparator            // ├───┼───┤
	boxDivider              // where rows were elided; becomes three rows of dots
)

type boxRow struct {
	kind  boxRowKind
	cells []boxCell
}

// A boxFooter holds the strings of the footer under the rows.
type boxFooter struct {
	rowStr, readable, shownStr, colStr string
	renderLen                          int
	hiddenRows, hiddenCols             bool
}

// renderBox prints DuckDB's box table: names, types, rows (the middle
// elided past maxRows) and a footer that counts rows and columns.
func renderBox(w *bufio.Writer, t *table, o renderOptions) {
	ncols := t.numCols()
	n := t.rows
	shown := n
	// Eliding costs three rows of dots, so do it only when it saves some.
	if o.maxRows > 0 && n > o.maxRows+3 {
		shown = o.maxRows
	}
	top, bottom := shown, 0
	if shown < n {
		top = (shown + 1) / 2
		bottom = shown - top
	}

	f := boxFooter{hiddenRows: shown < n}
	f.rowStr = strconv.Itoa(n) + " rows"
	if n == 1 {
		f.rowStr = "1 row"
	}
	if o.largeNumbers {
		if s := readableNumber(strconv.Itoa(n)); s != "" {
			f.readable = s + " rows"
		}
	}
	if f.hiddenRows {
		f.shownStr = strconv.Itoa(shown) + " shown"
	}
	f.colStr = strconv.Itoa(ncols) + " column"
	if ncols > 1 {
		f.colStr += "s"
	}
	f.renderLen = max(len(f.rowStr), len(f.shownStr)+2, len(f.readable)+2) + 4
	mustShowFooter := f.hiddenRows || n == 0

	types := make([]exec.Type, ncols)
	copy(types, t.res.Types)
	null := o.nullText("NULL")

	header := boxRow{cells: make([]boxCell, ncols)}
	typeRow := boxRow{cells: make([]boxCell, ncols)}
	for c := range ncols {
		header.cells[c] = newBoxCell(escapeControl(t.res.Columns[c]), alignMiddle)
		typeRow.cells[c] = newBoxCell(boxTypeName(types[c]), alignMiddle)
		typeRow.cells[c].dim = o.color
	}
	rows := []boxRow{header, typeRow}
	if n > 0 {
		rows = append(rows, boxRow{kind: boxSeparator})
	}
	valueRow := func(r int) boxRow {
		row := boxRow{cells: make([]boxCell, ncols)}
		for c := range ncols {
			text, isNull := t.cell(r, c)
			a := alignLeft
			if types[c].RightAligned() {
				a = alignRight
			}
			switch {
			case isNull:
				text = null
			case !types[c].IsNumeric():
				text = escapeControl(text)
			}
			row.cells[c] = newBoxCell(text, a)
		}
		return row
	}
	for r := 0; r < top; r++ {
		rows = append(rows, valueRow(r))
	}
	if o.largeNumbers && n == 1 {
		rows = appendLargeNumbers(rows, types)
	}
	if bottom > 0 {
		rows = append(rows, boxRow{kind: boxDivider})
		for r := n - bottom; r < n; r++ {
			rows = append(rows, valueRow(r))
		}
	}

	widths := make([]int, ncols)
	for _, row := range rows {
		for c, cell := range row.cells {
			widths[c] = max(widths[c], cell.width)
		}
	}
	total := boxTotal(widths)
	if mustShowFooter && total < f.renderLen && ncols > 0 {
		widths[0] += f.renderLen - total
		total = f.renderLen
	}
	if o.maxWidth > 0 {
		var pruned map[int]bool
		widths, pruned = fitBoxWidth(widths, max(o.maxWidth, boxMinWidth))
		if len(pruned) > 0 {
			f.hiddenCols = true
			f.colStr += " (" + strconv.Itoa(ncols-len(pruned)) + " shown)"
			rows = pruneBoxColumns(rows, pruned, ncols)
		}
		total = boxTotal(widths)
	}
	rows = expandDivider(rows, widths)

	writeBoxLine(w, "┌", "┬", "┐", widths)
	for _, row := range rows {
		if row.kind == boxSeparator {
			writeBoxLine(w, "├", "┼", "┤", widths)
			continue
		}
		for c, cell := range row.cells {
			writeBoxCell(w, cell, widths[c])
		}
		w.WriteString("│\n")
	}
	writeBoxFooter(w, &f, n, ncols, total, widths)
}

func newBoxCell(text string, a alignment) boxCell {
	return boxCell{text: text, width: displayWidth(text), align: a}
}

// boxTotal is the width of a box whose columns are widths wide: a border,
// then a blank, the value, a blank and a border per column.
func boxTotal(widths []int) int {
	total := 1
	for _, w := range widths {
		total += w + 3
	}
	return total
}

// appendLargeNumbers follows a single row of large numbers with their
// readings ("(12.35 million)"), when every column has one, as DuckDB does
// on a terminal.
func appendLargeNumbers(rows []boxRow, types []exec.Type) []boxRow {
	last := &rows[len(rows)-1]
	extra := boxRow{cells: make([]boxCell, len(types))}
	for c, cell := range last.cells {
		if !types[c].IsNumeric() {
			return rows
		}
		s := readableNumber(cell.text)
		if s == "" {
			return rows
		}
		extra.cells[c] = newBoxCell("("+s+")", alignMiddle)
	}
	for c := range last.cells {
		last.cells[c].align = alignMiddle
	}
	return append(rows, extra)
}

// fitBoxWidth narrows columns so the box fits maxWidth: first by cutting
// columns wider than boxMaxColWidth in proportion, then by dropping columns
// from the middle outwards (replaced by one "…" column). It returns the
// widths of the columns drawn and the dropped columns.
func fitBoxWidth(widths []int, maxWidth int) ([]int, map[int]bool) {
	total := boxTotal(widths)
	if total <= maxWidth {
		return widths, nil
	}
	original := append([]int(nil), widths...)
	excess := make([]int, len(widths))
	totalExcess := 0
	for c, w := range widths {
		excess[c] = max(w-boxMaxColWidth, 0)
		totalExcess += excess[c]
	}
	if need := total - maxWidth; totalExcess >= need {
		cut := make([]int, len(widths))
		done := 0
		for c := range widths {
			cut[c] = int(float64(need) * float64(excess[c]) / float64(totalExcess))
			done += cut[c]
		}
		for c := 0; c < len(widths) && done < need; c++ {
			more := min(need-done, excess[c]-cut[c])
			cut[c] += more
			done += more
		}
		for c := range widths {
			widths[c] -= cut[c]
		}
		return widths, nil
	}
	for c := range widths {
		widths[c] -= excess[c]
	}
	total = boxTotal(widths) + 3 + 1 // the "…" column
	pruned := map[int]bool{}
	for offset := 0; total > maxWidth; {
		c := len(widths)/2 + offset
		if c < 0 || c >= len(widths) || len(pruned) == len(widths)-1 {
			break
		}
		total -= widths[c] + 3
		pruned[c] = true
		if offset >= 0 {
			offset = -offset - 1
		} else {
			offset = -offset
		}
	}
	// Give room left over back to columns that were cut.
	space := maxWidth - total
	for c := 0; c < len(widths) && space > 0; c++ {
		if pruned[c] || widths[c] >= original[c] {
			continue
		}
		more := min(space, original[c]-widths[c])
		widths[c] += more
		space -= more
	}
	var kept []int
	split := false
	for c, w := range widths {
		switch {
		case !pruned[c]:
			kept = append(kept, w)
		case !split:
			kept = append(kept, 1)
			split = true
		}
	}
	return kept, pruned
}

// pruneBoxColumns drops the pruned columns' cells, putting one "…" cell
// where the first of them was.
func pruneBoxColumns(rows []boxRow, pruned map[int]bool, ncols int) []boxRow {
	for r := range rows {
		if rows[r].kind != boxValues {
			continue
		}
		var cells []boxCell
		split := false
		for c := range ncols {
			switch {
			case !pruned[c]:
				cells = append(cells, rows[r].cells[c])
			case !split:
				cells = append(cells, boxCell{text: "…", width: 1, align: alignMiddle})
				split = true
			}
		}
		rows[r].cells = cells
	}
	return rows
}

// expandDivider replaces the divider with three rows holding a "·" per
// column, placed in the middle of the values around it.
func expandDivider(rows []boxRow, widths []int) []boxRow {
	d := -1
	for i, row := range rows {
		if row.kind == boxDivider {
			d = i
		}
	}
	if d < 1 || d+1 >= len(rows) {
		return rows
	}
	prev, next := rows[d-1], rows[d+1]
	dots := boxRow{cells: make([]boxCell, len(widths))}
	for c := range widths {
		a := prev.cells[c].align
		text := "·"
		if a != alignMiddle {
			above := min(widths[c], prev.cells[c].width)
			below := min(widths[c], next.cells[c].width)
			span := min(above, below)
			if above == 0 {
				span = below
			} else if below == 0 {
				span = above
			}
			if span > 1 {
				pad := span - 1
				left := pad / 2
				if a == alignRight {
					left = pad - pad/2
				}
				text = strings.Repeat(" ", left) + "·" + strings.Repeat(" ", pad-left)
			} else if span == 0 {
				a = alignMiddle
			}
		}
		dots.cells[c] = newBoxCell(text, a)
	}
	out := append([]boxRow(nil), rows[:d]...)
	out = append(out, dots, dots, dots)
	return append(out, rows[d+1:]...)
}

// writeBoxLine draws a horizontal line: left, then per column a run of ─
// joined by mid, then right.
func writeBoxLine(w *bufio.Writer, left, mid, right string, widths []int) {
	w.WriteString(left)
	for c, width := range widths {
		if c > 0 {
			w.WriteString(mid)
		}
		w.WriteString(strings.Repeat("─", width+2))
	}
	w.WriteString(right)
	w.WriteByte('\n')
}

// writeBoxCell draws "│" and the cell padded to width, cut with "…" when
// it does not fit.
func writeBoxCell(w *bufio.Writer, cell boxCell, width int) {
	text, tw := cell.text, cell.width
	if tw > width {
		text, tw = truncateWidth(text, width)
	}
	pad := width - tw + 2
	left := 1
	switch cell.align {
	case alignMiddle:
		left = pad / 2
	case alignRight:
		left = pad - 1
	}
	w.WriteString("│")
	writeSpaces(w, left)
	if cell.dim {
		w.WriteString(ansiDim + text + ansiReset)
	} else {
		w.WriteString(text)
	}
	writeSpaces(w, pad-left)
}

// writeBoxFooter closes the box, with a row count (and column count, and
// how many rows are shown) when there is something worth saying: no rows,
// ten or more rows, or hidden columns.
func writeBoxFooter(w *bufio.Writer, f *boxFooter, n, ncols, total int, widths []int) {
	rowsAndCols := total >= len(f.rowStr)+len(f.colStr)+6 &&
		((f.hiddenCols && n > 0) || (n >= 10 && ncols > 1))
	rowsOnly := total >= f.renderLen && (n == 0 || n >= 10)
	if !rowsAndCols && !rowsOnly {
		writeBoxLine(w, "└", "┴", "┘", widths)
		return
	}
	writeBoxLine(w, "├", "┴", "┤", widths)
	padding := total - len(f.rowStr) - 4
	if rowsAndCols {
		padding -= len(f.colStr)
	}
	readable, shownStr := f.readable, f.shownStr
	extra := ""
	extraLen := len(readable) + len(shownStr) + 3
	if readable != "" {
		extraLen += 2
	}
	if f.hiddenRows && padding >= extraLen {
		extra = " ("
		if readable != "" {
			extra += readable + ", "
		}
		extra += shownStr + ")"
		padding -= extraLen
		readable, shownStr = "", ""
	}
	padding = max(padding, 0)
	w.WriteString("│ ")
	if rowsAndCols {
		w.WriteString(f.rowStr + extra)
		writeSpaces(w, padding)
		w.WriteString(f.colStr)
	} else {
		writeSpaces(w, padding/2)
		w.WriteString(f.rowStr + extra)
		writeSpaces(w, padding-padding/2)
	}
	w.WriteString(" │\n")
	if readable != "" && shownStr != "" {
		if both := len(readable) + len(shownStr) + 4; both <= total {
			w.WriteString("│ " + readable)
			writeSpaces(w, total-both)
			w.WriteString(shownStr + " │\n")
			readable, shownStr = "", ""
		}
	}
	a := alignMiddle
	if rowsAndCols {
		a = alignLeft
	}
	for _, s := range []string{readable, shownStr} {
		if s != "" {
			writeBoxCell(w, newBoxCell("("+s+")", a), total-4)
			w.WriteString("│\n")
		}
	}
	w.WriteString("└" + strings.Repeat("─", total-2) + "┘\n")
}

// boxIntNames are the names the box renderer gives integer types.
var boxIntNames = map[string]string{
	"TINYINT": "int8", "SMALLINT": "int16", "INTEGER": "int32", "BIGINT": "int64",
	"HUGEINT": "int128", "UTINYINT": "uint8", "USMALLINT": "uint16",
	"UINTEGER": "uint32", "UBIGINT": "uint64", "UHUGEINT": "uint128",
}

// boxTypeName is a type as the box header shows it: lower case, integers
// by size (int32, uint8), lists as child[].
func boxTypeName(t exec.Type) string {
	name := t.String()
	if t.ID == exec.TypeVarchar && t.Name != "" {
		name = t.Name // an alias such as JSON
	}
	return lowerTypeName(name)
}

func lowerTypeName(s string) string {
	if base, ok := strings.CutSuffix(s, "[]"); ok {
		return lowerTypeName(base) + "[]"
	}
	if n, ok := boxIntNames[s]; ok {
		return n
	}
	return strings.ToLower(s)
}

// readableNumber spells a number of a million or more the way DuckDB's
// footer does ("12.35 million"); smaller or odd numbers give "".
func readableNumber(numeric string) string {
	if len(numeric) <= 5 {
		return ""
	}
	digits, neg := strings.CutPrefix(numeric, "-")
	whole, _, _ := strings.Cut(digits, ".")
	if whole == "" || len(whole) > 19 || strings.Trim(whole, "0123456789") != "" {
		return ""
	}
	number, err := strconv.ParseUint(whole, 10, 64)
	if err != nil {
		return ""
	}
	units := []struct {
		base uint64
		name string
	}{
		{1e6, "million"}, {1e9, "billion"}, {1e12, "trillion"},
		{1e15, "quadrillion"}, {1e18, "quintillion"},
	}
	var base uint64
	unit := ""
	for _, u := range units {
		if number+u.base/200 >= u.base {
			base, unit = u.base, u.name
		}
	}
	if unit == "" {
		return ""
	}
	hundredths := strconv.FormatUint((number+base/200)/(base/100), 10)
	sign := ""
	if neg {
		sign = "-"
	}
	return sign + hundredths[:len(hundredths)-2] + "." + hundredths[len(hundredths)-2:] + " " + unit
}
