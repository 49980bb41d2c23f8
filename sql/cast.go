package sql

import (
	"strconv"
	"strings"
)

// lowerCasts rewrites CAST(x AS type), typed literals (DATE '...') and
// x::type into CAST(x AS CHAR(n) __pqsql_type), which sqlparser accepts for
// any type; n indexes p.casts, from which fixAST restores the DuckDB type.
func (p *parser) lowerCasts(out []otok) ([]otok, error) {
	// Each pass collects its rewrites and applies them at once: splicing
	// each in place would copy the statement once per cast.
	//
	// CAST(expr AS type): the type is everything after the last top-level AS.
	out = lowerTryCast(out)
	var rs []rewrite
	for i := 0; i < len(out); i++ {
		if out[i].kw != "cast" && !(out[i].kw == "" && out[i].text == "cast") || !isOpTok(out, i+1, "(") {
			continue
		}
		closing := matchClose(out, i+1)
		if closing < 0 {
			continue // sqlparser reports the missing ")"
		}
		as, depth := -1, 0
		for j := i + 1; j < closing; j++ {
			switch {
			case isOpTok(out, j, "("):
				depth++
			case isOpTok(out, j, ")"):
				depth--
			case depth == 1 && out[j].kw == "as":
				as = j
			}
		}
		if as < 0 {
			return nil, p.errOut(out, closing, ErrSyntax, "expected AS")
		}
		ct, end, err := p.parseType(out, as+1)
		if err != nil {
			return nil, err
		}
		if end != closing {
			return nil, p.errOut(out, end, ErrSyntax, `expected ")"`)
		}
		rs = append(rs, rewrite{as + 1, closing, p.castMarker(ct, out[as+1].orig)})
	}
	out = applyRewrites(out, rs)
	rs = rs[:0]
	// Typed literals: DATE '2024-01-01' is DuckDB's CAST('2024-01-01' AS DATE).
	// sqlparser would silently read it as the column "date" aliased.
	for i := 0; i+1 < len(out); i++ {
		k := out[i].kw
		if k != "date" && k != "time" && k != "timestamp" && k != "timestamptz" && k != "interval" {
			continue
		}
		if out[i+1].kind != tkString || isOpTok(out, i-1, ".") {
			continue
		}
		if k == "interval" && i+2 < len(out) && intervalUnits[out[i+2].kw] {
			if i+4 < len(out) && out[i+3].kw == "to" && intervalUnits[out[i+4].kw] {
				// DuckDB's grammar reads SQL's ranged intervals and refuses them.
				return nil, p.errOut(out, i+3, ErrSyntax, strings.ToUpper(out[i+2].kw)+" TO "+strings.ToUpper(out[i+4].kw)+" is not supported")
			}
			continue // INTERVAL '1' DAY is sqlparser's own IntervalExpr
		}
		ct := castType{name: typeNames[k]}
		ct.display = typeDisplay(ct.name, k, nil)
		rep := []otok{invented("cast", out[i].orig), invented("(", out[i].orig), out[i+1], invented("as", out[i].orig)}
		rep = append(rep, p.castMarker(ct, out[i].orig)...)
		rep = append(rep, invented(")", out[i].orig))
		rs = append(rs, rewrite{i, i + 2, rep})
		i++
	}
	out = applyRewrites(out, rs)
	// x::type binds tighter than any other operator, so its operand is the
	// primary expression just before "::".
	// The operand is looked for in res, the output so far, where the casts
	// to its left are already rewritten (x::INTEGER::VARCHAR).
	res := make([]otok, 0, len(out))
	for i := 0; i < len(out); i++ {
		if !isOpTok(out, i, "::") {
			res = append(res, out[i])
			continue
		}
		start := primaryStart(res, len(res)-1)
		if start < 0 {
			return nil, p.errOut(out, i, ErrSyntax, "expected an expression before ::")
		}
		ct, end, err := p.parseType(out, i+1)
		if err != nil {
			return nil, err
		}
		orig := out[i].orig
		rep := []otok{invented("cast", res[start].orig), invented("(", res[start].orig)}
		rep = append(rep, res[start:]...)
		rep = append(rep, invented("as", orig))
		rep = append(rep, p.castMarker(ct, orig)...)
		rep = append(rep, invented(")", orig))
		res = append(res[:start], rep...)
		i = end - 1
	}
	return res, nil
}

// intervalUnits are the units DuckDB's INTERVAL <value> <unit> accepts.
var intervalUnits = map[string]bool{
	"year": true, "quarter": true, "month": true, "week": true, "day": true, "hour": true,
	"minute": true, "second": true, "microsecond": true, "millisecond": true,
	"decade": true, "century": true, "millennium": true,
	"years": true, "quarters": true, "months": true, "weeks": true, "days": true, "hours": true,
	"minutes": true, "seconds": true, "microseconds": true, "milliseconds": true,
	"decades": true, "centuries": true, "millennia": true,
}

// castMarker returns the tokens "CHAR ( n ) __pqsql_type" recording ct.
func (p *parser) castMarker(ct castType, orig int) []otok {
	n := strconv.Itoa(len(p.casts))
	p.casts = append(p.casts, ct)
	return []otok{
		invented("char", orig), invented("(", orig), invented(n, orig), invented(")", orig),
		invented(castMarker, orig),
	}
}

