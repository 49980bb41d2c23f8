package pushdown

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"time"

	"github.com/pqsql/pqsql/format"
)

// Rewrites EXPLAIN suggests for conditions no mechanism can use: a column
// shifted by a constant and compared with a constant, and a timestamp cast
// to DATE and compared with a date.
var (
	shiftedColumn = regexp.MustCompile(`^\(*\(([A-Za-z_][A-Za-z0-9_.]*) ([+-]) (\d+(?:\.\d+)?)\) (<|<=|>|>=|=|!=) (-?\d+(?:\.\d+)?)\)*$`)
	castToDate    = regexp.MustCompile(`^\(*CAST\(([A-Za-z_][A-Za-z0-9_.]*) AS DATE\) = CAST\('(\d{4}-\d{2}-\d{2})' AS DATE\)\)*$`)
)

// notPushedDown says, for each condition of the predicate no mechanism
// can use, why, and the rewrite that would let one, when there is one:
// "(order_id + 1) < 1000: an expression of a column, which no statistics
// bound; order_id < 999 would push down".
// A residual that reads no column of the file (f, when set) is about hive
// partitions: the hive path judges whole files by it, and nothing is said.
// Nor is anything said of those notes already explain (the resolver's).
func notPushedDown(e Expr, f *format.File, notes []string) []string {
	var out []string
	var walk func(Expr)
	walk = func(e Expr) {
		switch n := e.(type) {
		case *And:
			for _, x := range n.Xs {
				walk(x)
			}
		case *Or:
			for _, x := range n.Xs {
				walk(x)
			}
		case *Not:
			walk(n.X)
		case *Residual:
			noted := false
			for _, note := range notes {
				noted = noted || strings.HasPrefix(note, "not pushed down: "+n.Text+": ")
			}
			if !noted && !partitionOnly(n, f) {
				out = append(out, n.Text+": "+residualWhy(n, f))
			}
		}
	}
	if e != nil {
		walk(e)
	}
	return out
}

// partitionOnly reports whether r reads no column of the file: none at
// all, or (with f) none f has.
func partitionOnly(r *Residual, f *format.File) bool {
	if len(r.Columns) == 0 {
		return true
	}
	if f == nil {
		return false
	}
	for _, c := range r.Columns {
		for _, l := range f.Schema.Leaves {
			if l.Path == c || strings.HasPrefix(l.Path, c+".") {
				return false
			}
		}
	}
	return true
}

// residualWhy says why a residual cannot be pushed down, and how to write
// it so that it can. With f, the columns it reads are counted by their
// top-level column, so that the fields of one struct are one column.
func residualWhy(r *Residual, f *format.File) string {
	if r.Why != "" {
		return r.Why
	}
	text := strings.TrimSpace(r.Text)
	if m := shiftedColumn.FindStringSubmatch(text); m != nil {
		if bound, ok := shiftBound(m[2], m[3], m[5]); ok {
			return fmt.Sprintf("an expression of a column, which no statistics bound; %s %s %s would push down", m[1], m[4], bound)
		}
	}
	if m := castToDate.FindStringSubmatch(text); m != nil {
		if d, err := time.Parse(time.DateOnly, m[2]); err == nil {
			next := d.AddDate(0, 0, 1).Format(time.DateOnly)
			return fmt.Sprintf("a cast of a column, which no statistics bound; %s >= '%s' AND %s < '%s' would push down", m[1], m[2], m[1], next)
		}
	}
	if len(topColumns(r.Columns, f)) >= 2 {
		return "it compares columns with each other, which no statistics bound"
	}
	return "no mechanism judges it: statistics, page index, Bloom filters and dictionaries bound bare columns and struct fields against constants"
}

// topColumns are the distinct top-level columns of leaf paths in f; without
// f (or for a path f does not have) each path counts as its own.
func topColumns(paths []string, f *format.File) map[string]bool {
	out := map[string]bool{}
	for _, p := range paths {
		if f != nil {
			if l := f.Schema.LeafByPath(p); l != nil && len(l.PathInSchema) > 0 {
				p = l.PathInSchema[0]
			}
		}
		out[p] = true
	}
	return out
}

// shiftBound moves a constant across: col + k op c becomes col op c - k,
// col - k op c becomes col op c + k, computed exactly.
func shiftBound(sign, k, c string) (string, bool) {
	kr, ok1 := new(big.Rat).SetString(k)
	cr, ok2 := new(big.Rat).SetString(c)
	if !ok1 || !ok2 {
		return "", false
	}
	if sign == "+" {
		cr.Sub(cr, kr)
	} else {
		cr.Add(cr, kr)
	}
	if cr.IsInt() {
		return cr.Num().String(), true
	}
	scale := 0
	for _, s := range []string{k, c} {
		if _, frac, ok := strings.Cut(s, "."); ok {
			scale = max(scale, len(frac))
		}
	}
	return cr.FloatString(scale), true
}
