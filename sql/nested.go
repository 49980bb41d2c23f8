package sql

import (
	"strings"
)

// Functions the lowering writes for DuckDB's nested-value syntax, which the
// MySQL grammar lacks. sqlparser reads them as plain FuncExprs; the
// conversion to the ast makes each its node (ast.Subscript, ast.Slice, ...).
const (
	// extractFunc is x[i]: a list element, a struct field, a map value, a
	// VARIANT member or a character of a string.
	extractFunc = reservedPrefix + "extract"
	// sliceFunc is x[a:b]; a bound left out is the column sliceOpen.
	sliceFunc = reservedPrefix + "slice"
	// sliceOpen stands for a slice bound that was left out (x[:b], x[a:]).
	sliceOpen = reservedPrefix + "open"
	// structFunc is {'k': v, ...}, {k: v} and struct_pack(k := v, ...):
	// alternating field names (string literals) and values.
	structFunc = reservedPrefix + "struct"
	// mapFunc is MAP {k: v, ...}: alternating keys and values.
	mapFunc = reservedPrefix + "map"
	// lambdaFunc is x -> body, (x, y) -> body and lambda x, y: body: the
	// parameters as column names, then the body.
	lambdaFunc = reservedPrefix + "lambda"
	// tryFunc is TRY_CAST(x AS T): tryFunc(CAST(x AS T)), NULL where the
	// cast fails.
	tryFunc = reservedPrefix + "try"
	// bboxMarker wraps the right operand of a && b (see BBoxOverlapStr).
	bboxMarker = reservedPrefix + "bbox_overlap"
	// The markers of GLOB and [NOT] SIMILAR TO, likewise.
	globMarker       = reservedPrefix + "glob"
	similarMarker    = reservedPrefix + "similar_to"
	notSimilarMarker = reservedPrefix + "not_similar_to"
)

// The ComparisonExpr Operators of GLOB and SIMILAR TO.
const (
	GlobStr         = "glob"
	SimilarToStr    = "similar to"
	NotSimilarToStr = "not similar to"
)

// BBoxOverlapStr is the ComparisonExpr Operator of DuckDB's a && b: the
// bounding boxes of two geometries intersect.
const BBoxOverlapStr = "&&"

// nestedFuncs are the lowering's functions that stay in the AST.
var nestedFuncs = map[string]bool{extractFunc: true, sliceFunc: true, structFunc: true, mapFunc: true, lambdaFunc: true, tryFunc: true}

// isNestedFunc reports whether name is one of the functions the lowering
// writes for nested-value syntax.
func isNestedFunc(name string) bool { return nestedFuncs[strings.ToLower(name)] }

// marker is an invented function name of the lowering, callable like a
// word of the input so primaryStart sees "marker ( ... )" as one primary.
func marker(name string, orig int) otok {
	return otok{text: name, kind: tkWord, kw: name, val: name, orig: orig}
}

// lowerNested rewrites subscripts, slices, list, struct and map literals,
// struct_pack's named arguments, lambdas and && into function calls. It
// runs after lowerSources, so read_parquet(['a', 'b']) is already taken.
func (p *parser) lowerNested(out []otok) ([]otok, error) {
	res := make([]otok, 0, len(out))
	for i := 0; i < len(out); i++ {
		o := out[i]
		switch {
		case isOpTok(out, i, "["):
			end := matchPair(out, i, "[", "]")
			if end < 0 {
				return nil, p.errOut(out, i, ErrSyntax, `expected "]"`)
			}
			inner, err := p.lowerNested(out[i+1 : end])
			if err != nil {
				return nil, err
			}
			var rep []otok
			if res, rep, err = p.bracket(res, out, i, end, inner); err != nil {
				return nil, err
			}
			res = append(res, rep...)
			i = end
		case isOpTok(out, i, "{"):
			end := matchPair(out, i, "{", "}")
			if end < 0 {
				return nil, p.errOut(out, i, ErrSyntax, `expected "}"`)
			}
			fn := structFunc
			if len(res) > 0 && res[len(res)-1].kw == "map" {
				fn = mapFunc
				res = res[:len(res)-1]
			}
			rep, err := p.entries(out, i, end, fn)
			if err != nil {
				return nil, err
			}
			res = append(res, rep...)
			i = end
		case o.kw == "struct_pack" && isOpTok(out, i+1, "(") && !isOpTok(out, i-1, "."):
			end := matchClose(out, i+1)
			if end < 0 {
				return nil, p.errOut(out, i+1, ErrSyntax, `expected ")"`)
			}
			rep, err := p.entries(out, i+1, end, structFunc)
			if err != nil {
				return nil, err
			}
			res = append(res, rep...)
			i = end
		case isOpTok(out, i, "->") || o.kw == "lambda" && i+1 < len(out) && out[i+1].kind == tkWord:
			rep, start, next, err := p.lambda(res, out, i)
			if err != nil {
				return nil, err
			}
			res = append(res[:start], rep...)
			i = next - 1
		case isOpTok(out, i, ".") && len(res) > 0 && isOpTok(res, len(res)-1, ")") && i+1 < len(out) &&
			(out[i+1].kind == tkWord || out[i+1].kind == tkQIdent):
			// (expr).field and x[1].field: a struct field of a value.
			start := primaryStart(res, len(res)-1)
			if start < 0 {
				res = append(res, o)
				continue
			}
			f := out[i+1]
			rep := []otok{marker(extractFunc, o.orig), invented("(", o.orig)}
			rep = append(rep, res[start:]...)
			rep = append(rep, invented(",", o.orig), otok{text: mysqlString(f.val), kind: tkString, val: f.val, orig: f.orig}, invented(")", o.orig))
			res = append(res[:start], rep...)
			i++
		default:
			res = append(res, o)
		}
	}
	return p.lowerBBox(res)
}

