package sql

import (
	"strconv"
	"strings"
)

// TableSeriesPrefix starts the name lowerFromSeries gives the list
// function it calls for a FROM range(...) or generate_series(...): the
// planner binds __pqsql_table_range as range with the table function's
// errors.
const TableSeriesPrefix = reservedPrefix + "table_"

// seriesFunctions generate integers: range excludes its stop value,
// generate_series includes it.
var seriesFunctions = map[string]bool{"range": true, "generate_series": true}

// seriesSource parses range(stop), range(start, stop) or range(start,
// stop, step) (and generate_series alike) with integer literal arguments,
// and returns the index after ")".
func (p *parser) seriesSource(out []otok, i int, name string) (*Source, int, error) {
	src := &Source{Kind: SourceFunction, Function: name}
	j := i + 2
	for {
		neg := false
		if isOpTok(out, j, "-") || isOpTok(out, j, "+") {
			neg = out[j].val == "-"
			j++
		}
		if j >= len(out) || out[j].kind != tkNumber || strings.ContainsAny(out[j].val, ".eE") {
			return nil, 0, p.errOut(out, j, ErrUnsupported, name+"() takes integer literals")
		}
		v, err := strconv.ParseInt(out[j].val, 10, 64)
		if neg {
			v = -v
		}
		if err != nil {
			return nil, 0, p.errOut(out, j, ErrUnsupported, name+"() takes BIGINT arguments")
		}
		src.Args = append(src.Args, v)
		j++
		if isOpTok(out, j, ")") {
			break
		}
		if !isOpTok(out, j, ",") || len(src.Args) == 3 {
			return nil, 0, p.errOut(out, j, ErrSyntax, `expected "," or ")"`)
		}
		j++
	}
	return src, j + 1, nil
}

// lowerFromSeries rewrites FROM range(...) and generate_series(...) whose
// arguments are not integer literals (timestamps and an INTERVAL step,
// expressions) into the subquery (SELECT unnest(__pqsql_table_f(...)) AS
// f), which the list form of the function computes: the column keeps the
// function's name, as in DuckDB. Integer literals stay a SourceFunction.
func lowerFromSeries(out []otok) []otok {
	var rs []rewrite
	for i := 0; i+2 < len(out); i++ {
		if k := kwAt(out, i); k != "from" && k != "join" || !seriesFunctions[out[i+1].kw] || !isOpTok(out, i+2, "(") {
			continue
		}
		end := matchClose(out, i+2)
		if end < 0 || integerArgs(out, i+3, end) {
			continue
		}
		o := out[i+1].orig
		rep := []otok{invented("(", o), keyword("select", o), invented("unnest", o), invented("(", o)}
		rep = append(rep, invented(TableSeriesPrefix+out[i+1].kw, o))
		rep = append(rep, out[i+2:end+1]...)
		rep = append(rep, invented(")", o), keyword("as", o), invented(out[i+1].kw, o), invented(")", o))
		rs = append(rs, rewrite{i + 1, end + 1, rep})
		i = end
	}
	return applyRewrites(out, rs)
}

// integerArgs reports whether out[lo:hi] is a list of integer literals,
// each with an optional sign, as seriesSource reads them.
func integerArgs(out []otok, lo, hi int) bool {
	parts := splitCommas(out, lo, hi)
	for _, a := range parts {
		if len(a) == 2 && (isOpTok(a, 0, "-") || isOpTok(a, 0, "+")) {
			a = a[1:]
		}
		if len(a) != 1 || a[0].kind != tkNumber || strings.ContainsAny(a[0].val, ".eE") {
			return false
		}
	}
	return len(parts) > 0
}
