package pushdown

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

func le32(v uint32) []byte  { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte  { return binary.LittleEndian.AppendUint64(nil, v) }
func f32b(v float32) []byte { return le32(math.Float32bits(v)) }
func f64b(v float64) []byte { return le64(math.Float64bits(v)) }

// twos is n as big-endian two's complement in w bytes.
func twos(n int64, w int) []byte {
	b := make([]byte, w)
	binary.BigEndian.PutUint64(b[w-8:], uint64(n))
	if n < 0 {
		for i := 0; i < w-8; i++ {
			b[i] = 0xff
		}
	}
	return b
}

const day2024 = 19723

// gridValues are PLAIN values of each synthetic column, edges included.
var gridValues = map[string][][]byte{
	"i32":   {le32(1 << 31), le32(math.MaxUint32), le32(0), le32(1), le32(2), le32(5), le32(math.MaxInt32)},
	"i32n":  {le32(1 << 31), le32(0), le32(1), le32(3), le32(4), le32(math.MaxInt32)},
	"u8":    {le32(0), le32(1), le32(200), le32(255), le32(math.MaxUint32)},
	"i64":   {le64(1 << 63), le64(math.MaxUint64), le64(0), le64(1), le64(2), le64(1<<53 - 1), le64(1 << 53), le64(1<<53 + 1), le64(1<<53 + 2), le64(math.MaxInt64)},
	"u64":   {le64(0), le64(1), le64(1 << 63), le64(math.MaxUint64)},
	"dec":   {le64(uint64(1<<64 - 1234)), le64(0), le64(9), le64(10), le64(11), le64(1230), le64(1234), le64(1235)},
	"decb":  {twos(-1501, 9), twos(-1500, 9), twos(-1499, 9), twos(0, 9), twos(1500, 9), twos(math.MaxInt64, 9)},
	"dec18": {le64(0), le64(10), le64(999999999999999999)},
	"day":   {le32(day2024 - 1), le32(day2024), le32(day2024 + 1)},
	"ts":    {le64(day2024*86400e6 - 1), le64(day2024 * 86400e6), le64(day2024*86400e6 + 1), le64(day2024*86400e6 + 2), le64(day2024*86400e6 + 43200e6)},
	"tsn":   {le64(day2024 * 86400e9), le64(day2024*86400e9 + 1000), le64(day2024*86400e9 + 1500)},
	"f32": {f32b(0.1), f32b(0.099999994), f32b(float32(math.Copysign(0, -1))), f32b(0), f32b(float32(math.NaN())),
		f32b(float32(math.Inf(1))), f32b(float32(math.Inf(-1))), f32b(0.5), f32b(1e30), f32b(-3)},
	"f64": {f64b(0.1), f64b(math.NaN()), f64b(math.Copysign(0, -1)), f64b(0), f64b(math.Inf(1)), f64b(math.Inf(-1)),
		f64b(1000), f64b(1000.0000001), f64b(1 << 53), f64b(-7.5)},
	"s":    {[]byte(""), []byte("a"), []byte("ab"), []byte("abc"), []byte("abd"), []byte("Zürich"), []byte("\xff"), []byte("a%c")},
	"blob": {[]byte(""), []byte("ab"), []byte("\x00\xff")},
	"uuid": {make([]byte, 16), []byte("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff"), []byte("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff")},
	"flag": {{0}, {1}},
	"f16": {{0xff, 0xfb}, {0x00, 0x80}, {0, 0}, {0x00, 0x3e}, {0x00, 0x7e}, {0x00, 0x7c}, {0x00, 0xfc}, {0x66, 0x2e}, {0x67, 0x2e},
		{0x00, 0xc0}, {0x01, 0x00}, {0x01, 0x80}, {0xff, 0x7b}},
}

func gridLiterals(t testing.TB) []Literal {
	huge, _ := new(big.Int).SetString("100000000000000000000000", 10)
	return []Literal{
		NullLiteral(), IntLiteral(0), IntLiteral(1), IntLiteral(2), IntLiteral(3), IntLiteral(-1), IntLiteral(200), IntLiteral(255),
		IntLiteral(5_000_000_000), IntLiteral(-5_000_000_000), IntLiteral(1 << 53), IntLiteral(1<<53 + 1), IntLiteral(math.MaxInt64),
		BigIntLiteral(huge), BigIntLiteral(new(big.Int).SetUint64(1 << 63)), IntLiteral(1000),
		dec(t, "1.5"), dec(t, "0.1"), dec(t, "0.10"), dec(t, "12.3"), dec(t, "12.345"), dec(t, "-1.5"), dec(t, "-1.501"), dec(t, "2.00"),
		FloatLiteral(0.1), FloatLiteral(2.5), FloatLiteral(2), FloatLiteral(5e9), FloatLiteral(math.NaN()), FloatLiteral(math.Inf(1)),
		FloatLiteral(math.Inf(-1)), FloatLiteral(math.Copysign(0, -1)), FloatLiteral(1 << 53), FloatLiteral(0.5), FloatLiteral(1e30), FloatLiteral(1000),
		FloatLiteral(12.34), FloatLiteral(-12.34),
		DateLiteral(day2024), DateLiteral(day2024 + 1), TimestampLiteral((day2024*86400+43200)*1e6, meta.Micros),
		TimestampLiteral(day2024*86400*1e6, meta.Micros), TimestampLiteral(day2024*86400*1e9+1500, meta.Nanos),
		TimestampLiteral(day2024*86400*1e3+1, meta.Millis),
		StringLiteral(""), StringLiteral("a"), StringLiteral("ab"), StringLiteral("abd"), StringLiteral("Zürich"), StringLiteral("\xff"),
		StringLiteral("00112233-4455-6677-8899-aabbccddeeff"), BytesLiteral([]byte("ab")),
		BoolLiteral(true), BoolLiteral(false),
	}
}

// TestEvalAgreesWithResolve holds Coerce to Eval's independent reading of
// values: for every column, literal, operator and value (NULL included), the
// planner's predicate and its resolved form have the same truth value, and
// so do their negations.
func TestEvalAgreesWithResolve(t *testing.T) {
	s := testSchema(t)
	lits := gridLiterals(t)
	checked := 0
	for path, values := range gridValues {
		leaf := s.LeafByPath(path)
		var exprs []Expr
		for _, l := range lits {
			for op := Eq; op <= Ge; op++ {
				exprs = append(exprs, &Compare{Col: Column{Path: path}, Op: op, Lit: l})
				exprs = append(exprs, &Compare{Col: Column{Path: path}, Op: op, Lit: l, LiteralFirst: true})
			}
			exprs = append(exprs, &Between{Col: Column{Path: path}, Low: l, High: lits[len(lits)/2]})
			exprs = append(exprs, &InList{Col: Column{Path: path}, List: []Literal{l, IntLiteral(1), FloatLiteral(2)}})
		}
		exprs = append(exprs, &InList{Col: Column{Path: path}, List: []Literal{lits[5], lits[20], NullLiteral()}, Not: true})
		exprs = append(exprs, &IsNull{Col: Column{Path: path}})
		for _, p := range []string{"a%", "ab", "%c", "a_c", "", "%", "Z%", "\xff%"} {
			exprs = append(exprs, &Like{Col: Column{Path: path}, Pattern: p}, &StartsWith{Col: Column{Path: path}, Prefix: p})
		}
		for _, e := range exprs {
			for _, neg := range []bool{false, true} {
				if neg {
					e = &Not{X: e}
				}
				bound, err := Bind(s, e)
				if err != nil {
					t.Fatal(err)
				}
				resolved, _, err := Resolve(s, e)
				if errors.Is(err, ErrType) {
					continue // a type error the planner reports; Eval says NULL
				}
				if err != nil {
					t.Fatalf("Resolve(%s): %v", e, err)
				}
				var rows []mapRow
				if leaf.MaxDef > 0 {
					rows = append(rows, mapRow{}) // NULL, for nullable columns only
				}
				for _, v := range values {
					rows = append(rows, mapRow{leaf.Index: v})
				}
				for _, row := range rows {
					want, got := Eval(bound, row), Eval(resolved, row)
					if want != got {
						v, _ := row.Value(leaf.Index)
						t.Errorf("%s on %s = %x: planner form %v, resolved form %s gives %v", e, path, v, want, resolved, got)
					}
					checked++
				}
			}
		}
	}
	if checked < 10000 {
		t.Errorf("only %d checks ran", checked)
	}
}

func TestEvalSemantics(t *testing.T) {
	s := testSchema(t)
	nan := f64b(math.NaN())
	f := s.LeafByPath("f64").Index
	str := s.LeafByPath("s").Index
	tests := []struct {
		e    Expr
		row  mapRow
		want Truth
	}{
		{cmpx("f64", Gt, IntLiteral(1000)), mapRow{f: nan}, True}, // NaN is greatest
		{cmpx("f64", Eq, FloatLiteral(math.NaN())), mapRow{f: nan}, True},
		{cmpx("f64", Lt, FloatLiteral(math.NaN())), mapRow{f: f64b(math.Inf(1))}, True},
		{cmpx("f64", Ne, FloatLiteral(math.NaN())), mapRow{f: nan}, False},
		{cmpx("f64", Eq, FloatLiteral(0)), mapRow{f: f64b(math.Copysign(0, -1))}, True}, // -0 = +0
		{cmpx("f64", Eq, IntLiteral(1)), mapRow{}, Unknown},
		{&IsNull{Col: Column{Path: "f64"}}, mapRow{}, True},
		{&InList{Col: Column{Path: "s"}, List: []Literal{StringLiteral("a"), NullLiteral()}}, mapRow{str: []byte("b")}, Unknown},
		{&InList{Col: Column{Path: "s"}, List: []Literal{StringLiteral("a"), NullLiteral()}}, mapRow{str: []byte("a")}, True},
		{&InList{Col: Column{Path: "s"}, List: []Literal{StringLiteral("a"), NullLiteral()}, Not: true}, mapRow{str: []byte("b")}, Unknown},
		{&InList{Col: Column{Path: "s"}, List: []Literal{StringLiteral("a")}, Not: true}, mapRow{str: []byte("b")}, True},
		{&Or{Xs: []Expr{&Const{Unknown}, &Const{True}}}, mapRow{}, True},
		{&And{Xs: []Expr{&Const{Unknown}, &Const{False}}}, mapRow{}, False},
		{&And{Xs: []Expr{&Const{Unknown}, &Const{True}}}, mapRow{}, Unknown},
		{&Not{X: &Const{Unknown}}, mapRow{}, Unknown},
		{&Residual{Text: "x", Func: func(Row) Truth { return True }}, mapRow{}, True},
		{&Residual{Text: "x"}, mapRow{}, Unknown},
	}
	for _, tt := range tests {
		b, err := Bind(s, tt.e)
		if err != nil {
			t.Fatal(err)
		}
		if got := Eval(b, tt.row); got != tt.want {
			t.Errorf("Eval(%s) = %v, want %v", tt.e, got, tt.want)
		}
	}
	// An unbound column is NULL.
	if got := Eval(cmpx("f64", Eq, IntLiteral(1)), mapRow{f: f64b(1)}); got != Unknown {
		t.Errorf("Eval on an unbound column = %v", got)
	}
}

func TestTruthTables(t *testing.T) {
	vals := []Truth{False, True, Unknown}
	and := [3][3]Truth{{False, False, False}, {False, True, Unknown}, {False, Unknown, Unknown}}
	or := [3][3]Truth{{False, True, Unknown}, {True, True, True}, {Unknown, True, Unknown}}
	for i, a := range vals {
		for j, b := range vals {
			if a.And(b) != and[i][j] || a.Or(b) != or[i][j] {
				t.Errorf("%v AND/OR %v = %v/%v", a, b, a.And(b), a.Or(b))
			}
			// De Morgan holds in Kleene logic.
			if a.And(b).Not() != a.Not().Or(b.Not()) {
				t.Errorf("De Morgan fails for %v, %v", a, b)
			}
		}
	}
}
