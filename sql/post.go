package sql

import (
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// fixAST turns the markers of the lowering back into DuckDB meaning: cast
// types, ILIKE, ||, NULLS FIRST/LAST and source aliases. It also rejects the
// MySQL-only constructs sqlparser accepted.
func (p *parser) fixAST(sel *parsed, out []otok) error {
	found := map[string]bool{}
	var ferr error
	fail := func(kw string, kind error, msg string) (bool, error) {
		ferr = p.errOut(out, findKw(out, kw), kind, msg)
		return false, ferr
	}
	bitOr, berr := p.bitwiseOr(out)
	if berr != nil {
		return berr
	}
	var visit sqlparser.Visit
	visit = func(node sqlparser.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *sqlparser.Union:
			if n.Lock != "" {
				return fail("for", ErrUnsupported, "locking clauses are not supported")
			}
			// INTERSECT and EXCEPT left a marker on the right operand.
			if first := leftmostSelect(n.Right); first != nil && len(first.Comments) == 1 {
				c := string(first.Comments[0])
				if !strings.HasPrefix(c, setOpMarkerPre) || !strings.HasSuffix(c, " */") {
					return fail("", ErrInternal, "unexpected comment in the query")
				}
				n.Type = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(c, setOpMarkerPre), " */"), "_", " ")
				first.Comments = nil
			}
			// sqlparser's Walk skips a Union's ORDER BY and LIMIT.
			if err := sqlparser.Walk(visit, n.OrderBy, n.Limit); err != nil {
				return false, err
			}
		case *sqlparser.Select:
			if n.Lock != "" {
				return fail("for", ErrUnsupported, "locking clauses are not supported")
			}
			if n.Cache != "" || n.Hints != "" {
				return fail("select", ErrUnsupported, "MySQL select options are not supported")
			}
			if len(n.Comments) > 0 {
				return fail("", ErrInternal, "set operation marker left in the query")
			}
			fixPercent(sel, n)
			if !fixGroupingSets(sel, n) {
				return fail("group", ErrInternal, "grouping sets marker out of shape")
			}
			if err := fixDistinctOn(sel, n, func(e sqlparser.Expr) error { return sqlparser.Walk(visit, e) }); err != nil {
				if ferr != nil {
					return false, ferr
				}
				return fail("distinct", ErrInternal, err.Error())
			}
			if !fixStar(sel, n, func(e sqlparser.Expr) error { return sqlparser.Walk(visit, e) }) {
				if ferr != nil {
					return false, ferr
				}
				return fail("exclude", ErrSyntax, "expected column names in EXCLUDE and expressions with AS in REPLACE")
			}
			if k := len(n.SelectExprs) - 1; k >= 0 {
				ae, ok := n.SelectExprs[k].(*sqlparser.AliasedExpr)
				if f, isF := funcOf(ae, ok); isF && f.Name.Lowered() == qualifyMarker && len(f.Exprs) == 1 {
					cond, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
					if !ok {
						return fail("qualify", ErrSyntax, "expected a condition in QUALIFY")
					}
					n.SelectExprs = n.SelectExprs[:k]
					if sel.Qualify == nil {
						sel.Qualify = map[*sqlparser.Select]sqlparser.Expr{}
					}
					sel.Qualify[n] = cond.Expr
					if err := sqlparser.Walk(visit, cond.Expr); err != nil {
						return false, err
					}
				}
			}
			if k := len(n.SelectExprs) - 1; k >= 0 {
				ae, ok := n.SelectExprs[k].(*sqlparser.AliasedExpr)
				if f, isF := funcOf(ae, ok); isF && f.Name.Lowered() == sampleMarker {
					if !p.takeSample(sel, n, f) {
						return fail("sample", ErrInternal, "sample marker without its clause")
					}
					n.SelectExprs = n.SelectExprs[:k]
				}
			}
		case *sqlparser.Order:
			if f, ok := n.Expr.(*sqlparser.FuncExpr); ok && f.Qualifier.IsEmpty() && len(f.Exprs) == 1 {
				marker := f.Name.Lowered()
				if marker == nullsFirstMarker || marker == nullsLastMarker {
					ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
					if !ok {
						return fail("nulls", ErrSyntax, "expected an expression before NULLS")
					}
					n.Expr = ae.Expr
					sel.Nulls[n] = NullsLast
					if marker == nullsFirstMarker {
						sel.Nulls[n] = NullsFirst
					}
				}
			}
		case *sqlparser.FuncExpr:
			if n.Name.Lowered() == "columns" && !fixStarList(sel, &n.Exprs, func(e sqlparser.Expr) error { return sqlparser.Walk(visit, e) }) {
				if ferr != nil {
					return false, ferr
				}
				return fail("exclude", ErrSyntax, "expected column names in EXCLUDE and expressions with AS in REPLACE")
			}
			// An Order unwraps its marker before its children are walked, so
			// a marker seen here sits where NULLS cannot go.
			switch name := n.Name.Lowered(); {
			case name == filterMarker:
				return fail("filter", ErrInternal, "FILTER marker outside a function call")
			case nestedFuncs[name], strings.HasPrefix(name, TableSeriesPrefix):
			case strings.HasPrefix(name, reservedPrefix):
				return fail("nulls", ErrSyntax, "NULLS FIRST/LAST is only allowed after an ORDER BY item")
			}
			if k := len(n.Exprs) - 1; k >= 0 {
				ae, ok := n.Exprs[k].(*sqlparser.AliasedExpr)
				if f, isF := funcOf(ae, ok); isF && f.Name.Lowered() == overMarker {
					walk := func(e sqlparser.Expr) error { return sqlparser.Walk(visit, e) }
					if err := p.fixWindow(sel, n, f, walk); err != nil {
						if ferr != nil {
							return false, ferr
						}
						return fail("over", ErrInternal, err.Error())
					}
				}
			}
			if k := len(n.Exprs) - 1; k >= 0 {
				ae, ok := n.Exprs[k].(*sqlparser.AliasedExpr)
				if f, isF := funcOf(ae, ok); isF && f.Name.Lowered() == filterMarker {
					if len(f.Exprs) != 1 || f.Distinct {
						return fail("filter", ErrSyntax, "expected one condition in FILTER")
					}
					cond, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
					if !ok {
						return fail("filter", ErrSyntax, "expected a condition in FILTER")
					}
					n.Exprs = n.Exprs[:k]
					if sel.Filters == nil {
						sel.Filters = map[*sqlparser.FuncExpr]sqlparser.Expr{}
					}
					sel.Filters[n] = cond.Expr
					// The condition is no longer under the call: walk it here.
					if err := sqlparser.Walk(visit, cond.Expr); err != nil {
						return false, err
					}
				}
			}
			fixIgnoreNulls(sel, n)
			if ok, err := fixArgOrder(sel, n, func(e sqlparser.Expr) error { return sqlparser.Walk(visit, e) }); !ok {
				if ferr != nil {
					return false, ferr
				}
				if err == nil {
					return fail("order", ErrInternal, "ORDER BY marker out of shape")
				}
				return false, err
			}
		case *sqlparser.ConvertExpr:
			if n.Type == nil || n.Type.Charset != castMarker || n.Type.Length == nil {
				break
			}
			k, err := strconv.Atoi(string(n.Type.Length.Val))
			if err != nil || k < 0 || k >= len(p.casts) {
				return fail("cast", ErrInternal, "cast marker out of range")
			}
			ct := p.casts[k]
			n.Type = &sqlparser.ConvertType{Type: ct.name}
			if sel.castText == nil {
				sel.castText = map[*sqlparser.ConvertExpr]string{}
			}
			sel.castText[n] = ct.display
			if ct.name == TypeDecimal {
				n.Type.Length = sqlparser.NewIntVal([]byte(ct.width))
				n.Type.Scale = sqlparser.NewIntVal([]byte(ct.scale))
			}
		case *sqlparser.ComparisonExpr:
			fixDistinctFrom(n)
			fixQuantified(n)
			switch n.Operator {
			case sqlparser.RegexpStr:
				n.Operator = ILikeStr
			case sqlparser.NotRegexpStr:
				n.Operator = NotILikeStr
			}
		case *sqlparser.BinaryExpr:
			fixOpLevel(n, sel.pos)
			if n.Operator == sqlparser.BitOrStr && !bitOr {
				n.Operator = ConcatStr
			}
		case *sqlparser.JoinTableExpr:
			fixFullUsing(n)
			fixNaturalFull(n)
		case *sqlparser.AliasedTableExpr:
			if _, ok := n.Expr.(*sqlparser.Subquery); ok && n.As.String() == unnamedMarker {
				n.As = sqlparser.NewTableIdent("")
			}
			if !p.fixSubqueryColumns(sel, n) {
				return fail("", ErrInternal, "subquery column list marker out of range")
			}
			t, ok := n.Expr.(sqlparser.TableName)
			if !ok || !t.Qualifier.IsEmpty() {
				break
			}
			src := sel.Sources[t.Name.String()]
			if src == nil {
				break
			}
			if n.Partitions != nil || n.Hints != nil {
				return fail("", ErrUnsupported, "MySQL partition and index hints are not supported")
			}
			src.Alias = n.As.String()
			found[src.Placeholder] = true
		}
		return true, nil
	}
	err := sqlparser.Walk(visit, sel.AST)
	if ferr != nil {
		return ferr
	}
	if err != nil {
		return p.errOut(out, 0, ErrInternal, err.Error())
	}
	for _, src := range sel.Sources {
		if !found[src.Placeholder] {
			// The lowering took something for a source that sqlparser did not
			// read as a table: a bug here, reported where the source was.
			return &Error{Line: src.Pos.Line, Column: src.Pos.Column, Offset: src.Pos.Offset,
				Token: shorten(src.Text, 40), Msg: "source not found in the parsed query", Err: ErrInternal}
		}
	}
	return nil
}

// funcOf returns the function call an aliased select expression holds.
func funcOf(ae *sqlparser.AliasedExpr, ok bool) (*sqlparser.FuncExpr, bool) {
	if !ok || !ae.As.IsEmpty() {
		return nil, false
	}
	f, ok := ae.Expr.(*sqlparser.FuncExpr)
	return f, ok && f.Qualifier.IsEmpty()
}

// leftmostSelect returns the first SELECT of a query: the one right after a
// set operator, where lowerSetOps puts its marker.
func leftmostSelect(s sqlparser.SelectStatement) *sqlparser.Select {
	for {
		switch n := s.(type) {
		case *sqlparser.Select:
			return n
		case *sqlparser.ParenSelect:
			s = n.Select
		case *sqlparser.Union:
			s = n.Left
		default:
			return nil
		}
	}
}

// findKw returns the first lowered token with keyword kw, or 0.
func findKw(out []otok, kw string) int {
	for i, o := range out {
		if kw != "" && o.kw == kw {
			return i
		}
	}
	return 0
}
