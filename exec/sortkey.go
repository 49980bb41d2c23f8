package exec

import (
	"bytes"
	"cmp"
	"context"
	"math"
	"strings"
	"unsafe"

	"github.com/pqsql/pqsql/planner"
)

// A rowCmp orders rows i and j of one set of columns by the sort keys, as
// rowLess orders datum rows, without boxing a value: each key compares its
// column's typed slice.
type rowCmp []func(i, j int) int

// newRowCmp compiles the sort keys over cols, columns of types.
func newRowCmp(keys []planner.SortKey, cols []*Vector, types []Type) rowCmp {
	out := make(rowCmp, len(keys))
	for n, k := range keys {
		out[n] = keyCmp(k, cols[k.Index], types[k.Index])
	}
	return out
}

// compare is negative when row i sorts first, positive when row j does.
func (c rowCmp) compare(i, j int) int {
	for _, f := range c {
		if r := f(i, j); r != 0 {
			return r
		}
	}
	return 0
}

// keyCmp orders two rows of v by one key: NULLs first or last as the key
// says, whatever its direction; values in planner.Compare's order.
func keyCmp(k planner.SortKey, v *Vector, t Type) func(i, j int) int {
	values := valueCmp(v, t)
	nullSign := 1
	if k.NullsFirst {
		nullSign = -1
	}
	sign := 1
	if k.Desc {
		sign = -1
	}
	if v.Nulls == nil {
		if sign == 1 {
			return values
		}
		return func(i, j int) int { return -values(i, j) }
	}
	nulls := v.Nulls
	return func(i, j int) int {
		switch a, b := nulls[i], nulls[j]; {
		case a && b:
			return 0
		case a:
			return nullSign
		case b:
			return -nullSign
		}
		return sign * values(i, j)
	}
}

// valueCmp orders two non-NULL rows of v as planner.Compare does.
func valueCmp(v *Vector, t Type) func(i, j int) int {
	switch kind := cmpKindOf(t); {
	case kind == cmpInt && v.Int != nil:
		xs := v.Int
		return func(i, j int) int { return cmp.Compare(xs[i], xs[j]) }
	case kind == cmpUint && v.Int != nil:
		xs := v.Int
		return func(i, j int) int { return cmp.Compare(uint64(xs[i]), uint64(xs[j])) }
	case kind == cmpFloat && v.Float != nil:
		xs := v.Float
		return func(i, j int) int { return planner.CompareFloat(xs[i], xs[j]) }
	case kind == cmpString && v.Str != nil:
		xs := v.Str
		return func(i, j int) int { return strings.Compare(xs[i], xs[j]) }
	case kind == cmpBool && v.Bool != nil:
		xs := v.Bool
		return func(i, j int) int {
			switch a, b := xs[i], xs[j]; {
			case a == b:
				return 0
			case b:
				return -1
			}
			return 1
		}
	case kind == cmpBytes && v.Bytes != nil:
		xs := v.Bytes
		return func(i, j int) int { return bytes.Compare(xs[i], xs[j]) }
	case v.Big != nil && (t.ID == TypeHugeInt || t.ID == TypeDecimal):
		xs := v.Big
		return func(i, j int) int { return xs[i].Cmp(xs[j]) }
	}
	return func(i, j int) int { return planner.Compare(datumAt(v, i), datumAt(v, j), t) }
}

// concatBatches appends the columns of bs into one batch; a column nil in
// the first batch stays nil.
func concatBatches(bs []*batch) *batch {
	out := &batch{}
	if len(bs) == 0 {
		return out
	}
	total := 0
	for _, b := range bs {
		total += b.n
	}
	out.cols = make([]*Vector, len(bs[0].cols))
	for c, v := range bs[0].cols {
		if v == nil {
			continue
		}
		dst := emptyLike(v, total)
		for _, b := range bs {
			dst.appendVector(b.cols[c], b.n)
		}
		out.cols[c] = dst
	}
	out.n = total
	return out
}

