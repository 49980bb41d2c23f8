package sql

import "strings"

// with parses "WITH [RECURSIVE] cte, ... query" made of tokens lo..hi-1,
// where each cte is "name [(column, ...)] AS [[NOT] MATERIALIZED] (query)".
// Each CTE's query is parsed on its own; the main query gets them in With.
func (p *parser) with(lo, hi int) (*Select, error) {
	i := lo + 1
	recursive := false
	if p.kw(i) == "recursive" {
		recursive = true
		i++
	}
	var ctes []*CTE
	seen := map[string]bool{}
	for {
		name, err := p.name(i, "CTE name")
		if err != nil {
			return nil, err
		}
		cte := &CTE{Name: name, Pos: p.pos(p.toks[i].off)}
		if seen[strings.ToLower(name)] {
			return nil, p.errAt(i, ErrSyntax, `duplicate CTE name "`+name+`"`)
		}
		seen[strings.ToLower(name)] = true
		i++
		if p.isOp(i, "(") {
			for {
				i++
				col, err := p.name(i, "column name")
				if err != nil {
					return nil, err
				}
				cte.Columns = append(cte.Columns, col)
				i++
				if p.isOp(i, ")") {
					break
				}
				if !p.isOp(i, ",") {
					return nil, p.errAt(i, ErrSyntax, `expected "," or ")"`)
				}
			}
			i++
		}
		if p.kw(i) != "as" {
			return nil, p.errAt(i, ErrSyntax, "expected AS")
		}
		i++
		switch {
		case p.kw(i) == "materialized":
			i++
		case p.kw(i) == "not" && p.kw(i+1) == "materialized":
			cte.NotMaterialized = true
			i += 2
		}
		if !p.isOp(i, "(") {
			return nil, p.errAt(i, ErrSyntax, `expected "("`)
		}
		end := p.closing(i, hi)
		if end < 0 {
			return nil, p.errAt(hi, ErrSyntax, `expected ")"`)
		}
		if !p.startsQuery(i + 1) {
			return nil, p.errAt(i+1, ErrSyntax, "expected SELECT")
		}
		q, err := p.queryRange(i+1, end)
		if err != nil {
			return nil, err
		}
		cte.Query = q
		ctes = append(ctes, cte)
		i = end + 1
		if !p.isOp(i, ",") {
			break
		}
		i++
	}
	if k := p.kw(i); k != "select" && k != "from" {
		return nil, p.errAt(i, ErrSyntax, `expected "," or SELECT`)
	}
	sel, err := p.queryRange(i, hi)
	if err != nil {
		return nil, err
	}
	sel.With, sel.Recursive = ctes, recursive
	sel.Text = p.text[p.toks[lo].off:p.toks[hi-1].end]
	sel.Pos = p.pos(p.toks[lo].off)
	return sel, nil
}

// closing returns the index of the ")" that closes the "(" at token i,
// looking no further than token hi-1, or -1.
func (p *parser) closing(i, hi int) int {
	depth := 0
	for j := i; j < hi; j++ {
		switch {
		case p.isOp(j, "("):
			depth++
		case p.isOp(j, ")"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
