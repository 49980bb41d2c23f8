package sql

import "strconv"

// lowerValues rewrites VALUES lists, at the start of a query or as a FROM
// subquery, into the UNION ALL of one SELECT per row: the rows' types then
// combine as a UNION's do, as in DuckDB. Columns are named col0, col1, ...
// or by the alias's column list: FROM (VALUES (1, 'a')) t(x, y).
func (p *parser) lowerValues(out []otok) ([]otok, error) {
	for i := 0; i < len(out); i++ {
		if out[i].kw != "values" || !(i == 0 || isOpTok(out, i-1, "(")) || !isOpTok(out, i+1, "(") {
			continue
		}
		var rows [][][]otok
		j := i + 1
		for {
			end := matchClose(out, j)
			if end < 0 {
				return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
			}
			row := splitCommas(out, j+1, end)
			for _, e := range row {
				if len(e) == 0 {
					return nil, p.errOut(out, end, ErrSyntax, "expected an expression")
				}
			}
			if len(rows) > 0 && len(row) != len(rows[0]) {
				return nil, p.errOut(out, j, ErrSyntax, "VALUES lists must all be the same length")
			}
			rows = append(rows, row)
			j = end + 1
			if !isOpTok(out, j, ",") || !isOpTok(out, j+1, "(") {
				break
			}
			j++
		}
		names := make([]string, len(rows[0]))
		for k := range names {
			names[k] = "col" + strconv.Itoa(k)
		}
		// FROM (VALUES ...) [AS] t(x, y): the column list names the columns.
		if i > 0 && isOpTok(out, j, ")") {
			a := j + 1
			if kwAt(out, a) == "as" {
				a++
			}
			if a < len(out) && (out[a].kind == tkWord && !structural[out[a].kw] || out[a].kind == tkQIdent) && isOpTok(out, a+1, "(") {
				end := matchClose(out, a+1)
				if end < 0 {
					return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
				}
				cols := splitCommas(out, a+2, end)
				if len(cols) > len(names) {
					return nil, p.errOut(out, a+1, ErrSyntax, "table has "+strconv.Itoa(len(names))+" columns available but "+strconv.Itoa(len(cols))+" columns specified")
				}
				for k, c := range cols {
					if len(c) != 1 || c[0].kind != tkWord && c[0].kind != tkQIdent {
						return nil, p.errOut(out, a+2, ErrSyntax, "expected a column name")
					}
					names[k] = c[0].val
				}
				out = splice(out, a+1, end+1)
			}
		}
		o := out[i].orig
		var rep []otok
		for r, row := range rows {
			if r > 0 {
				rep = append(rep, keyword("union", o), keyword("all", o))
			}
			rep = append(rep, keyword("select", o))
			for k, e := range row {
				if k > 0 {
					rep = append(rep, invented(",", o))
				}
				rep = append(rep, e...)
				if r == 0 {
					rep = append(rep, keyword("as", o), invented(backquote(names[k]), o))
				}
			}
		}
		out = splice(out, i, j, rep...)
		i += len(rep) - 1
	}
	return out, nil
}

// keyword returns an invented keyword token that the later lowerings
// recognise as if it had been written (a subquery's SELECT, ...).
func keyword(kw string, orig int) otok {
	t := invented(kw, orig)
	t.kw = kw
	return t
}