// appendVector appends the n rows of src, a vector of v's type, to v.
func (v *Vector) appendVector(src *Vector, n int) {
	have := v.Len()
	if src.Nulls != nil && v.Nulls == nil {
		v.Nulls = make([]bool, have, cap(v.Int)+cap(v.Float)+cap(v.Str)+cap(v.Bool)+cap(v.Bytes)+cap(v.Big)+cap(v.Nested))
	}
	if v.Nulls != nil {
		if src.Nulls != nil {
			v.Nulls = append(v.Nulls, src.Nulls[:n]...)
		} else {
			v.Nulls = append(v.Nulls, make([]bool, n)...)
		}
	}
	switch {
	case v.Int != nil:
		v.Int = appendN(v.Int, src.Int, n)
	case v.Float != nil:
		v.Float = appendN(v.Float, src.Float, n)
	case v.Bool != nil:
		v.Bool = appendN(v.Bool, src.Bool, n)
	case v.Str != nil:
		v.Str = appendN(v.Str, src.Str, n)
	case v.Bytes != nil:
		v.Bytes = appendN(v.Bytes, src.Bytes, n)
	case v.Big != nil:
		v.Big = appendN(v.Big, src.Big, n)
	case v.Nested != nil:
		v.Nested = appendN(v.Nested, src.Nested, n)
	}
}

// appendN appends the first n values of src, or n zero values when src is
// shorter (a vector of NULLs only may hold no values).
func appendN[T any](dst, src []T, n int) []T {
	if len(src) >= n {
		return append(dst, src[:n]...)
	}
	dst = append(dst, src...)
	return append(dst, make([]T, n-len(src))...)
}

// appendRowKey appends an encoding of row i of v that is equal for equal
// values as planner.AppendKey's is (NaNs alike, -0 as +0), without boxing
// the common types.
func appendRowKey(dst []byte, v *Vector, t Type, i int) []byte {
	if v.IsNull(i) {
		return append(dst, 0)
	}
	switch kind := cmpKindOf(t); {
	case (kind == cmpInt || kind == cmpUint) && v.Int != nil:
		x := uint64(v.Int[i])
		return append(dst, 1, byte(x), byte(x>>8), byte(x>>16), byte(x>>24), byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56))
	case kind == cmpFloat && v.Float != nil:
		f := v.Float[i]
		switch {
		case math.IsNaN(f):
			f = math.NaN()
		case f == 0:
			f = 0
		}
		x := math.Float64bits(f)
		return append(dst, 1, byte(x), byte(x>>8), byte(x>>16), byte(x>>24), byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56))
	case kind == cmpString && v.Str != nil:
		s := v.Str[i]
		n := uint32(len(s))
		dst = append(dst, 1, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
		return append(dst, s...)
	}
	return planner.AppendKey(dst, datumAt(v, i), t)
}

// finishBatches applies DISTINCT, ORDER BY, OFFSET and LIMIT to projected
// batches and keeps the visible columns: DISTINCT on encoded row keys
// (the first row of each kept), ORDER BY as a sort of row numbers on the
// typed columns, ties in input order.
func finishBatches(ctx context.Context, p *planner.Plan, bs []*batch) ([]*batch, error) {
	all := concatBatches(bs)
	types := projTypes(p)
	perm := make([]int32, all.n)
	for i := range perm {
		perm[i] = int32(i)
	}
	if p.Distinct && all.n > 0 {
		// Usually done already, batch by batch, as the rows came.
		perm = newDeduper(types).firstRows(all)
	}
	if len(p.Order) > 0 && len(perm) > 1 {
		if err := sortRows(ctx, perm, p.Order, all.cols, types); err != nil {
			return nil, err
		}
	}
	if p.Offset > 0 {
		perm = perm[min(int(p.Offset), len(perm)):]
	}
	if p.Limit >= 0 && int64(len(perm)) > p.Limit {
		perm = perm[:p.Limit]
	}
	n := len(p.Columns)
	var out []*batch
	for start := 0; start < len(perm); start += BatchSize {
		sel := perm[start:min(start+BatchSize, len(perm))]
		b := &batch{cols: make([]*Vector, n), n: len(sel)}
		for c := range n {
			b.cols[c] = all.cols[c].take(sel)
		}
		out = append(out, b)
	}
	return out, nil
}

