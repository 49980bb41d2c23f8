package exec

import (
	"encoding/binary"
	"math"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
	"github.com/pqsql/pqsql/planner"
)

// metaAggregate answers an aggregate without WHERE and GROUP BY whose every
// aggregate is count(*), count(column) or min/max(column) from the files'
// statistics alone, when they are trusted and exact for every row group.
// ok is false when some row group needs reading.
func (x *executor) metaAggregate(p *planner.Plan) (ag *aggregator, ok bool, err error) {
	scan := p.Scan
	if !p.Aggregate || scan.Subquery != nil || scan.CountOnly || p.Where != nil || len(p.GroupBy) > 0 || !x.settings.Statistics {
		return nil, false, nil
	}
	useful := false
	for _, a := range p.Aggs {
		if a.Func == "count_star" {
			continue
		}
		c, isCol := a.Arg.(*planner.ColRef)
		if !isCol || c.Index < 0 || c.Index >= len(scan.Fields) || isVirtual(scan, c.Index) {
			return nil, false, nil
		}
		fl := scan.Fields[c.Index]
		if fl.Kind != format.ScalarField || fl.Leaf.MaxRep > 0 {
			return nil, false, nil
		}
		switch {
		case a.Func == "count" && !a.Distinct, a.Func == "min", a.Func == "max":
			useful = true
		default:
			return nil, false, nil
		}
	}
	if !useful {
		return nil, false, nil
	}
	ag = newAggregator(p)
	g := ag.single()
	var rowGroups int
	for _, path := range scan.Files {
		f, cs, closer, err := x.openCounted(path)
		if err != nil {
			return nil, false, err
		}
		x.keepMeter(cs)
		ok, err := x.metaFile(p, f, g)
		st := cs.Stats()
		closer.Close()
		x.stats.IO.Bytes += st.Bytes
		x.stats.IO.Requests += st.Requests
		if err != nil || !ok {
			return nil, false, err
		}
		rowGroups += len(f.Meta.RowGroups)
	}
	x.stats.Files += len(scan.Files)
	x.stats.RowGroupsFromMetadata += rowGroups
	return ag, true, nil
}

// metaFile adds one file's statistics to g.
func (x *executor) metaFile(p *planner.Plan, f *format.File, g *group) (bool, error) {
	fields, err := fieldMap(p.Scan, f)
	if err != nil {
		return false, err
	}
	cols, err := stats.Columns(f.Meta)
	if err != nil || len(cols) != len(f.Schema.Leaves) {
		return false, nil
	}
	for rg := range f.Meta.RowGroups {
		rows := f.Meta.RowGroups[rg].NumRows
		if rows == 0 {
			continue
		}
		for i, a := range p.Aggs {
			s := &g.aggs[i]
			if a.Func == "count_star" {
				s.n += rows
				continue
			}
			fl := fields[a.Arg.(*planner.ColRef).Index]
			md := f.Chunk(rg, fl.Leaf.Index).MetaData
			if md == nil || md.NumValues != rows {
				return false, nil
			}
			b := stats.ChunkBounds(cols[fl.Leaf.Index], md.Statistics, md.NumValues)
			if a.Func == "count" {
				if !b.NullCountKnown {
					return false, nil
				}
				s.n += md.NumValues - b.NullCount
				continue
			}
			if b.AllNull {
				continue
			}
			bound, exact := b.Min, b.MinExact
			if a.Func == "max" {
				// NaN sorts above every number and bounds leave it out.
				if b.MayHoldNaN() {
					return false, nil
				}
				bound, exact = b.Max, b.MaxExact
			}
			if bound == nil || !exact {
				return false, nil
			}
			t := a.Arg.Type()
			d, ok := boundDatum(fl, t, bound)
			// A zero bound may stand for -0 or +0, which print differently.
			if !ok || ((t.ID == TypeFloat || t.ID == TypeDouble) && d.F == 0) {
				return false, nil
			}
			if !s.has {
				s.best, s.has = d, true
				continue
			}
			c := planner.Compare(d, s.best, t)
			if (a.Func == "min" && c < 0) || (a.Func == "max" && c > 0) {
				s.best = d
			}
		}
	}
	return true, nil
}

// boundDatum converts a statistics bound (PLAIN bytes) of a scalar field
// to the value a scan of the field would produce.
func boundDatum(fl *format.Field, t Type, v []byte) (planner.Datum, bool) {
	leaf := fl.Leaf
	vals := format.Values{Type: leaf.Type}
	switch leaf.Type {
	case meta.Boolean:
		if len(v) != 1 {
			return planner.Datum{}, false
		}
		vals.Bool = []bool{v[0] != 0}
	case meta.Int32:
		if len(v) != 4 {
			return planner.Datum{}, false
		}
		vals.Int32 = []int32{int32(binary.LittleEndian.Uint32(v))}
	case meta.Int64:
		if len(v) != 8 {
			return planner.Datum{}, false
		}
		vals.Int64 = []int64{int64(binary.LittleEndian.Uint64(v))}
	case meta.Float:
		if len(v) != 4 {
			return planner.Datum{}, false
		}
		vals.Float = []float32{math.Float32frombits(binary.LittleEndian.Uint32(v))}
	case meta.Double:
		if len(v) != 8 {
			return planner.Datum{}, false
		}
		vals.Double = []float64{math.Float64frombits(binary.LittleEndian.Uint64(v))}
	case meta.ByteArray:
		vals.Bytes = [][]byte{v}
	case meta.FixedLenByteArray:
		if len(v) != leaf.TypeLength {
			return planner.Datum{}, false
		}
		vals.Bytes = [][]byte{v}
	default:
		return planner.Datum{}, false
	}
	switch t.ID {
	case TypeNested, TypeInterval, TypeNull:
		return planner.Datum{}, false
	}
	vec := newVector(t, 1)
	vec.appendLeaf(format.LogicalOf(leaf), &vals, 0)
	return datumAt(vec, 0), true
}