// bracket lowers the [...] at out[i:end+1], whose lowered inside is inner:
// a subscript or slice of the primary expression ending res, or a list
// literal. It returns res without the operand and the tokens to append.
func (p *parser) bracket(res, out []otok, i, end int, inner []otok) ([]otok, []otok, error) {
	o := out[i]
	prev := len(res) - 1
	postfix := prev >= 0 && (isOpTok(res, prev, ")") || res[prev].kind == tkQIdent || res[prev].kind == tkString ||
		res[prev].kind == tkWord && res[prev].kw != "" && !structural[res[prev].kw] && res[prev].kw != "array")
	if !postfix && len(inner) == 0 && isOpTok(res, prev, "]") {
		return res, []otok{o, out[end]}, nil // INTEGER[][]
	}
	if !postfix {
		if prev >= 0 && res[prev].kw == "array" {
			res = res[:prev] // ARRAY[1, 2] is [1, 2]
		}
		if cs := topLevel(inner, ":"); len(cs) > 0 {
			return nil, nil, p.errOut(inner, cs[0], ErrSyntax, `unexpected ":" in a list`)
		}
		rep := []otok{marker("list_value", o.orig), invented("(", o.orig)}
		rep = append(rep, inner...)
		return res, append(rep, invented(")", out[end].orig)), nil
	}
	if len(inner) == 0 {
		if res[prev].kind == tkWord {
			// INTEGER[] in a cast: left for the type parser.
			return res, []otok{o, out[end]}, nil
		}
		return nil, nil, p.errOut(out, end, ErrSyntax, "expected an index")
	}
	start := primaryStart(res, prev)
	if start < 0 {
		return nil, nil, p.errOut(out, i, ErrSyntax, "expected an expression before [")
	}
	if isOpTok(res, start-1, "::") || kwAt(res, start-1) == "as" {
		return nil, nil, p.errOut(out, i, ErrUnsupported, "fixed-size array types are not supported")
	}
	operand := append([]otok(nil), res[start:]...)
	res = res[:start]
	colons := topLevel(inner, ":")
	var rep []otok
	switch len(colons) {
	case 0:
		rep = []otok{marker(extractFunc, o.orig), invented("(", o.orig)}
		rep = append(rep, operand...)
		rep = append(rep, invented(",", o.orig))
		rep = append(rep, inner...)
	case 1, 2:
		parts := [][]otok{inner[:colons[0]], inner[colons[0]+1:]}
		if len(colons) == 2 {
			// x[a:b:step]; the step is never left out.
			parts = [][]otok{inner[:colons[0]], inner[colons[0]+1 : colons[1]], inner[colons[1]+1:]}
			if len(parts[2]) == 0 {
				return nil, nil, p.errOut(inner, colons[1], ErrSyntax, "expected a slice step after the second \":\"")
			}
		}
		rep = []otok{marker(sliceFunc, o.orig), invented("(", o.orig)}
		rep = append(rep, operand...)
		for k, part := range parts {
			orig := o.orig
			if k > 0 {
				orig = out[end].orig
			}
			rep = append(rep, invented(",", orig))
			if len(part) == 0 {
				part = []otok{marker(sliceOpen, orig)}
			}
			rep = append(rep, part...)
		}
	default:
		return nil, nil, p.errOut(inner, colons[2], ErrSyntax, "a slice takes at most three parts: x[begin:end:step]")
	}
	return res, append(rep, invented(")", out[end].orig)), nil
}

