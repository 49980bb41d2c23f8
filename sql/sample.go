package sql

import (
	"fmt"
	"github.com/pqsql/pqsql/sql/ast"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// sampleMarker names the select item that stands for a USING SAMPLE
// clause until fixAST records it in Select.Samples.
const sampleMarker = reservedPrefix + "sample"

// A Sample is a SELECT's USING SAMPLE clause (see ast.Sample).
type Sample = ast.Sample

// SampleOf returns the USING SAMPLE clause of a SELECT of the AST, or nil.
func (s *parsed) SampleOf(n *sqlparser.Select) *Sample {
	return s.Samples[n]
}

// lowerSample moves each "USING SAMPLE spec" into a last select item
// __pqsql_sample(k) of its SELECT, k indexing p.samples; fixAST takes it
// out again and records the clause in Select.Samples. The spec is
//
//	size [ROWS | % | PERCENT] [(method [, seed])] [REPEATABLE (seed)]
//	method (size [ROWS | % | PERCENT]) [REPEATABLE (seed)]
func (p *parser) lowerSample(out []otok) ([]otok, error) {
	for i := 0; i < len(out); i++ {
		if out[i].kw == "tablesample" {
			return nil, p.errOut(out, i, ErrUnsupported, "TABLESAMPLE is not supported: write USING SAMPLE after the FROM clause")
		}
		if out[i].kw != "using" || kwAt(out, i+1) != "sample" {
			continue
		}
		s, end, err := p.sampleSpec(out, i+2)
		if err != nil {
			return nil, err
		}
		listEnd := selectListEnd(out, i)
		if listEnd < 0 {
			return nil, p.errOut(out, i, ErrSyntax, "USING SAMPLE must follow a SELECT")
		}
		k := len(p.samples)
		p.samples = append(p.samples, s)
		out = splice(out, i, end)
		num := invented(strconv.Itoa(k), out[min(i, len(out)-1)].orig)
		num.kind, num.kw = tkNumber, ""
		rep := []otok{invented(",", num.orig), invented(sampleMarker, num.orig), invented("(", num.orig), num, invented(")", num.orig)}
		out = splice(out, listEnd, listEnd, rep...)
		i = listEnd + len(rep) - 1
	}
	return out, nil
}

// sampleSpec parses a USING SAMPLE spec starting at token i and returns it
// with the index after it.
func (p *parser) sampleSpec(out []otok, i int) (*Sample, int, error) {
	s := &Sample{}
	method := ""
	if o := out[min(i, len(out)-1)]; i < len(out) && o.kind == tkWord && isOpTok(out, i+1, "(") {
		method = o.kw
		i += 2
	}
	if i >= len(out) || out[i].kind != tkNumber {
		return nil, 0, p.errOut(out, i, ErrSyntax, "expected a sample size: a number of rows or a percentage")
	}
	size, err := strconv.ParseFloat(out[i].val, 64)
	if err != nil {
		return nil, 0, p.errOut(out, i, ErrSyntax, "expected a sample size: a number of rows or a percentage")
	}
	sizeAt := i
	i++
	switch {
	case isOpTok(out, i, "%"), kwAt(out, i) == "percent":
		s.Percent = true
		i++
	case kwAt(out, i) == "rows":
		i++
	default:
		// A bare number is a count of rows, as in DuckDB.
	}
	if method != "" {
		if !isOpTok(out, i, ")") {
			return nil, 0, p.errOut(out, i, ErrSyntax, `expected ")" after the sample size`)
		}
		i++
	} else if isOpTok(out, i, "(") {
		if i+1 >= len(out) || out[i+1].kind != tkWord {
			return nil, 0, p.errOut(out, i+1, ErrSyntax, "expected a sampling method: system, bernoulli or reservoir")
		}
		method = out[i+1].kw
		i += 2
		if isOpTok(out, i, ",") {
			seed, ok := sampleSeed(out, i+1)
			if !ok {
				return nil, 0, p.errOut(out, i+1, ErrSyntax, "expected an integer seed")
			}
			s.Seed, s.HasSeed = seed, true
			i += 2
		}
		if !isOpTok(out, i, ")") {
			return nil, 0, p.errOut(out, i, ErrSyntax, `expected ")" after the sampling method`)
		}
		i++
	}
	if kwAt(out, i) == "repeatable" {
		seed, ok := sampleSeed(out, i+2)
		if !isOpTok(out, i+1, "(") || !ok || !isOpTok(out, i+3, ")") {
			return nil, 0, p.errOut(out, i+1, ErrSyntax, "expected REPEATABLE (seed) with an integer seed")
		}
		s.Seed, s.HasSeed = seed, true
		i += 4
	}
	switch method {
	case "":
		method = "reservoir"
		if s.Percent {
			method = "system"
		}
	case "system", "bernoulli", "reservoir":
	default:
		return nil, 0, p.errOut(out, sizeAt, ErrSyntax, "Unrecognized sampling method "+method+", expected system, bernoulli or reservoir")
	}
	s.Method = method
	if s.Percent {
		if size < 0 || size > 100 {
			return nil, 0, p.errOut(out, sizeAt, ErrSyntax, fmt.Sprintf("Sample sample_size %f out of range, must be between 0 and 100", size))
		}
		s.Size = size
	} else {
		if method != "reservoir" {
			return nil, 0, p.errOut(out, sizeAt, ErrSyntax, "Sample method "+strings.ToUpper(method[:1])+method[1:]+" cannot be used with a discrete sample count, either switch to reservoir sampling or use a sample_size")
		}
		// A fractional count keeps its whole part, as DuckDB's does.
		s.Rows = int64(size)
		s.Size = float64(s.Rows)
	}
	return s, i, nil
}

// sampleSeed reads an integer seed at token i.
func sampleSeed(out []otok, i int) (int64, bool) {
	if i >= len(out) || out[i].kind != tkNumber {
		return 0, false
	}
	n, err := strconv.ParseInt(out[i].val, 10, 64)
	return n, err == nil
}

// takeSample records the clause a sample marker f stands for as n's.
func (p *parser) takeSample(sel *parsed, n *sqlparser.Select, f *sqlparser.FuncExpr) bool {
	if len(f.Exprs) != 1 {
		return false
	}
	ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return false
	}
	v, ok := ae.Expr.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.IntVal {
		return false
	}
	k, err := strconv.Atoi(string(v.Val))
	if err != nil || k < 0 || k >= len(p.samples) {
		return false
	}
	if sel.Samples == nil {
		sel.Samples = map[*sqlparser.Select]*Sample{}
	}
	sel.Samples[n] = p.samples[k]
	return true
}
