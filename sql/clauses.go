package sql

import "strings"

// Markers of the clause lowerings below; fixAST removes every one of them.
const (
	filterMarker   = reservedPrefix + "filter"
	unnamedMarker  = reservedPrefix + "unnamed_subquery"
	setOpMarkerPre = "/* " + reservedPrefix + "setop "
)

// Set-operation types written into sqlparser.Union.Type, next to sqlparser's
// own "union", "union all" and "union distinct".
const (
	// IntersectStr is the Union.Type of INTERSECT (and INTERSECT DISTINCT).
	IntersectStr = "intersect"
	// IntersectAllStr is the Union.Type of INTERSECT ALL.
	IntersectAllStr = "intersect all"
	// ExceptStr is the Union.Type of EXCEPT (and EXCEPT DISTINCT).
	ExceptStr = "except"
	// ExceptAllStr is the Union.Type of EXCEPT ALL.
	ExceptAllStr = "except all"
	// UnionByNameStr is the Union.Type of UNION [DISTINCT] BY NAME.
	UnionByNameStr = "union by name"
	// UnionAllByNameStr is the Union.Type of UNION ALL BY NAME.
	UnionAllByNameStr = "union all by name"
)

// lowerFilter moves "agg(args) FILTER (WHERE cond)" (WHERE may be left
// out, as DuckDB allows) into a last argument __pqsql_filter(cond), which
// sqlparser parses as part of the call; fixAST takes it out again and
// records the condition in Select.Filters.
func (p *parser) lowerFilter(out []otok) ([]otok, error) {
	// The output is built in one pass: the call a FILTER follows is
	// already in res, the condition is read ahead in out.
	res := make([]otok, 0, len(out))
	for i := 0; i < len(out); i++ {
		if out[i].kw != "filter" || !isOpTok(out, i+1, "(") || !isOpTok(out, i-1, ")") {
			res = append(res, out[i])
			continue
		}
		closeCall := len(res) - 1
		open := matchOpen(res, closeCall)
		if open < 1 || !isCallee(res[open-1]) || res[open-1].kw == "" && res[open-1].kind != tkQIdent {
			return nil, p.errOut(out, i, ErrSyntax, "FILTER must follow an aggregate function call")
		}
		if prev := closeCall - 1; prev > open && isOpTok(res, prev, ")") {
			if o := matchOpen(res, prev); o > 0 && res[o-1].text == filterMarker {
				return nil, p.errOut(out, i, ErrSyntax, "a function call takes one FILTER clause")
			}
		}
		end := matchClose(out, i+1)
		if end < 0 {
			return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
		}
		lo := i + 2
		if out[lo].kw == "where" {
			lo++
		}
		if lo >= end {
			return nil, p.errOut(out, end, ErrSyntax, "expected a condition")
		}
		// A FILTER nested in the condition is lowered too (and rejected
		// later as a nested aggregate).
		cond, err := p.lowerFilter(out[lo:end])
		if err != nil {
			return nil, err
		}
		call := res[closeCall]
		res = res[:closeCall]
		if open+1 < closeCall {
			res = append(res, invented(",", out[i].orig))
		}
		res = append(res, invented(filterMarker, out[i].orig), invented("(", out[i+1].orig))
		res = append(res, cond...)
		res = append(res, invented(")", out[end].orig), call)
		i = end
	}
	return res, nil
}

// lowerSubstr makes substr and substring ordinary function calls: sqlparser
// knows them as keywords that want a column name first, where DuckDB takes
// any expression. substring(s FROM a FOR b) becomes substring(s, a, b) and
// substring(s FOR b) becomes substring(s, 1, b), as in DuckDB.
func lowerSubstr(out []otok) []otok {
	for i := 0; i+1 < len(out); i++ {
		k := out[i].kw
		if k != "substr" && k != "substring" || !isOpTok(out, i+1, "(") || isOpTok(out, i-1, ".") {
			continue
		}
		out[i].text = backquote(out[i].val)
		end := matchClose(out, i+1)
		if end < 0 {
			continue
		}
		depth, sawFrom := 0, false
		for j := i + 1; j < end; j++ {
			switch {
			case isOpTok(out, j, "("):
				depth++
			case isOpTok(out, j, ")"):
				depth--
			case depth == 1 && out[j].kw == "from":
				out[j] = invented(",", out[j].orig)
				sawFrom = true
			case depth == 1 && out[j].kw == "for":
				if sawFrom {
					out[j] = invented(",", out[j].orig)
					continue
				}
				one := otok{text: "1", kind: tkNumber, val: "1", orig: out[j].orig}
				out = splice(out, j, j+1, invented(",", out[j].orig), one, invented(",", out[j].orig))
				end += 2
				j += 2
			}
		}
	}
	return out
}