// entries lowers the "key: value, ..." of a struct or map literal between
// out[open] and out[end] ({...} or struct_pack's parentheses, where the
// separator is :=) into fn(key, value, ...). A struct's keys are names,
// written bare, quoted or as strings.
func (p *parser) entries(out []otok, open, end int, fn string) ([]otok, error) {
	inner, err := p.lowerNested(out[open+1 : end])
	if err != nil {
		return nil, err
	}
	rep := []otok{marker(fn, out[open].orig), invented("(", out[open].orig)}
	sep := ":"
	if !isOpTok(out, open, "{") {
		sep = ":="
	}
	for _, item := range splitTop(inner, ",") {
		if len(item) == 0 {
			if len(inner) == 0 {
				break // {} and struct_pack()
			}
			return nil, p.errOut(out, end, ErrSyntax, "expected a key")
		}
		cs := topLevel(item, sep)
		if len(cs) == 0 {
			return nil, p.errOut(item, len(item)-1, ErrSyntax, `expected "`+sep+`"`)
		}
		key, val := item[:cs[0]], item[cs[0]+1:]
		if len(val) == 0 {
			return nil, p.errOut(item, cs[0], ErrSyntax, "expected a value")
		}
		if len(rep) > 2 {
			rep = append(rep, invented(",", item[0].orig))
		}
		if fn == structFunc {
			if len(key) != 1 || key[0].kind != tkWord && key[0].kind != tkQIdent && key[0].kind != tkString {
				return nil, p.errOut(item, 0, ErrSyntax, "expected a field name")
			}
			k := key[0]
			key = []otok{{text: mysqlString(k.val), kind: tkString, val: k.val, orig: k.orig}}
		} else if len(key) == 0 {
			return nil, p.errOut(item, cs[0], ErrSyntax, "expected a key")
		}
		rep = append(rep, key...)
		rep = append(rep, invented(",", item[cs[0]].orig))
		rep = append(rep, val...)
	}
	return append(rep, invented(")", out[end].orig)), nil
}

// lambda lowers the lambda whose "->" (or LAMBDA keyword) is out[i]: its
// parameters end res (x, or (x, y)) or follow LAMBDA up to ":"; its body
// runs to the end of the function argument. It returns the call, where in
// res it starts, and the index in out after the body.
func (p *parser) lambda(res, out []otok, i int) ([]otok, int, int, error) {
	var params []otok
	start := len(res)
	bodyAt := i + 1
	if out[i].kw == "lambda" {
		j := i + 1
		for ; j < len(out); j++ {
			if out[j].kind != tkWord && out[j].kind != tkQIdent {
				return nil, 0, 0, p.errOut(out, j, ErrSyntax, "expected a parameter name")
			}
			params = append(params, out[j])
			j++
			if isOpTok(out, j, ":") {
				break
			}
			if !isOpTok(out, j, ",") {
				return nil, 0, 0, p.errOut(out, j, ErrSyntax, `expected ":"`)
			}
		}
		bodyAt = j + 1
	} else {
		last := len(res) - 1
		switch {
		case last >= 0 && (res[last].kind == tkWord || res[last].kind == tkQIdent) && res[last].kw != "" || last >= 0 && res[last].kind == tkQIdent:
			params, start = res[last:], last
		case isOpTok(res, last, ")"):
			open := matchOpen(res, last)
			if open < 0 {
				return nil, 0, 0, p.errOut(out, i, ErrSyntax, "expected lambda parameters before ->")
			}
			for k, t := range res[open+1 : last] {
				if k%2 == 1 {
					if !isOpTok(res, open+1+k, ",") {
						return nil, 0, 0, p.errOut(out, i, ErrSyntax, "expected lambda parameters before ->")
					}
					continue
				}
				if t.kind != tkWord && t.kind != tkQIdent {
					return nil, 0, 0, p.errOut(out, i, ErrSyntax, "expected lambda parameters before ->")
				}
				params = append(params, t)
			}
			start = open
		default:
			return nil, 0, 0, p.errOut(out, i, ErrSyntax, "expected lambda parameters before ->")
		}
	}
	if len(params) == 0 {
		return nil, 0, 0, p.errOut(out, i, ErrSyntax, "expected lambda parameters")
	}
	if before := start - 1; out[i].kw != "lambda" && !isOpTok(res, before, "(") && !isOpTok(res, before, ",") {
		return nil, 0, 0, p.errOut(out, i, ErrSyntax, "a lambda is only allowed as a function argument")
	}
	end := argumentEnd(out, bodyAt)
	if end == bodyAt {
		return nil, 0, 0, p.errOut(out, end, ErrSyntax, "expected a lambda body")
	}
	body, err := p.lowerNested(out[bodyAt:end])
	if err != nil {
		return nil, 0, 0, err
	}
	rep := []otok{marker(lambdaFunc, out[i].orig), invented("(", out[i].orig)}
	for _, t := range params {
		rep = append(rep, t, invented(",", t.orig))
	}
	rep = append(rep, body...)
	return append(rep, invented(")", out[i].orig)), start, end, nil
}

