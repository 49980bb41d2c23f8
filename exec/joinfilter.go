package exec

import (
	"sort"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// joinFilterValues is the most distinct build keys a join filter lists as
// an IN list, which statistics, the page index, Bloom filters and
// dictionaries can all judge; with more, pushdown judges their range
// (BETWEEN). DuckDB's threshold.
const joinFilterValues = 50

// joinFilterKeys is the most distinct build keys a join filter tests probe
// rows against: a set of up to this many costs one lookup a row in the
// scan, which then reads the probe side's other columns only where a key
// matched. Beyond it the filter is the keys' range alone.
const joinFilterKeys = 1 << 16

// joinFilter returns the condition on the probe side's keys that the build
// side's keys imply: every probe row failing it matches no build row, so
// an inner join may drop it before reading it. It is over the joined row
// and reads the probe side only; nil when no key's type allows one.
//
// Floating-point keys get none: NaN and -0.0 make ranges and equality
// differ from the join's, and skipping must be certain.
func (jn *joiner) joinFilter() planner.Expr {
	build := jn.build
	width := jn.nl + jn.nr
	padded := &batch{cols: make([]*Vector, width), n: build.n}
	if jn.buildLeft {
		copy(padded.cols, build.cols)
	} else {
		copy(padded.cols[jn.nl:], build.cols)
	}
	var bexprs, pexprs []planner.Expr
	for _, k := range jn.j.Keys {
		b, p := k.R, k.L
		if jn.buildLeft {
			b, p = k.L, k.R
		}
		if filterable(p.Type()) {
			bexprs, pexprs = append(bexprs, b), append(pexprs, p)
		}
	}
	if len(bexprs) == 0 {
		return nil
	}
	kb, err := newProjector(bexprs, width).apply(padded)
	if err != nil || kb.n != build.n {
		// The join itself reports the error.
		return nil
	}
	var conds []planner.Expr
	for i, p := range pexprs {
		t := p.Type()
		v := kb.cols[i]
		distinct, all := distinctKeys(v, kb.n, t, joinFilterKeys)
		lo, hi, any := keyRange(v, kb.n, t, distinct, all)
		if !any {
			// No build row has a non-NULL key: nothing can match.
			return &planner.Const{Value: planner.Datum{B: false}, T: planner.Type{ID: planner.TypeBoolean}}
		}
		if !all {
			conds = append(conds, &planner.Between{X: p, Lo: &planner.Const{Value: lo, T: t}, Hi: &planner.Const{Value: hi, T: t}})
			continue
		}
		sort.Slice(distinct, func(a, b int) bool { return planner.Compare(distinct[a], distinct[b], t) < 0 })
		list := make([]planner.Expr, len(distinct))
		for k, d := range distinct {
			list[k] = &planner.Const{Value: d, T: t}
		}
		conds = append(conds, &planner.InList{X: p, List: list, JoinKeys: len(distinct) > joinFilterValues})
	}
	if len(conds) == 1 {
		return conds[0]
	}
	return &planner.Logic{And: true, Xs: conds}
}

// distinctKeys returns the distinct non-NULL values among the n rows of v,
// of type t, and all: false when there are more than limit of them.
// Integer keys are told apart as integers, the others by their
// planner.AppendKey bytes.
func distinctKeys(v *Vector, n int, t Type, limit int) (distinct []planner.Datum, all bool) {
	if v.Int != nil {
		var seen intGroups
		for r := range n {
			if v.IsNull(r) {
				continue
			}
			if _, added := seen.findOrPut(v.Int[r], 0); added {
				if seen.len() > limit {
					return nil, false
				}
				distinct = append(distinct, datumAt(v, r))
			}
		}
		return distinct, true
	}
	seen := map[string]bool{}
	var key []byte
	for r := range n {
		d := datumAt(v, r)
		if d.Null {
			continue
		}
		key = planner.AppendKey(key[:0], d, t)
		if !seen[string(key)] {
			if len(seen) == limit {
				return nil, false
			}
			seen[string(key)] = true
			distinct = append(distinct, d)
		}
	}
	return distinct, true
}

// keyRange is the least and the greatest non-NULL value among the n rows
// of v: among distinct when all holds them, else found row by row; any is
// false when there is none.
func keyRange(v *Vector, n int, t Type, distinct []planner.Datum, all bool) (lo, hi planner.Datum, any bool) {
	consider := func(d planner.Datum) {
		switch {
		case d.Null:
		case !any:
			lo, hi, any = d, d, true
		case planner.Compare(d, lo, t) < 0:
			lo = d
		case planner.Compare(d, hi, t) > 0:
			hi = d
		}
	}
	if all {
		for _, d := range distinct {
			consider(d)
		}
		return lo, hi, any
	}
	for r := range n {
		consider(datumAt(v, r))
	}
	return lo, hi, any
}

// filterable reports whether a join filter on keys of type t is exact:
// integers, decimals, strings, dates and timestamps compare as the join
// compares them.
func filterable(t Type) bool {
	switch {
	case t.IsInteger(), t.ID == TypeDecimal, t.ID == TypeVarchar, t.ID == TypeDate,
		t.ID == TypeTimestamp, t.ID == TypeTimestampTZ, t.ID == TypeTimestampNS:
		return true
	}
	return false
}

// A joinFilterBase is the pruning predicate a files scan had before a
// join filter reached it; nil when it had none.
type joinFilterBase struct{ pred pushdown.Expr }

// filesScans maps the Parquet scans of p and of the plans below it to
// their pruning predicates.
func filesScans(p *planner.Plan, out map[*planner.Scan]pushdown.Expr) map[*planner.Scan]pushdown.Expr {
	if out == nil {
		out = map[*planner.Scan]pushdown.Expr{}
	}
	if p == nil || p.Scan == nil {
		return out
	}
	s := p.Scan
	switch {
	case s.Subquery != nil:
		filesScans(s.Subquery, out)
	case s.Join != nil:
		filesScans(s.Join.Left, out)
		filesScans(s.Join.Right, out)
	case s.SetOp != nil:
		filesScans(s.SetOp.Left, out)
		filesScans(s.SetOp.Right, out)
	case len(s.Files) > 0:
		out[s] = s.Pushdown
	}
	return out
}

// noteJoinFiltered records the scans of j's probe side whose pruning
// predicate the join filter changed, with the predicate they had, so the
// scan credits what the join filter skipped to it (CreditJoinFilter).
func (x *executor) noteJoinFiltered(before map[*planner.Scan]pushdown.Expr, j *planner.Join, buildLeft bool) {
	probe := j.Left
	if buildLeft {
		probe = j.Right
	}
	for s, now := range filesScans(probe, nil) {
		was, ok := before[s]
		if !ok || exprText(was) == exprText(now) {
			continue
		}
		if _, seen := x.joinFiltered.Load(s); !seen {
			x.joinFiltered.Store(s, joinFilterBase{pred: was})
		}
	}
}

func exprText(e pushdown.Expr) string {
	if e == nil {
		return ""
	}
	return e.String()
}

// creditJoinFilter credits to the join filter what fp, the plan of scan s
// in file f, skips beyond the scan's own predicate (CreditJoinFilter says
// how far that can be told without reading more). A scan the join filter
// did not reach is left alone; when the plan of the scan's own predicate
// cannot be made, so is fp.
func (x *executor) creditJoinFilter(s *planner.Scan, f *format.File, leaves []int, fp *pushdown.FilePlan) {
	v, ok := x.joinFiltered.Load(s)
	if !ok {
		return
	}
	var base *pushdown.FilePlan
	if pred := v.(joinFilterBase).pred; pred != nil {
		var err error
		// Statistics alone: the footer has them, so the credit costs no read.
		opts := pushdown.Options{Statistics: x.settings.options().Statistics}
		if base, err = pushdown.Plan(f, pred, leaves, opts); err != nil {
			return
		}
	}
	fp.CreditJoinFilter(f, base)
}
