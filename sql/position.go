package sql

// lowerPosition rewrites POSITION(needle IN haystack), which sqlparser
// reads as an IN list, into the call position(haystack, needle) that
// DuckDB makes of it (and names its column after). DuckDB has no other
// form: position(a, b) is its syntax error, and so is pqsql's.
func (p *parser) lowerPosition(out []otok) ([]otok, error) {
	var rs []rewrite
	for i := 0; i+1 < len(out); i++ {
		if out[i].kw != "position" || !isOpTok(out, i+1, "(") || isOpTok(out, i-1, ".") {
			continue
		}
		end := matchClose(out, i+1)
		if end < 0 {
			continue
		}
		in, depth := -1, 0
		for j := i + 1; j < end && in < 0; j++ {
			switch {
			case isOpTok(out, j, "("):
				depth++
			case isOpTok(out, j, ")"):
				depth--
			case depth == 1 && out[j].kw == "in":
				in = j
			case depth == 1 && isOpTok(out, j, ","):
				return nil, p.errOut(out, j, ErrSyntax, `syntax error at or near ","`)
			}
		}
		if in < 0 || in == i+2 || in == end-1 {
			return nil, p.errOut(out, end, ErrSyntax, "expected POSITION(needle IN haystack)")
		}
		rep := []otok{out[i], out[i+1]}
		rep = append(rep, out[in+1:end]...)
		rep = append(rep, invented(",", out[in].orig))
		rep = append(rep, out[i+2:in]...)
		rep = append(rep, out[end])
		rs = append(rs, rewrite{i, end + 1, rep})
		i = end
	}
	return applyRewrites(out, rs), nil
}
