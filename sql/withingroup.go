package sql

// withinGroup are the ordered-set aggregates DuckDB takes in the form
// f(fraction) WITHIN GROUP (ORDER BY x), and the quantile each becomes.
var withinGroup = map[string]string{"percentile_cont": "quantile_cont", "percentile_disc": "quantile_disc", "mode": "mode"}

// lowerWithinGroup rewrites percentile_cont(f) WITHIN GROUP (ORDER BY x)
// as DuckDB does, into quantile_cont(f ORDER BY x): an aggregate whose
// ORDER BY names the value and whose argument is the fraction (the
// planner binds it as quantile_cont(x, f), -f when DESC). mode() WITHIN
// GROUP (ORDER BY x) becomes mode(x ORDER BY x).
func (p *parser) lowerWithinGroup(out []otok) ([]otok, error) {
	var rs []rewrite
	for i := 0; i+1 < len(out); i++ {
		q, ok := withinGroup[out[i].kw]
		if !ok || !isOpTok(out, i+1, "(") || isOpTok(out, i-1, ".") {
			continue
		}
		close := matchClose(out, i+1)
		if close < 0 || kwAt(out, close+1) != "within" {
			continue
		}
		if kwAt(out, close+2) != "group" || !isOpTok(out, close+3, "(") || kwAt(out, close+4) != "order" || kwAt(out, close+5) != "by" {
			return nil, p.errOut(out, close+2, ErrSyntax, "expected WITHIN GROUP (ORDER BY ...)")
		}
		end := matchClose(out, close+3)
		if end < 0 {
			continue
		}
		name := out[i]
		name.text, name.val, name.kw = q, q, q
		rep := []otok{name}
		if q == "mode" {
			// mode() WITHIN GROUP (ORDER BY x) is mode(x ORDER BY x).
			keys := splitCommas(out, close+6, end)
			switch {
			case close != i+2:
				return nil, p.errOut(out, i, ErrSyntax, "Wrong number of arguments for MODE")
			case len(keys) != 1:
				return nil, p.errOut(out, i, ErrSyntax, "Cannot use multiple ORDER BY clauses with WITHIN GROUP")
			case kwAt(out, end+1) == "over":
				return nil, p.errOut(out, i, ErrBinder, "No function matches the given name and argument types 'mode()'. You might need to add explicit type casts.")
			}
			x, _, _ := orderKey(keys[0])
			rep = append(rep, out[i+1])
			rep = append(rep, x...)
			rep = append(rep, out[close+4:end+1]...)
			rs = append(rs, rewrite{i, end + 1, rep})
			i = end
			continue
		}
		rep = append(rep, out[i+1:close]...)
		rep = append(rep, out[close+4:end+1]...)
		rs = append(rs, rewrite{i, end + 1, rep})
		i = end
	}
	return applyRewrites(out, rs), nil
}
