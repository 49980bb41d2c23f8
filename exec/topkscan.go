package exec

import (
	"sync/atomic"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// A topKScan is a sorted limit's hold on its scan: the heap publishes its
// worst first key in bound, and the dispatcher asks pushdown, per row
// group, whether any row of it can still sort before that key. Row groups
// are dispatched most promising first, one at a time until the heap is
// full, so that on a file sorted by the key the first row group read
// answers the query and the others are skipped.
type topKScan struct {
	key planner.SortKey
	// col is the input column the first sort key reads.
	col int
	// typ is the key's type in the plan; a file whose column has another
	// type is not judged.
	typ   Type
	bound topKBound
	// skipped counts the row groups skipped.
	skipped atomic.Int64
}

// newTopKScan returns the hold of a plan whose rows go to a sorted limit
// on a column of the files, or nil.
func newTopKScan(p *planner.Plan) *topKScan {
	if p.Aggregate || p.Distinct || len(p.Order) == 0 || p.Limit < 0 || p.Scan == nil || p.Scan.Subquery != nil {
		return nil
	}
	k := p.Order[0]
	c, ok := p.Project[k.Index].(*planner.ColRef)
	if !ok || c.Index < 0 || c.Index >= len(p.Input) || isPartition(p.Scan, c.Index) {
		return nil
	}
	return &topKScan{key: k, col: c.Index, typ: c.T}
}

// A topKFile judges one file's row groups.
type topKFile struct {
	s  *topKScan
	tk *pushdown.TopK
	lg format.Logical
	t  Type
}

// forFile prepares the judgement over f, whose fields are the plan's
// input columns; nil when the key is no flat column of f.
func (s *topKScan) forFile(f *format.File, fields []*format.Field) *topKFile {
	if s.col >= len(fields) || fields[s.col] == nil {
		return nil
	}
	fl := fields[s.col]
	if fl.Kind != format.ScalarField || fl.Leaf == nil || typeOfField(fl) != s.typ {
		return nil
	}
	tk, err := pushdown.NewTopK(f, fl.Leaf.Index, s.key.Desc, s.key.NullsFirst)
	if err != nil {
		return nil
	}
	return &topKFile{s: s, tk: tk, lg: format.LogicalOf(fl.Leaf), t: typeOfField(fl)}
}

// order returns the kept row groups of a plan, most promising first.
func (tf *topKFile) order(rgs []pushdown.RowGroupPlan) []pushdown.RowGroupPlan {
	idx := make([]int, 0, len(rgs))
	at := map[int]pushdown.RowGroupPlan{}
	for _, rg := range rgs {
		if rg.Verdict != pushdown.Skip {
			idx = append(idx, rg.Index)
			at[rg.Index] = rg
		}
	}
	out := make([]pushdown.RowGroupPlan, 0, len(rgs))
	for _, i := range tf.tk.Promising(idx) {
		out = append(out, at[i])
	}
	// Skipped row groups keep their place at the end: the dispatcher only
	// counts them.
	for _, rg := range rgs {
		if rg.Verdict == pushdown.Skip {
			out = append(out, rg)
		}
	}
	return out
}

// excludes reports whether row group rg cannot hold a row of the result
// under the bound noted when token number token was given.
func (tf *topKFile) excludes(rg, token int) bool {
	d, ok := tf.s.bound.at(token)
	if !ok {
		return false
	}
	b := pushdown.TopKBound{Null: d.Null}
	if !d.Null {
		v, ok := encodeKey(tf.tk.Order(), tf.lg, tf.t, d)
		if !ok {
			return false
		}
		b.Value = v
	}
	return tf.tk.ExcludesRowGroup(rg, b)
}

// encodeKey puts a key value in the column's physical form, for the types
// whose values the executor holds as the file does; false for the others
// (a TIMESTAMP in milliseconds, a DECIMAL read as DOUBLE), which are never
// judged.
func encodeKey(o stats.Order, lg format.Logical, t Type, d planner.Datum) ([]byte, bool) {
	var v []byte
	var err error
	switch lg.Kind {
	case format.KindInt8, format.KindInt16, format.KindInt32, format.KindInt64, format.KindDate,
		format.KindUint8, format.KindUint16, format.KindUint32:
		v, err = o.Int(d.I)
	case format.KindUint64:
		v, err = o.Uint(uint64(d.I))
	case format.KindFloat:
		v, err = o.Float(d.F)
	case format.KindDouble:
		if lg.Precision > 0 {
			return nil, false
		}
		v, err = o.Float(d.F)
	case format.KindDecimal:
		if wideDecimal(t) {
			return nil, false
		}
		x := d.I
		if d.Big != nil {
			x = d.Big.Int64()
		}
		v, err = o.Int(x)
	case format.KindString:
		v, err = o.Bytes([]byte(d.S))
	case format.KindTimestamp, format.KindTimestampTZ:
		if lg.Unit != meta.Micros || t.ID == TypeTimestampNS {
			return nil, false
		}
		v, err = o.Int(d.I)
	default:
		return nil, false
	}
	return v, err == nil
}
