package exec

import (
	"context"
	"sort"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
)

// A colJudge is the conjuncts of a WHERE that read one column alone. On a
// dictionary-encoded page it is evaluated once per dictionary entry (and
// once for NULL), and a row's truth is then its entry's: rows that fail are
// dropped by their dictionary index, their values never made.
type colJudge struct {
	col  int
	node pnode
}

// judgedWhere splits a WHERE that cannot fail into judges, one per column
// read by conjuncts of that column alone, and the conjunction of the other
// conjuncts (nil when none). ok is false when there is nothing to
// judge by column. A WHERE that may fail is left whole: which rows reach a
// failing conjunct must not change.
func judgedWhere(where planner.Expr, f *filter, width int, cols map[int]bool) (judges []colJudge, residual planner.Expr, ok bool) {
	if f == nil || !f.root.cheap() {
		return nil, nil, false
	}
	conj := []planner.Expr{where}
	if l, isAnd := where.(*planner.Logic); isAnd && l.And {
		conj = l.Xs
	}
	byCol := map[int][]planner.Expr{}
	var rest []planner.Expr
	for _, x := range conj {
		set := map[int]bool{}
		planner.Columns(x, set)
		if len(set) == 1 {
			for c := range set {
				if cols[c] {
					byCol[c] = append(byCol[c], x)
					continue
				}
				rest = append(rest, x)
			}
			continue
		}
		rest = append(rest, x)
	}
	if len(byCol) == 0 {
		return nil, nil, false
	}
	for c, xs := range byCol {
		judges = append(judges, colJudge{col: c, node: compile(conjunction(xs), width)})
	}
	sort.Slice(judges, func(i, j int) bool { return judges[i].col < judges[j].col })
	if len(rest) > 0 {
		residual = conjunction(rest)
	}
	return judges, residual, true
}

// conjunction is the AND of xs.
func conjunction(xs []planner.Expr) planner.Expr {
	if len(xs) == 1 {
		return xs[0]
	}
	return &planner.Logic{And: true, Xs: xs}
}

// judgeable reports whether column c of the row group can be judged by
// dictionary: a flat leaf whose chunk has a dictionary page.
func judgeable(f *format.File, rg int, fl *format.Field) bool {
	if fl == nil || fl.Kind != format.ScalarField || fl.Leaf.MaxRep > 0 {
		return false
	}
	md := f.Chunk(rg, fl.Leaf.Index).MetaData
	if md.DictionaryPageOffset != nil && *md.DictionaryPageOffset > 0 {
		return true
	}
	for _, e := range md.Encodings {
		if e == meta.PlainDictionary || e == meta.RLEDictionary {
			return true
		}
	}
	return false
}

// A dictVector is a chunk's dictionary converted to the column's type:
// numbers all at once, strings entry by entry as rows need them, since a
// large dictionary may serve a few rows.
type dictVector struct {
	src *format.Values
	vec *Vector
	// strs[i] is entry i as a string once have[i] is set.
	strs []string
	have []bool
	// truth is the judge's verdict on every entry, then on NULL; nil until
	// judged.
	truth []uint8
}

// dictFor returns the converted dictionary d, for vectors of type t.
func (r *flatReader) dictFor(d *format.Values, t Type) *dictVector {
	if r.dv != nil && r.dv.src == d {
		return r.dv
	}
	dv := &dictVector{src: d}
	n := d.Len()
	switch {
	case r.lg.Kind == format.KindString:
		dv.strs, dv.have = make([]string, n), make([]bool, n)
	case sameInts(r.lg, d, t):
		// Read as they are: a dictionary of a hundred thousand numbers
		// is not copied to serve a page.
		dv.vec = &Vector{Type: t, Int: d.Int64[:n:n]}
	default:
		dv.vec = newVector(t, n)
		appendValues(dv.vec, r.lg, d, 0, n, &r.strs)
	}
	r.dv = dv
	return dv
}

// sparseDictRows: rows fewer than a dictionary's entries over this many
// convert their entries one by one.
const sparseDictRows = 64

// sameInts reports whether appendValues would copy the int64 values of d
// into a vector of type t unchanged.
func sameInts(lg format.Logical, d *format.Values, t Type) bool {
	if d.Type != meta.Int64 || d.Len() == 0 {
		return false
	}
	switch lg.Kind {
	case format.KindInt64, format.KindUint64:
		return true
	case format.KindDecimal:
		return !wideDecimal(t)
	case format.KindTimestamp, format.KindTimestampTZ:
		return t.ID == TypeTimestampNS || lg.Unit == meta.Micros
	}
	return false
}

// appendDict appends the dictionary entries idx to dst.
func (r *flatReader) appendDict(dst *Vector, d *format.Values, idx []int32) {
	n := len(idx)
	if n == 0 {
		return
	}
	if r.lg.Kind != format.KindString && (r.dv == nil || r.dv.src != d) && n*sparseDictRows < d.Len() {
		// A few rows of a large dictionary (a sorted limit's survivors)
		// convert their entries alone, not the whole dictionary.
		for _, i := range idx {
			appendValues(dst, r.lg, d, int(i), int(i)+1, &r.strs)
		}
		return
	}
	dv := r.dictFor(d, dst.Type)
	switch {
	case dv.vec == nil:
		dst.noteCodes(dv, idx)
		var out []string
		dst.Str, out = extend(dst.Str, n)
		for k, i := range idx {
			if !dv.have[i] {
				dv.strs[i], dv.have[i] = r.strs.str(d.Bytes[i]), true
			}
			out[k] = dv.strs[i]
		}
	case dv.vec.Int != nil:
		var out []int64
		dst.Int, out = extend(dst.Int, n)
		for k, i := range idx {
			out[k] = dv.vec.Int[i]
		}
	case dv.vec.Float != nil:
		var out []float64
		dst.Float, out = extend(dst.Float, n)
		for k, i := range idx {
			out[k] = dv.vec.Float[i]
		}
	default:
		for _, i := range idx {
			dst.appendRow(dv.vec, int(i))
		}
		return
	}
	if dst.Nulls != nil {
		var out []bool
		dst.Nulls, out = extend(dst.Nulls, n)
		clear(out)
	}
}

