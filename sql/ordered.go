package sql

import (
	"strconv"

	"github.com/xwb1989/sqlparser"
)

// Markers of the ORDER BY written inside a call; fixAST removes them.
const (
	argOrderMarker = reservedPrefix + "aorder"
	argKeyMarker   = reservedPrefix + "akey"
)

// A rawArgOrder is one key of an ORDER BY written inside an aggregate call:
// string_agg(x, ',' ORDER BY y DESC NULLS FIRST).
type rawArgOrder struct {
	Expr sqlparser.Expr
	Desc bool
	// Asc says ASC was written (DuckDB's column names keep it).
	Asc   bool
	Nulls NullsOrder
}

// ArgOrderOf returns the ORDER BY keys written inside a function call of
// the AST, or nil.
func (s *parsed) ArgOrderOf(f *sqlparser.FuncExpr) []rawArgOrder {
	return s.argOrders[f]
}

// lowerArgOrders moves "f(args ORDER BY k [ASC|DESC] [NULLS FIRST|LAST],
// ...)" into a last argument __pqsql_aorder(__pqsql_akey(k, desc, nulls),
// ...), which sqlparser parses as part of the call; fixAST takes it out
// into Select.ArgOrderOf. It runs after the FILTER and OVER lowerings,
// whose markers follow the ORDER BY list in the call.
func (p *parser) lowerArgOrders(out []otok) ([]otok, error) {
	// The calls holding an ORDER BY, found in one pass with a stack of
	// open parentheses, are rewritten from the last one back.
	var stack, opens, orders []int
	for i := range out {
		switch {
		case isOpTok(out, i, "("):
			stack = append(stack, i)
		case isOpTok(out, i, ")"):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case out[i].kw == "order" && kwAt(out, i+1) == "by" && len(stack) > 0:
			open := stack[len(stack)-1]
			query := out[open+1].kw == "select" || out[open+1].kw == "with" || out[open+1].kw == "from"
			if open >= 1 && !query && isCallee(out[open-1]) && out[open-1].kw != "over" && !isMarker(out[open-1]) {
				opens = append(opens, open)
				orders = append(orders, i)
			}
		}
	}
	for k := len(orders) - 1; k >= 0; k-- {
		open, i := opens[k], orders[k]
		close := matchClose(out, open)
		if close < 0 {
			return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
		}
		if i == open+1 {
			return nil, p.errOut(out, i, ErrSyntax, "expected an argument before ORDER BY")
		}
		end := close
		for j, depth := i+2, 0; j < close; j++ {
			switch {
			case isOpTok(out, j, "("):
				depth++
			case isOpTok(out, j, ")"):
				depth--
			case depth == 0 && isOpTok(out, j, ",") && j+1 < close && isMarker(out[j+1]):
				end = j
			}
			if end != close {
				break
			}
		}
		o := out[i].orig
		rep := []otok{invented(",", o), invented(argOrderMarker, o), invented("(", o)}
		for n, key := range splitCommas(out, i+2, end) {
			e, desc, nulls := orderKey(key)
			if len(e) == 0 {
				at := end
				if len(key) > 0 {
					at = i + 2 // only ASC/DESC or NULLS written
				}
				return nil, p.errOut(out, at, ErrSyntax, "expected an expression in ORDER BY")
			}
			if star := len(e) - 1; isOpTok(e, star, "*") && (star == 0 || star == 2 && isOpTok(e, 1, ".")) {
				return nil, p.errOut(out, i+2, ErrBinder, "STAR expression is only allowed as the root element of an expression. Use COLUMNS(*) instead.")
			}
			if n > 0 {
				rep = append(rep, invented(",", o))
			}
			rep = append(rep, invented(argKeyMarker, o), invented("(", o))
			rep = append(rep, e...)
			rep = append(rep, invented(",", o), number(desc, o), invented(",", o), number(int(nulls), o), invented(")", o))
		}
		rep = append(rep, invented(")", o))
		out = splice(out, i, end, rep...)
	}
	return out, nil
}

// orderKey splits one ORDER BY key into its expression, direction (1 for
// DESC, 2 for ASC, 0 when none was written) and NULLS clause.
func orderKey(key []otok) ([]otok, int, NullsOrder) {
	nulls, desc := NullsDefault, 0
	if n := len(key); n >= 2 && key[n-2].kw == "nulls" && (key[n-1].kw == "first" || key[n-1].kw == "last") {
		nulls = NullsLast
		if key[n-1].kw == "first" {
			nulls = NullsFirst
		}
		key = key[:n-2]
	}
	if n := len(key); n >= 1 && (key[n-1].kw == "asc" || key[n-1].kw == "desc") {
		desc = 2
		if key[n-1].kw == "desc" {
			desc = 1
		}
		key = key[:n-1]
	}
	return key, desc, nulls
}

func number(v, orig int) otok {
	s := strconv.Itoa(v)
	return otok{text: s, kind: tkNumber, val: s, orig: orig}
}

// isMarker reports whether o is a word the lowering invented.
func isMarker(o otok) bool {
	return o.kw == "" && o.kind == tkWord && len(o.text) > len(reservedPrefix) && o.text[:len(reservedPrefix)] == reservedPrefix
}

// fixArgOrder takes the __pqsql_aorder marker, the last argument of call
// n, into sel's argument orders; walk visits the keys taken out of the
// call.
func fixArgOrder(sel *parsed, n *sqlparser.FuncExpr, walk func(sqlparser.Expr) error) (bool, error) {
	k := len(n.Exprs) - 1
	if k < 0 {
		return true, nil
	}
	ae, ok := n.Exprs[k].(*sqlparser.AliasedExpr)
	f, isF := funcOf(ae, ok)
	if !isF || f.Name.Lowered() != argOrderMarker {
		return true, nil
	}
	var keys []rawArgOrder
	for _, se := range f.Exprs {
		ka, ok := se.(*sqlparser.AliasedExpr)
		kf, isF := funcOf(ka, ok)
		if !isF || kf.Name.Lowered() != argKeyMarker || len(kf.Exprs) != 3 {
			return false, nil
		}
		var parts [3]sqlparser.Expr
		for j, x := range kf.Exprs {
			xa, ok := x.(*sqlparser.AliasedExpr)
			if !ok {
				return false, nil
			}
			parts[j] = xa.Expr
		}
		desc, ok1 := parts[1].(*sqlparser.SQLVal)
		nulls, ok2 := parts[2].(*sqlparser.SQLVal)
		if !ok1 || !ok2 {
			return false, nil
		}
		nv, _ := strconv.Atoi(string(nulls.Val))
		keys = append(keys, rawArgOrder{Expr: parts[0], Desc: string(desc.Val) == "1", Asc: string(desc.Val) == "2", Nulls: NullsOrder(nv)})
		if err := walk(parts[0]); err != nil {
			return false, err
		}
	}
	n.Exprs = n.Exprs[:k]
	if sel.argOrders == nil {
		sel.argOrders = map[*sqlparser.FuncExpr][]rawArgOrder{}
	}
	sel.argOrders[n] = keys
	return true, nil
}