// lowerLimits rewrites DuckDB's LIMIT forms onto sqlparser's LIMIT n
// [OFFSET m], at every nesting level: LIMIT ALL is LIMIT NULL (DuckDB's own
// "no limit"), a lone OFFSET m gets LIMIT NULL before it, and OFFSET m
// LIMIT n is swapped.
func lowerLimits(out []otok) []otok {
	// closes[i] is the index of the ")" closing the "(" at i, or -1; found
	// in one pass, so the walk below is linear in the tokens.
	closes := make([]int, len(out))
	var open []int
	for i := range out {
		closes[i] = -1
		switch {
		case isOpTok(out, i, "("):
			open = append(open, i)
		case isOpTok(out, i, ")") && len(open) > 0:
			closes[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	res := make([]otok, 0, len(out)+2)
	return lowerLimitLevel(out, closes, 0, len(out), res)
}

// lowerLimitLevel appends out[lo:hi], one nesting level, to res with its
// LIMIT and OFFSET lowered, and the levels inside it too.
func lowerLimitLevel(out []otok, closes []int, lo, hi int, res []otok) []otok {
	limit, offset := -1, -1 // positions in res at this level
	for i := lo; i < hi; i++ {
		if isOpTok(out, i, "(") {
			end := closes[i]
			if end < 0 || end >= hi {
				res = append(res, out[i:hi]...)
				break
			}
			res = append(res, out[i])
			res = lowerLimitLevel(out, closes, i+1, end, res)
			res = append(res, out[end])
			i = end
			continue
		}
		o := out[i]
		switch o.kw {
		case "limit":
			if limit < 0 {
				limit = len(res)
			}
			if kwAt(out, i+1) == "all" {
				res = append(res, o, otok{text: "null", kind: tkWord, val: "null", orig: out[i+1].orig})
				i++
				continue
			}
		case "offset":
			if offset < 0 {
				offset = len(res)
			}
		case "union", "except", "intersect":
			// LIMIT belongs to the last operand's level only when
			// parenthesized; at this level it ends the whole set operation.
			limit, offset = -1, -1
		}
		res = append(res, o)
	}
	switch {
	case offset < 0:
	case limit < 0:
		lim := invented("limit", res[offset].orig)
		lim.kw = "limit"
		null := otok{text: "null", kind: tkWord, val: "null", orig: res[offset].orig}
		res = splice(res, offset, offset, lim, null)
	case limit > offset:
		// OFFSET m LIMIT n: the LIMIT clause runs to the end of this level.
		moved := append([]otok{}, res[limit:]...)
		tail := append([]otok{}, res[offset:limit]...)
		res = append(append(res[:offset], moved...), tail...)
	}
	return res
}

// lowerSetOps writes INTERSECT and EXCEPT, which sqlparser lacks, as UNION
// [ALL] with a comment marker after the first SELECT of the right operand;
// fixAST turns the Union's Type back. INTERSECT binds tighter than UNION and
// EXCEPT in DuckDB, while sqlparser reads every chain left to right, so a
// chain that mixes them must be parenthesized.
func (p *parser) lowerSetOps(out []otok) ([]otok, error) {
	type level struct{ intersect, other int } // first operator of each kind, or -1
	stack := []level{{-1, -1}}
	for i := 0; i < len(out); i++ {
		top := &stack[len(stack)-1]
		switch k := out[i].kw; {
		case isOpTok(out, i, "("):
			stack = append(stack, level{-1, -1})
		case isOpTok(out, i, ")"):
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case k == "union" || k == "except" || k == "intersect":
			n := 1
			if q := kwAt(out, i+1); q == "all" || q == "distinct" {
				n = 2
			}
			byName := kwAt(out, i+n) == "by"
			if byName && (k != "union" || kwAt(out, i+n+1) != "name") {
				// DuckDB's grammar has BY NAME after UNION only.
				return nil, p.errOut(out, i+n, ErrSyntax, `syntax error at or near "`+out[i+n].val+`"`)
			}
			if k == "intersect" {
				if top.intersect < 0 {
					top.intersect = i
				}
			} else if top.other < 0 {
				top.other = i
			}
			if top.intersect >= 0 && top.other >= 0 {
				return nil, p.errOut(out, max(top.intersect, top.other), ErrUnsupported,
					"INTERSECT mixed with UNION or EXCEPT needs parentheses")
			}
			if k == "union" && !byName {
				continue
			}
			typ := ExceptStr
			switch {
			case k == "intersect":
				typ = IntersectStr
			case byName:
				typ = "union"
			}
			rep := []otok{invented("union", out[i].orig)}
			rep[0].kw = "union"
			if n == 2 {
				rep = append(rep, out[i+1])
				if kwAt(out, i+1) == "all" {
					typ += " all"
				}
			}
			if byName {
				typ += " by name"
				n += 2
			}
			// The marker goes after the first SELECT of the right operand.
			j := i + n
			for isOpTok(out, j, "(") {
				j++
			}
			if kwAt(out, j) != "select" {
				continue // sqlparser reports what is wrong there
			}
			marker := invented(setOpMarkerPre+strings.ReplaceAll(typ, " ", "_")+" */", out[i].orig)
			out = splice(out, i, i+n, rep...)
			j += len(rep) - n
			out = splice(out, j+1, j+1, marker)
		}
	}
	return out, nil
}

// hasAlias reports whether the FROM subquery ending with ")" at end is
// followed by an alias.
func hasAlias(out []otok, end int) bool {
	if end+1 >= len(out) {
		return false
	}
	o := out[end+1]
	return o.kind == tkQIdent || o.kw == "as" || o.kind == tkWord && o.kw != "" && !structural[o.kw]
}
