package pushdown

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"sort"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
)

// treeGen draws random predicate trees over a decoded file: every operator
// the planner produces, literals from the data and just outside it, NULLs,
// NaN and infinities, nested to depth 4.
type treeGen struct {
	r    *rand.Rand
	d    *fileData
	cols []genCol
}

type genCol struct {
	leaf    *format.Leaf
	ci      colInfo
	compare bool     // comparisons are pushed down (else only IS NULL)
	values  [][]byte // distinct non-null values, sorted in the column's order
}

func newTreeGen(d *fileData, seed int64) *treeGen {
	g := &treeGen{r: rand.New(rand.NewSource(seed)), d: d}
	for _, c := range d.flat {
		leaf := d.f.Schema.Leaves[c]
		gc := genCol{leaf: leaf}
		ci, err := infoOf(Column{Path: leaf.Path, Leaf: leaf})
		gc.ci = ci
		gc.compare = err == nil && ci.class != classNull
		seen := map[string]bool{}
		for _, rd := range d.rgs {
			vals := rd.vals[c]
			for i := 0; i < len(vals); i += 1 + len(vals)/300 {
				if !rd.null[c][i] && !seen[string(vals[i])] {
					seen[string(vals[i])] = true
					gc.values = append(gc.values, vals[i])
				}
			}
		}
		if gc.compare {
			o := ci.order
			sort.Slice(gc.values, func(i, j int) bool { return o.Compare(gc.values[i], gc.values[j]) < 0 })
		}
		if len(gc.values) == 0 {
			gc.compare = false
		}
		g.cols = append(g.cols, gc)
	}
	return g
}

func (g *treeGen) tree(depth int) Expr {
	if depth >= 4 || g.r.Intn(10) < 4 {
		return g.leaf()
	}
	switch g.r.Intn(5) {
	case 0, 1:
		return &And{Xs: g.kids(depth)}
	case 2, 3:
		return &Or{Xs: g.kids(depth)}
	}
	return &Not{X: g.tree(depth + 1)}
}

func (g *treeGen) kids(depth int) []Expr {
	n := 2 + g.r.Intn(2)
	out := make([]Expr, n)
	for i := range out {
		out[i] = g.tree(depth + 1)
	}
	return out
}

func (g *treeGen) leaf() Expr {
	if len(g.cols) == 0 || g.r.Intn(40) == 0 {
		return &Const{Truth(g.r.Intn(3))}
	}
	gc := g.cols[g.r.Intn(len(g.cols))]
	col := Column{Path: gc.leaf.Path}
	if !gc.compare || g.r.Intn(12) == 0 {
		return &IsNull{Col: col, Not: g.r.Intn(2) == 0}
	}
	if g.r.Intn(25) == 0 {
		return g.residual(gc)
	}
	text := gc.ci.class == classBytes && gc.ci.text
	switch k := g.r.Intn(20); {
	case k < 9:
		return &Compare{Col: col, Op: Op(g.r.Intn(6)), Lit: g.literal(gc), LiteralFirst: g.r.Intn(5) == 0}
	case k < 12:
		n := 1 + g.r.Intn(4)
		list := make([]Literal, n)
		for i := range list {
			list[i] = g.literal(gc)
		}
		return &InList{Col: col, List: list, Not: g.r.Intn(3) == 0}
	case k < 15:
		a, b := g.literal(gc), g.literal(gc)
		return &Between{Col: col, Low: a, High: b, Not: g.r.Intn(3) == 0}
	case k < 18 && text:
		return &Like{Col: col, Pattern: g.pattern(gc), Not: g.r.Intn(3) == 0}
	case text:
		v := g.value(gc)
		return &StartsWith{Col: col, Prefix: string(v[:g.r.Intn(len(v)+1)])}
	}
	return &Compare{Col: col, Op: Op(g.r.Intn(6)), Lit: g.literal(gc)}
}

// residual is a condition pushdown cannot see into: whether the value's
// first byte is even (NULL for NULL).
func (g *treeGen) residual(gc genCol) Expr {
	idx := gc.leaf.Index
	return &Residual{Text: fmt.Sprintf("first_byte_even(%s)", gc.leaf.Path), Columns: []string{gc.leaf.Path},
		Func: func(row Row) Truth {
			v, ok := row.Value(idx)
			if !ok {
				return Unknown
			}
			return truth(len(v) > 0 && v[0]%2 == 0)
		}}
}

func (g *treeGen) value(gc genCol) []byte {
	// Favour the ends: bounds are most often decided there.
	switch g.r.Intn(6) {
	case 0:
		return gc.values[0]
	case 1:
		return gc.values[len(gc.values)-1]
	}
	return gc.values[g.r.Intn(len(gc.values))]
}

func (g *treeGen) pattern(gc genCol) string {
	v := string(g.value(gc))
	cut := g.r.Intn(len(v) + 1)
	switch g.r.Intn(7) {
	case 0:
		return v
	case 1:
		return v[:cut] + "%"
	case 2:
		return "%" + v[cut:]
	case 3:
		if len(v) > 0 {
			return v[:cut] + "_" + v[min(cut+1, len(v)):]
		}
		return "_"
	case 4:
		return v[:cut] + "%" + v[cut:]
	case 5:
		return "%"
	}
	return v[:cut] + "zz%"
}

