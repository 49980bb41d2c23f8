package main

import (
	"bufio"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/exec"
)

// A col is one column of a fake result: values as Go values (nil is NULL).
type col struct {
	name string
	typ  exec.Type
	vals []any
}

var (
	tInt     = exec.Type{ID: exec.TypeInteger}
	tBig     = exec.Type{ID: exec.TypeBigInt}
	tDouble  = exec.Type{ID: exec.TypeDouble}
	tVarchar = exec.Type{ID: exec.TypeVarchar}
	tBool    = exec.Type{ID: exec.TypeBoolean}
	tDec     = exec.Type{ID: exec.TypeDecimal, Precision: 10, Scale: 2}
)

// fakeResult builds a Result from columns, cutting rows into batches of
// batchRows to exercise batch boundaries.
func fakeResult(batchRows int, cols ...col) *exec.Result {
	res := &exec.Result{}
	n := 0
	for _, c := range cols {
		res.Columns = append(res.Columns, c.name)
		res.Types = append(res.Types, c.typ)
		n = len(c.vals)
	}
	for start := 0; start < n; start += batchRows {
		end := min(start+batchRows, n)
		b := &exec.Batch{Len: end - start}
		for _, c := range cols {
			v := &exec.Vector{Type: c.typ}
			for _, x := range c.vals[start:end] {
				appendFake(v, x)
			}
			b.Vectors = append(b.Vectors, v)
		}
		res.Batches = append(res.Batches, b)
	}
	return res
}

func appendFake(v *exec.Vector, x any) {
	null := x == nil
	if null || v.Nulls != nil {
		if v.Nulls == nil {
			v.Nulls = make([]bool, v.Len())
		}
		v.Nulls = append(v.Nulls, null)
	}
	switch v.Type.ID {
	case exec.TypeBoolean:
		b, _ := x.(bool)
		v.Bool = append(v.Bool, b)
	case exec.TypeFloat, exec.TypeDouble:
		f, _ := x.(float64)
		v.Float = append(v.Float, f)
	case exec.TypeVarchar:
		s, _ := x.(string)
		v.Str = append(v.Str, s)
	default:
		i, _ := x.(int)
		v.Int = append(v.Int, int64(i))
	}
}

// ints returns the column values from..to-1.
func ints(from, to int) []any {
	var out []any
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// renderString renders res with o.
func renderString(t *testing.T, res *exec.Result, o renderOptions) string {
	t.Helper()
	var b strings.Builder
	w := bufio.NewWriter(&b)
	render(w, res, o)
	w.Flush()
	return b.String()
}
