package exec

import (
	"context"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
)

// distinctColumn returns the input column whose distinct values are all
// that plan p needs of its rows, or -1: p reads that column alone, without
// a WHERE or a LIMIT, and either keeps distinct rows projecting only it or
// groups by only it (or by nothing) with aggregates that repeats of a
// value do not change (count(DISTINCT), min, max). A row group then passes
// on one row per dictionary entry, the first row holding it, rather than
// every row: the rows first holding each value come in the same order, so
// even the order of the result does not change.
func distinctColumn(p *planner.Plan, needCols []int) int {
	if p.Where != nil || len(needCols) != 1 || p.Limit >= 0 || p.Offset > 0 || p.HasPercent || p.Sample != nil ||
		len(p.Windows) > 0 || p.Qualify != nil || p.Scan.Subquery != nil {
		return -1
	}
	c := needCols[0]
	isCol := func(x planner.Expr) bool {
		r, ok := x.(*planner.ColRef)
		return ok && r.Index == c
	}
	if !p.Aggregate {
		if !p.Distinct || len(p.Project) == 0 {
			return -1
		}
		for _, x := range p.Project {
			if !isCol(x) {
				return -1
			}
		}
		return c
	}
	if len(p.GroupingSets) > 0 {
		return -1
	}
	for _, g := range p.GroupBy {
		if !isCol(g) {
			return -1
		}
	}
	for _, a := range p.Aggs {
		if a.Arg == nil || !isCol(a.Arg) || len(a.Params) > 0 || len(a.Grouping) > 0 || a.Filter != nil {
			return -1
		}
		switch {
		case a.Func == "count" && a.Distinct, a.Func == "min", a.Func == "max":
		default:
			return -1
		}
	}
	return c
}

// scanDistinct reads a row group for a plan that needs only the distinct
// values of column c (distinctColumn): it walks c's pages once, keeping
// the first row of each dictionary entry and of NULL (and every row of a
// page without a dictionary), then gathers and passes on those rows alone.
func (s *scanner) scanDistinct(ctx context.Context, t *scanTask, kept []rowRange, readers []colReader, send func(scanMsg) bool) error {
	s.distinct.Add(1)
	c := s.q.distinct
	cols := []int{c}
	if err := s.load(t, cols, nil, readers); err != nil {
		return err
	}
	r := readers[c].(*flatReader)
	firsts, err := r.firstRows(ctx, kept)
	if err != nil {
		return s.readError(t, err)
	}
	if err := s.drain(t, cols, readers); err != nil {
		return err
	}
	r.rewind()
	return s.emit(ctx, t, firsts, cols, readers, nil, send, nil)
}

// firstRows returns, of the rows of ranges, the first to hold each entry
// of the chunk's dictionary and the first NULL, and every row of a page
// that is not dictionary-encoded.
func (r *flatReader) firstRows(ctx context.Context, ranges []rowRange) ([]rowRange, error) {
	var out []rowRange
	keep := func(row int64) {
		if n := len(out); n > 0 && out[n-1].End == row {
			out[n-1].End++
			return
		}
		out = append(out, rowRange{First: row, End: row + 1})
	}
	var seen []bool
	var seenFor *format.Values
	nullSeen := false
	for _, run := range ranges {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for row := run.First; row < run.End; {
			if err := r.seekPage(row); err != nil {
				return nil, err
			}
			end := min(run.End, r.p.FirstRow+r.p.NumRows)
			cd := r.cd
			if cd.Dict == nil {
				if n := len(out); n > 0 && out[n-1].End == row {
					out[n-1].End = end
				} else {
					out = append(out, rowRange{First: row, End: end})
				}
				row = end
				continue
			}
			if seenFor != cd.Dict {
				seen, seenFor = make([]bool, cd.Dict.Len()), cd.Dict
			}
			e0 := r.p.FirstEntry + int(row-r.p.FirstRow)
			n := int(end - row)
			idx := cd.Indices
			if cd.Def == nil {
				v0 := r.p.FirstValue + (e0 - r.p.FirstEntry)
				if v0 < 0 || v0+n > len(idx) {
					return nil, errCorrupt(r.name, "fewer values than entries")
				}
				for k, i := range idx[v0 : v0+n] {
					if !seen[i] {
						seen[i] = true
						keep(row + int64(k))
					}
				}
				row = end
				continue
			}
			r.seek(e0)
			for k := range n {
				if cd.Def[e0+k] != r.max {
					if !nullSeen {
						nullSeen = true
						keep(row + int64(k))
					}
					continue
				}
				if r.v >= len(idx) {
					return nil, errCorrupt(r.name, "fewer values than non-null entries")
				}
				i := idx[r.v]
				r.v++
				if !seen[i] {
					seen[i] = true
					keep(row + int64(k))
				}
			}
			r.e = e0 + n
			row = end
		}
	}
	return out, nil
}