// literal draws a literal for gc: a value of the data, one next to it, one
// beyond every value, a NULL, or a literal of another type that still
// compares (a DOUBLE with an integer, a timestamp with a date).
func (g *treeGen) literal(gc genCol) Literal {
	if g.r.Intn(20) == 0 {
		return NullLiteral()
	}
	v := g.value(gc)
	lg := gc.ci.logical
	pick := g.r.Intn(10)
	switch gc.ci.class {
	case classBool:
		return BoolLiteral(g.r.Intn(2) == 0)
	case classBytes, classUUID:
		s := v
		switch pick {
		case 0:
			s = append(append([]byte{}, v...), 0)
		case 1:
			s = v[:g.r.Intn(len(v)+1)]
		case 2:
			s = append(append([]byte{}, v...), 'z')
		case 3:
			s = []byte{}
		case 4:
			s = []byte{0xff, 0xff}
		case 5:
			if e := prefixEnd(v); e != nil {
				s = e
			}
		}
		if gc.ci.class == classUUID {
			if len(s) != 16 {
				s = v
			}
			h := hex.EncodeToString(s)
			return StringLiteral(h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:])
		}
		if lg.Kind == format.KindBlob || g.r.Intn(8) == 0 {
			return BytesLiteral(s)
		}
		return StringLiteral(string(s))
	case classFloat:
		x := logicalOf(gc.leaf, v).f
		switch pick {
		case 0:
			return FloatLiteral(math.NaN())
		case 1:
			return FloatLiteral(math.Inf(1 - 2*g.r.Intn(2)))
		case 2:
			return FloatLiteral(math.Copysign(0, float64(1-2*g.r.Intn(2))))
		case 3:
			return FloatLiteral(math.Nextafter(x, math.Inf(1-2*g.r.Intn(2))))
		case 4:
			if !math.IsNaN(x) && !math.IsInf(x, 0) && math.Abs(x) < 1e15 {
				l, _ := ParseDecimal(fmt.Sprintf("%.3f", x))
				return l
			}
		case 5:
			return IntLiteral(int64(g.r.Intn(2001) - 1000))
		}
		return FloatLiteral(x)
	}
	// Integers in some unit: ints, decimals, dates, timestamps.
	u, _ := storedInt(gc, v)
	step := big.NewInt(int64(1 - 2*g.r.Intn(2)))
	switch gc.ci.temporal {
	case temporalDate:
		days := u.Int64()
		switch pick {
		case 0, 1:
			return DateLiteral(days + step.Int64())
		case 2:
			return TimestampLiteral((days*86400+43200)*1e6, meta.Micros)
		case 3:
			return TimestampLiteral(days*86400*1e6, meta.Micros)
		}
		return DateLiteral(days)
	case temporalTimestamp:
		x := u.Int64()
		unit := lg.Unit
		switch pick {
		case 0, 1:
			return TimestampLiteral(x+step.Int64(), unit)
		case 2:
			if unit != meta.Nanos && x < math.MaxInt64/1000 && x > math.MinInt64/1000 {
				return TimestampLiteral(x*1000+500, meta.Nanos)
			}
		case 3:
			return DateLiteral(floorDiv(x, 86400*unitsPerSecond(unit)))
		}
		return TimestampLiteral(x, unit)
	}
	scale := gc.ci.scale
	lit := func(n *big.Int) Literal {
		if scale == 0 && g.r.Intn(2) == 0 {
			return BigIntLiteral(n)
		}
		return DecimalLiteral(n, scale)
	}
	switch pick {
	case 0, 1:
		return lit(new(big.Int).Add(u, step))
	case 2: // half a unit off: never equal
		n := new(big.Int).Mul(u, big.NewInt(10))
		return DecimalLiteral(n.Add(n, big.NewInt(5*step.Int64())), scale+1)
	case 3: // beyond the column's range
		far := new(big.Int).Lsh(big.NewInt(1), 70)
		if g.r.Intn(2) == 0 {
			far.Neg(far)
		}
		return BigIntLiteral(far)
	case 4:
		return FloatLiteral(5e9 * float64(1-2*g.r.Intn(2)))
	case 5:
		if gc.ci.doubleCast {
			f, _ := new(big.Rat).SetFrac(u, pow10(scale)).Float64()
			if g.r.Intn(2) == 0 {
				f = math.Nextafter(f, math.Inf(1-2*g.r.Intn(2)))
			}
			return FloatLiteral(f)
		}
	case 6:
		if gc.ci.doubleCast {
			return FloatLiteral([]float64{math.NaN(), math.Inf(1), math.Inf(-1)}[g.r.Intn(3)])
		}
	}
	return lit(u)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// storedInt is the integer an integer-class column stores in v.
func storedInt(gc genCol, v []byte) (*big.Int, bool) {
	switch gc.ci.order.Kind() {
	case stats.KindInt32:
		return big.NewInt(int64(int32(binary.LittleEndian.Uint32(v)))), true
	case stats.KindUint32:
		return big.NewInt(int64(binary.LittleEndian.Uint32(v))), true
	case stats.KindInt64:
		return big.NewInt(int64(binary.LittleEndian.Uint64(v))), true
	case stats.KindUint64:
		return new(big.Int).SetUint64(binary.LittleEndian.Uint64(v)), true
	case stats.KindDecimalBytes:
		n := new(big.Int).SetBytes(v)
		if len(v) > 0 && v[0]&0x80 != 0 {
			n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(v))))
		}
		return n, true
	}
	return big.NewInt(0), false
}

// randomOptions enables every mechanism half the time, else a random subset.
func randomOptions(r *rand.Rand) Options {
	if r.Intn(2) == 0 {
		return AllMechanisms()
	}
	return Options{Statistics: r.Intn(2) == 0, PageIndex: r.Intn(2) == 0, Bloom: r.Intn(2) == 0, Dictionary: r.Intn(2) == 0}
}

// describe prints a tree for a failure message.
func describe(e Expr) string { return strings.TrimSpace(e.String()) }
