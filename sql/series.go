package sql

import (
	"strconv"
	"strings"
)

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