// primaryStart returns where the primary expression ending at token i
// starts: a (qualified) name, a literal, a parenthesized expression, a
// function call or CASE ... END. It returns -1 if token i ends none.
func primaryStart(out []otok, i int) int {
	if i < 0 {
		return -1
	}
	o := out[i]
	switch {
	case isOpTok(out, i, ")"):
		j := matchOpen(out, i)
		if j < 0 {
			return -1
		}
		if j > 0 && isCallee(out[j-1]) {
			return nameStart(out, j-1)
		}
		return j
	case o.kw == "end":
		depth := 0
		for j := i; j >= 0; j-- {
			switch out[j].kw {
			case "end":
				depth++
			case "case":
				depth--
				if depth == 0 {
					return j
				}
			}
		}
		return -1
	case o.kind == tkWord && o.kw != "" && !structural[o.kw], o.kind == tkQIdent:
		return nameStart(out, i)
	case o.kind == tkString, o.kind == tkNumber:
		return i
	}
	return -1
}

// isCallee reports whether o, just before "(", names a function: a word of
// the input that is no keyword, a quoted name, or a CAST the lowering made.
func isCallee(o otok) bool {
	return o.kind == tkQIdent || o.kind == tkWord && (o.kw != "" && !structural[o.kw] || o.kw == "" && o.text == "cast")
}

// nameStart extends the name at i to the left over "a.b.c" qualification.
func nameStart(out []otok, i int) int {
	for i >= 2 && isOpTok(out, i-1, ".") && (out[i-2].kind == tkWord || out[i-2].kind == tkQIdent) {
		i -= 2
	}
	return i
}

// parseType reads a DuckDB type name starting at token i and returns it with
// the index after it.
func (p *parser) parseType(out []otok, i int) (castType, int, error) {
	if i >= len(out) || out[i].kind != tkWord || out[i].kw == "" || structural[out[i].kw] {
		return castType{}, 0, p.errOut(out, i, ErrSyntax, "expected a type name")
	}
	var ct castType
	end := i + 1
	found := false
	spelling := out[i].kw
	var params []string
	for _, words := range multiWordTypes {
		if i+len(words) > len(out) {
			continue
		}
		match := true
		for k, w := range words {
			if out[i+k].kw != w {
				match = false
				break
			}
		}
		if match {
			spelling = strings.Join(words, " ")
			ct.name, end, found = typeNames[spelling], i+len(words), true
			break
		}
	}
	if !found {
		name, ok := typeNames[out[i].kw]
		if !ok {
			return castType{}, 0, p.errOut(out, i, ErrUnsupported, "unknown or unsupported type")
		}
		ct.name = name
	}
	if isOpTok(out, end, "(") {
		j := end + 1
		for {
			if j >= len(out) || out[j].kind != tkNumber || strings.ContainsAny(out[j].val, ".eE") {
				return castType{}, 0, p.errOut(out, j, ErrSyntax, "expected an integer type parameter")
			}
			params = append(params, out[j].val)
			j++
			if isOpTok(out, j, ",") && len(params) < 2 {
				j++
				continue
			}
			if !isOpTok(out, j, ")") {
				return castType{}, 0, p.errOut(out, j, ErrSyntax, `expected ")"`)
			}
			break
		}
		switch {
		case ct.name == TypeDecimal:
			ct.width = params[0]
			if len(params) == 2 {
				ct.scale = params[1]
			}
		case ct.name == TypeVarchar && len(params) == 1:
			// DuckDB accepts and ignores VARCHAR(n).
		default:
			return castType{}, 0, p.errOut(out, end, ErrSyntax, "type "+ct.name+" takes no parameters here")
		}
		end = j + 1
	}
	if ct.name == TypeDecimal {
		// DuckDB's defaults: DECIMAL is DECIMAL(18,3), DECIMAL(p) is DECIMAL(p,0).
		if ct.width == "" {
			ct.width, ct.scale = "18", "3"
		} else if ct.scale == "" {
			ct.scale = "0"
		}
		w, werr := strconv.Atoi(ct.width)
		s, serr := strconv.Atoi(ct.scale)
		if werr != nil || serr != nil || w < 1 || w > maxDecimalWidth || s > w {
			return castType{}, 0, p.errOut(out, i, ErrSyntax, "DECIMAL width must be 1 to 38 and scale at most the width")
		}
	}
	ct.display = typeDisplay(ct.name, spelling, params)
	// T[] is a LIST of T; a DECIMAL element keeps its parameters in the name.
	for isOpTok(out, end, "[") {
		if !isOpTok(out, end+1, "]") {
			return castType{}, 0, p.errOut(out, end, ErrUnsupported, "fixed-size array types are not supported")
		}
		if ct.name == TypeDecimal && ct.width != "" {
			ct.name = TypeDecimal + "(" + ct.width + "," + ct.scale + ")"
			ct.width, ct.scale = "", ""
		}
		ct.name += "[]"
		ct.display += "[]"
		end += 2
	}
	return ct, end, nil
}

// lowerTryCast rewrites TRY_CAST(x AS T) into TryFunc(CAST(x AS T)), for
// the loop of lowerCasts to read as any CAST.
func lowerTryCast(out []otok) []otok {
	for i := 0; i < len(out); i++ {
		if out[i].kw != "try_cast" || !isOpTok(out, i+1, "(") {
			continue
		}
		closing := matchClose(out, i+1)
		if closing < 0 {
			continue
		}
		o := out[i].orig
		out = splice(out, closing, closing+1, out[closing], invented(")", out[closing].orig))
		out = splice(out, i, i+1, marker(tryFunc, o), invented("(", o), invented("cast", o))
	}
	return out
}