// judgeDict returns j's verdict on every entry of dictionary d and, last,
// on NULL.
func (r *flatReader) judgeDict(j *colJudge, d *format.Values, t Type, width int) ([]uint8, error) {
	dv := r.dictFor(d, t)
	if dv.truth != nil {
		return dv.truth, nil
	}
	n := d.Len()
	v := dv.vec
	if v == nil {
		for i := range n {
			if !dv.have[i] {
				dv.strs[i], dv.have[i] = r.strs.str(d.Bytes[i]), true
			}
		}
		v = &Vector{Type: t, Str: dv.strs}
	}
	// The entries are judged where they are, and NULL in a batch of its
	// own: a dictionary of a hundred thousand entries is not copied to
	// gain one row.
	truth := make([]uint8, n+1)
	b := &batch{cols: make([]*Vector, width), n: n}
	b.cols[j.col] = v
	if err := j.node.eval(b, allRows(n), truth[:n]); err != nil {
		return nil, err
	}
	null := newVector(t, 1)
	null.appendNull()
	b = &batch{cols: make([]*Vector, width), n: 1}
	b.cols[j.col] = null
	if err := j.node.eval(b, []int32{0}, truth[n:]); err != nil {
		return nil, err
	}
	dv.truth = truth
	return truth, nil
}

// selectRows returns the rows of ranges for which j is TRUE. It walks the
// pages as gather does; a dictionary-encoded page is judged by its
// dictionary, any other by its values.
func (r *flatReader) selectRows(ctx context.Context, ranges []rowRange, j *colJudge, t Type, width int) ([]rowRange, error) {
	var out []rowRange
	var res []uint8
	var sel []int32
	r.judging = rowCount(ranges)
	for c := (runCursor{rs: ranges}); ; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		runs := c.next(BatchSize)
		if runs == nil {
			return out, nil
		}
		n := 0
		for _, run := range runs {
			n += int(run.Len())
		}
		res = extendZero(res[:0], n)
		pos := 0
		for _, run := range runs {
			for row := run.First; row < run.End; {
				if err := r.seekPage(row); err != nil {
					return nil, err
				}
				end := min(run.End, r.p.FirstRow+r.p.NumRows)
				e0 := r.p.FirstEntry + int(row-r.p.FirstRow)
				k := int(end - row)
				if err := r.judgeEntries(j, t, width, e0, k, res[pos:pos+k]); err != nil {
					return nil, err
				}
				pos += k
				row = end
			}
		}
		sel = sel[:0]
		for i, x := range res {
			if x == tTrue {
				sel = append(sel, int32(i))
			}
		}
		out = appendSelected(out, runs, sel)
	}
}

// judgeEntries writes j's verdict on entries [e0, e0+n) of the current page
// to res.
func (r *flatReader) judgeEntries(j *colJudge, t Type, width, e0, n int, res []uint8) error {
	cd := r.cd
	// A dictionary larger than the rows to judge is cheaper passed over:
	// the rows' own values are judged.
	if cd.Dict == nil || int64(cd.Dict.Len()) > r.judging {
		tmp := newVector(t, n)
		if err := r.appendEntries(tmp, r.p, e0, n); err != nil {
			return err
		}
		b := &batch{cols: make([]*Vector, width), n: n}
		b.cols[j.col] = tmp
		return j.node.eval(b, allRows(n), res)
	}
	truth, err := r.judgeDict(j, cd.Dict, t, width)
	if err != nil {
		return err
	}
	null := truth[len(truth)-1]
	idx := cd.Indices
	if cd.Def == nil {
		v0 := r.p.FirstValue + (e0 - r.p.FirstEntry)
		if v0 < 0 || v0+n > len(idx) {
			return errCorrupt(r.name, "fewer values than entries")
		}
		for k, i := range idx[v0 : v0+n] {
			res[k] = truth[i]
		}
		return nil
	}
	r.seek(e0)
	def := cd.Def
	for k := range n {
		if def[e0+k] != r.max {
			res[k] = null
			continue
		}
		if r.v >= len(idx) {
			return errCorrupt(r.name, "fewer values than non-null entries")
		}
		res[k] = truth[idx[r.v]]
		r.v++
	}
	r.e = e0 + n
	return nil
}

// rowCount counts the rows of ranges.
func rowCount(ranges []rowRange) int64 {
	var n int64
	for _, r := range ranges {
		n += r.Len()
	}
	return n
}

// seek moves the cursor to entry e of the current page, counting the
// non-null entries before it.
func (r *flatReader) seek(e int) {
	if e < r.e {
		r.e, r.v = r.p.FirstEntry, r.p.FirstValue
	}
	for ; r.e < e; r.e++ {
		if r.cd.Def[r.e] == r.max {
			r.v++
		}
	}
}
