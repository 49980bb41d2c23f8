package exec

import (
	"math/big"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
)

// newResultVector allocates an empty vector of t; HUGEINT values are kept
// as big integers.
func newResultVector(t Type, n int) *Vector {
	if t.ID == TypeHugeInt {
		return &Vector{Type: t, Big: make([]*big.Int, 0, n)}
	}
	if t.ID == TypeNull {
		return &Vector{Type: t, Int: make([]int64, 0, n)}
	}
	return newVector(t, n)
}

// appendDatum appends d to v.
func (v *Vector) appendDatum(d planner.Datum) {
	if d.Null {
		v.appendNull()
		return
	}
	t := v.Type
	switch {
	case t.ID == TypeBoolean:
		v.Bool = append(v.Bool, d.B)
	case t.ID == TypeFloat || t.ID == TypeDouble:
		v.Float = append(v.Float, d.F)
	case t.ID == TypeVarchar:
		v.Str = append(v.Str, d.S)
	case t.ID == TypeHugeInt || wideDecimal(t):
		b := d.Big
		if b == nil {
			b = big.NewInt(d.I)
		}
		v.Big = append(v.Big, b)
	case t.ID == TypeDecimal:
		if d.Big != nil {
			v.Int = append(v.Int, d.Big.Int64())
		} else {
			v.Int = append(v.Int, d.I)
		}
	case t.ID == TypeBlob || t.ID == TypeUUID || t.ID == TypeInterval:
		v.Bytes = append(v.Bytes, d.Bytes)
	case t.ID == TypeNested:
		v.Nested = append(v.Nested, d.N)
	default:
		v.Int = append(v.Int, d.I)
	}
	v.markNotNull()
}

// datumAt reads row i of v.
func datumAt(v *Vector, i int) planner.Datum {
	if v.IsNull(i) {
		return planner.NullDatum
	}
	t := v.Type
	switch {
	case t.ID == TypeBoolean:
		return planner.Datum{B: v.Bool[i]}
	case t.ID == TypeFloat || t.ID == TypeDouble:
		return planner.Datum{F: v.Float[i]}
	case t.ID == TypeVarchar:
		return planner.Datum{S: v.Str[i]}
	case v.Big != nil:
		return planner.Datum{Big: v.Big[i]}
	case t.ID == TypeDecimal || t.ID == TypeHugeInt:
		return planner.Datum{Big: big.NewInt(v.Int[i])}
	case t.ID == TypeBlob || t.ID == TypeUUID || t.ID == TypeInterval:
		return planner.Datum{Bytes: v.Bytes[i]}
	case t.ID == TypeNested:
		return planner.Datum{N: v.Nested[i]}
	}
	return planner.Datum{I: v.Int[i]}
}

// fieldVector converts the decoded data of one field into a vector of its
// rows in decoded order, with each row's row-group row index.
func fieldVector(f *format.Field, data map[int]*format.ColumnData) (*Vector, []int64, error) {
	t := typeOfField(f)
	first := data[f.Leaves[0].Index]
	var rows []int64
	for _, p := range first.Pages {
		for r := p.FirstRow; r < p.FirstRow+p.NumRows; r++ {
			rows = append(rows, r)
		}
	}
	if f.Kind == format.ScalarField {
		cd := first
		v := newVector(t, cd.NumEntries)
		lg := format.LogicalOf(f.Leaf)
		vi := 0
		for i := 0; i < cd.NumEntries; i++ {
			if cd.IsNull(i) {
				v.appendNull()
				continue
			}
			if vi >= cd.Values.Len() {
				return nil, nil, errCorrupt(f.Name, "fewer values than non-null entries")
			}
			v.appendLeaf(lg, &cd.Values, vi)
			vi++
		}
		if rows == nil {
			rows = seq(int64(cd.NumEntries))
		}
		if len(rows) != v.Len() {
			return nil, nil, errCorrupt(f.Name, "page row counts do not match the entries")
		}
		return v, rows, nil
	}
	a, err := format.NewAssembler(f, data)
	if err != nil {
		return nil, nil, err
	}
	v := newVector(t, len(rows))
	for {
		val, ok, err := a.Next()
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		if val == nil {
			v.appendNull()
		} else {
			v.Nested = append(v.Nested, val)
			v.markNotNull()
		}
	}
	if rows == nil {
		rows = seq(int64(v.Len()))
	}
	if len(rows) != v.Len() {
		return nil, nil, errCorrupt(f.Name, "page row counts do not match the assembled rows")
	}
	return v, rows, nil
}

func seq(n int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}
