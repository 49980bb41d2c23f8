package sql

import "github.com/xwb1989/sqlparser"

// ignoreNullsMarker is the last argument the lowering gives a value window
// function written with IGNORE NULLS; fixAST removes it.
const ignoreNullsMarker = reservedPrefix + "ignore_nulls"

// nullsWindowFuncs are the window functions DuckDB's grammar lets take
// IGNORE NULLS or RESPECT NULLS.
var nullsWindowFuncs = map[string]bool{
	"first_value": true, "last_value": true, "nth_value": true, "lag": true, "lead": true,
}

// lowerIgnoreNulls reads "f(args IGNORE NULLS)" and "f(args RESPECT
// NULLS)" as DuckDB does: the clause closes the argument list of a call
// followed by OVER. RESPECT NULLS is the default and is dropped; IGNORE
// NULLS becomes a last argument __pqsql_ignore_nulls(), which fixAST takes
// into Select.IgnoreNulls. It runs before the FILTER, OVER and ORDER BY
// lowerings, whose markers then follow it.
func (p *parser) lowerIgnoreNulls(out []otok) ([]otok, error) {
	for i := 0; i+2 < len(out); i++ {
		if out[i].kw != "ignore" && out[i].kw != "respect" || out[i+1].kw != "nulls" || !isOpTok(out, i+2, ")") {
			continue
		}
		open := matchOpen(out, i+2)
		if open < 1 || !isCallee(out[open-1]) || open+1 == i {
			return nil, p.errOut(out, i+1, ErrSyntax, "syntax error")
		}
		over := i + 3
		if out[over].kw == "filter" && isOpTok(out, over+1, "(") {
			if c := matchClose(out, over+1); c > 0 {
				over = c + 1
			}
		}
		switch {
		case kwAt(out, over) != "over":
			return nil, p.errOut(out, i, ErrSyntax, "RESPECT/IGNORE NULLS is not supported for non-window functions")
		case !nullsWindowFuncs[out[open-1].kw]:
			return nil, p.errOut(out, i, ErrSyntax, "RESPECT/IGNORE NULLS is not supported for windowed aggregates")
		}
		var rep []otok
		if out[i].kw == "ignore" {
			o := out[i].orig
			rep = []otok{invented(",", o), invented(ignoreNullsMarker, o), invented("(", o), invented(")", o)}
		}
		out = splice(out, i, i+2, rep...)
	}
	return out, nil
}

// fixIgnoreNulls takes the __pqsql_ignore_nulls marker, the last argument
// of call n once FILTER and OVER are out, into sel.IgnoreNulls.
func fixIgnoreNulls(sel *parsed, n *sqlparser.FuncExpr) {
	k := len(n.Exprs) - 1
	if k < 0 {
		return
	}
	ae, ok := n.Exprs[k].(*sqlparser.AliasedExpr)
	if f, isF := funcOf(ae, ok); !isF || f.Name.Lowered() != ignoreNullsMarker {
		return
	}
	n.Exprs = n.Exprs[:k]
	if sel.IgnoreNulls == nil {
		sel.IgnoreNulls = map[*sqlparser.FuncExpr]bool{}
	}
	sel.IgnoreNulls[n] = true
}