// sortRows sorts the row numbers perm by the keys, ties in row order. The
// leading numeric keys (up to two) are sorted as normalized unsigned keys
// beside each row number, so most comparisons touch neither a closure nor
// a column.
// It gives up with ctx's error once ctx is done.
func sortRows(ctx context.Context, perm []int32, keys []planner.SortKey, cols []*Vector, types []Type) error {
	c := newRowCmp(keys, cols, types)
	var norm [2]normSortKey
	nn := 0
	for nn < len(norm) && nn < len(keys) {
		var ok bool
		if norm[nn], ok = newNormSortKey(keys[nn], cols[keys[nn].Index], types[keys[nn].Index]); !ok {
			break
		}
		nn++
	}
	if nn == 0 {
		return sortFuncCtx(ctx, perm, func(i, j int32) int {
			if r := c.compare(int(i), int(j)); r != 0 {
				return r
			}
			return cmp.Compare(i, j)
		})
	}
	type entry struct {
		k0, k1 uint64
		r0, r1 uint8
		row    int32
	}
	es := make([]entry, len(perm))
	for n, i := range perm {
		e := entry{row: i}
		e.r0, e.k0 = norm[0].at(int(i))
		if nn > 1 {
			e.r1, e.k1 = norm[1].at(int(i))
		}
		es[n] = e
	}
	rest := c[nn:]
	err := sortFuncCtx(ctx, es, func(a, b entry) int {
		switch {
		case a.r0 != b.r0:
			return cmp.Compare(a.r0, b.r0)
		case a.k0 != b.k0:
			return cmp.Compare(a.k0, b.k0)
		case a.r1 != b.r1:
			return cmp.Compare(a.r1, b.r1)
		case a.k1 != b.k1:
			return cmp.Compare(a.k1, b.k1)
		}
		if r := rest.compare(int(a.row), int(b.row)); r != 0 {
			return r
		}
		return cmp.Compare(a.row, b.row)
	})
	if err != nil {
		return err
	}
	for n, e := range es {
		perm[n] = e.row
	}
	return nil
}

// A normSortKey maps a numeric sort key's rows to a rank (NULLs first 0,
// values 1, NULLs last 2) and an unsigned key in sort order, direction
// included.
type normSortKey struct {
	norms      []uint64
	nulls      []bool
	desc       bool
	nullsFirst bool
}

func newNormSortKey(k planner.SortKey, v *Vector, t Type) (normSortKey, bool) {
	kind := cmpKindOf(t)
	if !((v.Int != nil && (kind == cmpInt || kind == cmpUint)) || (v.Float != nil && kind == cmpFloat)) {
		return normSortKey{}, false
	}
	return normSortKey{norms: normKeys(v, kind), nulls: v.Nulls, desc: k.Desc, nullsFirst: k.NullsFirst}, true
}

// at is row i's rank and key.
func (k *normSortKey) at(i int) (uint8, uint64) {
	if k.nulls != nil && k.nulls[i] {
		if k.nullsFirst {
			return 0, 0
		}
		return 2, 0
	}
	if k.desc {
		return 1, ^k.norms[i]
	}
	return 1, k.norms[i]
}

// A deduper keeps the first row of each distinct key (DISTINCT: NaNs
// alike, -0 as +0) across the batches it is shown.
type deduper struct {
	types []Type
	seen  map[string]struct{}
	key   []byte
	// seenAt caches, for a single VARCHAR column, strings seen by address:
	// the scan makes each dictionary entry's string once.
	seenAt *[256]string
}

func newDeduper(types []Type) *deduper {
	return &deduper{types: types, seen: map[string]struct{}{}}
}

// firstRows returns the rows of b whose key it has not seen, in order.
func (d *deduper) firstRows(b *batch) []int32 {
	var sel []int32
	var strs []string
	if len(b.cols) == 1 && d.types[0].ID == TypeVarchar && b.cols[0].Str != nil {
		strs = b.cols[0].Str
		if d.seenAt == nil {
			d.seenAt = new([256]string)
		}
	}
	for i := range b.n {
		if strs != nil && strs[i] != "" && !b.cols[0].IsNull(i) {
			p := unsafe.StringData(strs[i])
			slot := &d.seenAt[(uint64(uintptr(unsafe.Pointer(p)))*0x9E3779B97F4A7C15)>>56]
			if len(*slot) == len(strs[i]) && unsafe.StringData(*slot) == p {
				continue
			}
			// Held here, the string's bytes cannot be freed and their
			// address reused while the slot names them; it enters seen
			// below if it is not there.
			*slot = strs[i]
		}
		d.key = d.key[:0]
		for c, v := range b.cols {
			d.key = appendRowKey(d.key, v, d.types[c], i)
		}
		if _, ok := d.seen[string(d.key)]; !ok {
			d.seen[string(d.key)] = struct{}{}
			sel = append(sel, int32(i))
		}
	}
	return sel
}