// lowerBBox rewrites a && b into "a <=> __pqsql_bbox_overlap(b)", which
// fixAST turns into the comparison BBoxOverlapStr (as IS DISTINCT FROM),
// and GLOB and [NOT] SIMILAR TO alike (DuckDB has no NOT GLOB).
func (p *parser) lowerBBox(out []otok) ([]otok, error) {
	for i := 0; i < len(out); i++ {
		mark, n := "", 1
		switch {
		case isOpTok(out, i, "&&"):
			mark = bboxMarker
		case out[i].kw == "glob" && !isOpTok(out, i-1, ".") && !isOpTok(out, i+1, "("):
			mark = globMarker
		case out[i].kw == "similar" && kwAt(out, i+1) == "to":
			mark, n = similarMarker, 2
		case out[i].kw == "not" && kwAt(out, i+1) == "similar" && kwAt(out, i+2) == "to":
			mark, n = notSimilarMarker, 3
		default:
			continue
		}
		lo := i + n
		hi := operandEnd(out, lo)
		if hi == lo {
			return nil, p.errOut(out, hi, ErrSyntax, "expected an expression")
		}
		o := out[i].orig
		rep := []otok{invented("<=>", o), invented(mark, o), invented("(", o)}
		rep = append(rep, out[lo:hi]...)
		rep = append(rep, invented(")", o))
		out = splice(out, i, hi, rep...)
	}
	return out, nil
}

// argumentEnd is where the function argument starting at lo ends: the
// first "," or closing bracket outside brackets.
func argumentEnd(out []otok, lo int) int {
	depth := 0
	for j := lo; j < len(out); j++ {
		switch {
		case isOpTok(out, j, "(") || isOpTok(out, j, "[") || isOpTok(out, j, "{"):
			depth++
		case isOpTok(out, j, ")") || isOpTok(out, j, "]") || isOpTok(out, j, "}"):
			if depth == 0 {
				return j
			}
			depth--
		case depth == 0 && isOpTok(out, j, ","):
			return j
		}
	}
	return len(out)
}

// matchPair returns the index of the close token matching the open token
// at i, counting every kind of bracket, or -1.
func matchPair(out []otok, i int, open, close string) int {
	depth := 0
	for j := i; j < len(out); j++ {
		switch {
		case isOpTok(out, j, "(") || isOpTok(out, j, "[") || isOpTok(out, j, "{"):
			depth++
		case isOpTok(out, j, ")") || isOpTok(out, j, "]") || isOpTok(out, j, "}"):
			depth--
			if depth == 0 {
				if isOpTok(out, j, close) {
					return j
				}
				return -1
			}
		}
	}
	return -1
}

// topLevel returns the indexes of op in out outside parentheses (the
// lowered text has no other brackets).
func topLevel(out []otok, op string) []int {
	var at []int
	depth := 0
	for j := range out {
		switch {
		case isOpTok(out, j, "("):
			depth++
		case isOpTok(out, j, ")"):
			depth--
		case depth == 0 && isOpTok(out, j, op):
			at = append(at, j)
		}
	}
	return at
}

// splitTop splits out at op outside parentheses.
func splitTop(out []otok, op string) [][]otok {
	var parts [][]otok
	at := 0
	for _, j := range topLevel(out, op) {
		parts = append(parts, out[at:j])
		at = j + 1
	}
	return append(parts, out[at:])
}

// lowerFromUnnest rewrites FROM unnest(list) (and JOIN unnest(list)) into
// the subquery (SELECT unnest(list) AS unnest), whose one column DuckDB
// names unnest; an alias after it names the subquery.
func lowerFromUnnest(out []otok) []otok {
	var rs []rewrite
	for i := 0; i+2 < len(out); i++ {
		if k := kwAt(out, i); k != "from" && k != "join" || out[i+1].kw != "unnest" || !isOpTok(out, i+2, "(") {
			continue
		}
		end := matchClose(out, i+2)
		if end < 0 {
			continue
		}
		o := out[i+1].orig
		rep := []otok{invented("(", o), keyword("select", o)}
		rep = append(rep, out[i+1:end+1]...)
		rep = append(rep, keyword("as", o), invented("unnest", o), invented(")", o))
		rs = append(rs, rewrite{i + 1, end + 1, rep})
		i = end
	}
	return applyRewrites(out, rs)
}
