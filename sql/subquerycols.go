package sql

import (
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// subqueryColsMarker starts the alias the lowering gives a FROM subquery
// written with a column list; fixAST restores the alias.
const subqueryColsMarker = reservedPrefix + "cols_"

// A subqueryCols is the alias and column list of one FROM subquery.
type subqueryCols struct {
	alias   string
	columns []string
}

// lowerSubqueryColumns reads "(query) [AS] t(a, b)" in FROM, whose column
// list renames the subquery's first columns as DuckDB does: sqlparser gets
// the alias __pqsql_cols_<n> alone, and fixAST takes the list from
// parser.subCols into Select.SubqueryColumns.
func (p *parser) lowerSubqueryColumns(out []otok) ([]otok, error) {
	for k := len(out) - 1; k > 0; k-- {
		if !isOpTok(out, k, ")") {
			continue
		}
		open := matchOpen(out, k)
		if open < 0 || open+1 >= k || !isQueryStart(out[open+1].kw) {
			continue
		}
		a := k + 1
		if kwAt(out, a) == "as" {
			a++
		}
		if a >= len(out) || !(out[a].kind == tkWord && !structural[out[a].kw] || out[a].kind == tkQIdent) || !isOpTok(out, a+1, "(") {
			continue
		}
		end := matchClose(out, a+1)
		if end < 0 {
			return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
		}
		if end == a+2 {
			return nil, p.errOut(out, end, ErrSyntax, "expected a column name")
		}
		var cols []string
		for _, c := range splitCommas(out, a+2, end) {
			if len(c) != 1 || c[0].kind != tkWord && c[0].kind != tkQIdent {
				return nil, p.errOut(out, a+2, ErrSyntax, "expected a column name")
			}
			cols = append(cols, c[0].val)
		}
		marker := invented(backquote(subqueryColsMarker+strconv.Itoa(len(p.subCols))), out[a].orig)
		marker.kind = tkQIdent // an alias, as the source lowering sees it
		p.subCols = append(p.subCols, subqueryCols{alias: out[a].val, columns: cols})
		out = splice(out, a, end+1, marker)
	}
	return out, nil
}

func isQueryStart(kw string) bool { return kw == "select" || kw == "with" || kw == "from" }

// fixSubqueryColumns restores the alias of a FROM subquery that had a
// column list and records the list in sel.SubqueryColumns.
func (p *parser) fixSubqueryColumns(sel *parsed, n *sqlparser.AliasedTableExpr) bool {
	name := n.As.String()
	if !strings.HasPrefix(name, subqueryColsMarker) {
		return true
	}
	k, err := strconv.Atoi(name[len(subqueryColsMarker):])
	if err != nil || k < 0 || k >= len(p.subCols) {
		return false
	}
	n.As = sqlparser.NewTableIdent(p.subCols[k].alias)
	if sel.SubqueryColumns == nil {
		sel.SubqueryColumns = map[*sqlparser.AliasedTableExpr][]string{}
	}
	sel.SubqueryColumns[n] = p.subCols[k].columns
	return true
}
