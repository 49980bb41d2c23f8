package pushdown

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
)

// A Row gives Eval the values of one row.
type Row interface {
	// Value returns leaf column leaf's value in PLAIN physical form (as
	// format.Values.PlainBytes writes it); ok is false when it is NULL.
	Value(leaf int) (plain []byte, ok bool)
}

// Eval evaluates e on one row with SQL three-valued logic and DuckDB's
// semantics (NaN equals NaN and is greatest; -0 equals +0). Its columns must
// be bound (Bind, Resolve); an unbound column, a Residual without Func or a
// comparison of mismatched types is Unknown.
//
// Comparisons of the planner's tree (Compare, InList, ...) are evaluated on
// the values' logical meaning, by a path independent of Coerce, so tests can
// hold one against the other; resolved Cond leaves compare physical bytes.
func Eval(e Expr, row Row) Truth {
	switch n := e.(type) {
	case *Const:
		return n.Value
	case *Not:
		return Eval(n.X, row).Not()
	case *And:
		t := True
		for _, x := range n.Xs {
			if t = t.And(Eval(x, row)); t == False {
				return False
			}
		}
		return t
	case *Or:
		t := False
		for _, x := range n.Xs {
			if t = t.Or(Eval(x, row)); t == True {
				return True
			}
		}
		return t
	case *Residual:
		if n.Func == nil {
			return Unknown
		}
		return n.Func(row)
	case *Spatial:
		if n.Row == nil {
			return Unknown
		}
		return n.Row(row)
	case *VariantCompare:
		if n.Row == nil {
			return Unknown
		}
		return n.Row(row)
	case *Cond:
		if n.Col.Leaf == nil {
			return Unknown
		}
		v, ok := row.Value(n.Col.Leaf.Index)
		return n.test(v, ok)
	case *IsNull:
		if n.Col.Leaf == nil {
			return Unknown
		}
		_, ok := row.Value(n.Col.Leaf.Index)
		return truth(ok == n.Not)
	case *Compare:
		x, ok := columnValue(n.Col, row)
		if !ok || n.Lit.IsNull() {
			return Unknown
		}
		c, ok := compareLogical(x, literalValue(n.Lit, x))
		if !ok {
			return Unknown
		}
		op := n.Op
		if n.LiteralFirst {
			op = op.Flip()
		}
		return truth(holds(op, c))
	case *Between:
		x, ok := columnValue(n.Col, row)
		if !ok {
			return Unknown
		}
		ge := cmpTruth(x, n.Low, Ge)
		le := cmpTruth(x, n.High, Le)
		t := ge.And(le)
		if n.Not {
			return t.Not()
		}
		return t
	case *InList:
		x, ok := columnValue(n.Col, row)
		if !ok {
			return Unknown
		}
		t := False
		for _, l := range n.List {
			t = t.Or(cmpTruth(x, l, Eq))
		}
		if n.Not {
			return t.Not()
		}
		return t
	case *Like:
		x, ok := columnValue(n.Col, row)
		if !ok {
			return Unknown
		}
		if x.k != lBytes {
			return Unknown
		}
		return truth(likeMatch(x.b, n.Pattern, n.Escape) != n.Not)
	case *StartsWith:
		x, ok := columnValue(n.Col, row)
		if !ok {
			return Unknown
		}
		if x.k != lBytes {
			return Unknown
		}
		return truth(bytes.HasPrefix(x.b, []byte(n.Prefix)))
	}
	return Unknown
}

// cmpTruth is x op l in three-valued logic.
func cmpTruth(x lval, l Literal, op Op) Truth {
	if l.IsNull() {
		return Unknown
	}
	c, ok := compareLogical(x, literalValue(l, x))
	if !ok {
		return Unknown
	}
	return truth(holds(op, c))
}

func holds(op Op, c int) bool {
	switch op {
	case Eq:
		return c == 0
	case Ne:
		return c != 0
	case Lt:
		return c < 0
	case Le:
		return c <= 0
	case Gt:
		return c > 0
	case Ge:
		return c >= 0
	}
	return false
}

// lkind is the logical class of a value.
type lkind int8

const (
	lNone  lkind = iota
	lNum         // exact rational: integers, decimals
	lFloat       // IEEE double (FLOAT widened)
	lTime        // exact instant in seconds: dates, timestamps
	lBytes       // strings, blobs, UUIDs
	lBool
)

// lval is a value by its meaning, not its bytes.
type lval struct {
	k    lkind
	r    *big.Rat
	f    float64
	b    []byte
	t    bool
	uuid bool // a UUID column: string literals are parsed
}

// columnValue reads a bound column's value in row by its logical type.
func columnValue(c Column, row Row) (lval, bool) {
	if c.Leaf == nil {
		return lval{}, false
	}
	v, ok := row.Value(c.Leaf.Index)
	if !ok {
		return lval{}, false
	}
	return logicalOf(c.Leaf, v), true
}

// logicalOf interprets PLAIN bytes of leaf by its logical type, with the
// sign its sort order gives integers.
func logicalOf(leaf *format.Leaf, v []byte) lval {
	lg := format.LogicalOf(leaf)
	o, ok, _ := stats.OrderOf(leaf.Element)
	if !ok || leaf.MaxRep > 0 {
		return lval{}
	}
	integer := func() (*big.Int, bool) {
		switch o.Kind() {
		case stats.KindInt32:
			if len(v) == 4 {
				return big.NewInt(int64(int32(binary.LittleEndian.Uint32(v)))), true
			}
		case stats.KindUint32:
			if len(v) == 4 {
				return big.NewInt(int64(binary.LittleEndian.Uint32(v))), true
			}
		case stats.KindInt64:
			if len(v) == 8 {
				return big.NewInt(int64(binary.LittleEndian.Uint64(v))), true
			}
		case stats.KindUint64:
			if len(v) == 8 {
				return new(big.Int).SetUint64(binary.LittleEndian.Uint64(v)), true
			}
		case stats.KindDecimalBytes:
			n := new(big.Int).SetBytes(v)
			if len(v) > 0 && v[0]&0x80 != 0 {
				n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(v))))
			}
			return n, true
		}
		return nil, false
	}
	switch lg.Kind {
	case format.KindBoolean:
		if len(v) == 1 {
			return lval{k: lBool, t: v[0] != 0}
		}
	case format.KindInt8, format.KindInt16, format.KindInt32, format.KindInt64,
		format.KindUint8, format.KindUint16, format.KindUint32, format.KindUint64:
		if n, ok := integer(); ok {
			return lval{k: lNum, r: new(big.Rat).SetInt(n)}
		}
	case format.KindDecimal:
		if n, ok := integer(); ok {
			return lval{k: lNum, r: new(big.Rat).SetFrac(n, pow10(int32(lg.Scale)))}
		}
	case format.KindDate:
		if n, ok := integer(); ok {
			return lval{k: lTime, r: new(big.Rat).SetInt(n.Mul(n, big.NewInt(86400)))}
		}
	case format.KindTimestamp, format.KindTimestampTZ:
		per := unitsPerSecond(lg.Unit)
		if n, ok := integer(); ok && per > 0 {
			if lg.Kind == format.KindTimestampTZ && lg.Unit == meta.Nanos && n.IsInt64() && n.CmpAbs(big.NewInt(math.MaxInt64)) != 0 {
				// Read as microseconds truncated toward zero (see
				// nanosAsMicros); ±MaxInt64 are the infinities either way.
				n.Quo(n, thousand).Mul(n, thousand)
			}
			return lval{k: lTime, r: new(big.Rat).SetFrac(n, big.NewInt(per))}
		}
	case format.KindFloat, format.KindDouble, format.KindFloat16:
		switch {
		case o.Kind() == stats.KindFloat32 && len(v) == 4:
			return lval{k: lFloat, f: float64(math.Float32frombits(binary.LittleEndian.Uint32(v)))}
		case o.Kind() == stats.KindFloat64 && len(v) == 8:
			return lval{k: lFloat, f: math.Float64frombits(binary.LittleEndian.Uint64(v))}
		case o.Kind() == stats.KindFloat16 && len(v) == 2:
			return lval{k: lFloat, f: stats.Float16(binary.LittleEndian.Uint16(v))}
		}
	case format.KindString, format.KindBlob:
		return lval{k: lBytes, b: v}
	case format.KindUUID:
		return lval{k: lBytes, b: v, uuid: true}
	}
	return lval{}
}

// literalValue interprets a literal for comparison with x.
func literalValue(l Literal, x lval) lval {
	switch l.Kind {
	case LitBool:
		return lval{k: lBool, t: l.Bool}
	case LitInt, LitDecimal:
		if r, ok := l.rat(); ok {
			return lval{k: lNum, r: r}
		}
	case LitFloat:
		return lval{k: lFloat, f: l.Float}
	case LitDate, LitTimestamp:
		if r, ok := l.seconds(); ok {
			return lval{k: lTime, r: r}
		}
	case LitString:
		if x.uuid {
			if u, ok := parseUUID(l.Str); ok {
				return lval{k: lBytes, b: u}
			}
			return lval{}
		}
		return lval{k: lBytes, b: []byte(l.Str)}
	case LitBytes:
		return lval{k: lBytes, b: l.Bytes}
	}
	return lval{}
}

// compareLogical orders a column value x against a literal value l, by the
// semantics documented in coerce.go; ok is false for mismatched types.
func compareLogical(x, l lval) (int, bool) {
	switch {
	case x.k == lNum && l.k == lNum, x.k == lTime && l.k == lTime:
		return x.r.Cmp(l.r), true
	case x.k == lNum && l.k == lFloat:
		d, _ := x.r.Float64() // the column cast to DOUBLE, nearest
		return stats.CompareFloat(d, l.f), true
	case x.k == lFloat && l.k == lNum:
		d, _ := l.r.Float64()
		return stats.CompareFloat(x.f, d), true
	case x.k == lFloat && l.k == lFloat:
		return stats.CompareFloat(x.f, l.f), true
	case x.k == lBytes && l.k == lBytes:
		return bytes.Compare(x.b, l.b), true
	case x.k == lBool && l.k == lBool:
		switch {
		case x.t == l.t:
			return 0, true
		case l.t:
			return -1, true
		}
		return 1, true
	}
	return 0, false
}
