package pushdown

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

func cmpx(path string, op Op, lit Literal) Expr {
	return &Compare{Col: Column{Path: path}, Op: op, Lit: lit}
}

func dec(t testing.TB, s string) Literal {
	t.Helper()
	l, err := ParseDecimal(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestResolve(t *testing.T) {
	s := testSchema(t)
	const day2024 = 19723 // 2024-01-01
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"int = decimal with a fraction can match nothing", cmpx("i32", Eq, dec(t, "1.5")), "FALSE"},
		{"int < 1.5 is int <= 1", cmpx("i32", Lt, dec(t, "1.5")), "i32 <= 1"},
		{"int > 1.5 is int >= 2", cmpx("i32", Gt, dec(t, "1.5")), "i32 >= 2"},
		{"int = 2.00 is int = 2", cmpx("i32", Eq, dec(t, "2.00")), "i32 = 2"},
		{"literal first flips", &Compare{Col: Column{Path: "i32"}, Op: Lt, Lit: IntLiteral(5), LiteralFirst: true}, "i32 > 5"},
		{"INT32 < 5e9 is true for every non-null (required)", cmpx("i32", Lt, FloatLiteral(5e9)), "TRUE"},
		{"INT32 < 5e9 on a nullable column stays NULL for NULL", cmpx("i32n", Lt, FloatLiteral(5e9)), "i32n IS NOT NULL OR NULL"},
		{"INT32 >= 5e9 is never true", cmpx("i32n", Ge, FloatLiteral(5e9)), "i32n IS NULL AND NULL"},
		{"NOT (INT32 < 5e9) is never true either", &Not{X: cmpx("i32n", Lt, FloatLiteral(5e9))}, "i32n IS NULL AND NULL"},
		{"INT32 = 5e9 as an integer literal", cmpx("i32", Eq, IntLiteral(5_000_000_000)), "FALSE"},
		{"INT32 > -5e9", cmpx("i32", Gt, IntLiteral(-5_000_000_000)), "TRUE"},
		{"INT32 <= its maximum", cmpx("i32", Le, IntLiteral(math.MaxInt32)), "TRUE"},
		{"INT32 < its minimum", cmpx("i32", Lt, IntLiteral(math.MinInt32)), "FALSE"},
		{"unsigned = -1", cmpx("u8", Eq, IntLiteral(-1)), "FALSE"},
		{"unsigned >= 0", cmpx("u8", Ge, IntLiteral(0)), "TRUE"},
		{"unsigned > 200", cmpx("u8", Gt, IntLiteral(200)), "u8 > 200"},
		{"UINT64 above INT64", cmpx("u64", Gt, BigIntLiteral(new(big.Int).SetUint64(1<<63))), "u64 > 9223372036854775808"},
		{"UINT64 beyond its range", cmpx("u64", Lt, BigIntLiteral(new(big.Int).Lsh(big.NewInt(1), 64))), "TRUE"},
		{"int = NULL is NULL", cmpx("i32", Eq, NullLiteral()), "NULL"},
		{"int = DOUBLE 2.0", cmpx("i64", Eq, FloatLiteral(2)), "i64 = 2"},
		{"int = DOUBLE 2.5", cmpx("i64", Eq, FloatLiteral(2.5)), "i64 IS NULL AND NULL"},
		{"int = DOUBLE 2^53 holds for 2^53 and 2^53+1 (both round to it)", cmpx("i64", Eq, FloatLiteral(1<<53)),
			"i64 >= 9007199254740992 AND i64 <= 9007199254740993"},
		{"int < DOUBLE NaN", cmpx("i64", Lt, FloatLiteral(math.NaN())), "i64 IS NOT NULL OR NULL"},
		{"int > +Inf", cmpx("i64", Gt, FloatLiteral(math.Inf(1))), "i64 IS NULL AND NULL"},
		{"decimal = decimal of another scale", cmpx("dec", Eq, dec(t, "12.3")), "dec = 12.30"},
		{"decimal = decimal with more digits than its scale", cmpx("dec", Eq, dec(t, "12.345")), "dec IS NULL AND NULL"},
		{"decimal < decimal with more digits", cmpx("dec", Lt, dec(t, "12.345")), "dec <= 12.34"},
		{"decimal = integer", cmpx("dec", Ge, IntLiteral(7)), "dec >= 7.00"},
		{"decimal = DOUBLE 0.1 (DuckDB casts the decimal)", cmpx("dec", Eq, FloatLiteral(0.1)), "dec = 0.10"},
		{"decimal > DOUBLE 0.1", cmpx("dec", Gt, FloatLiteral(0.1)), "dec >= 0.11"},
		{"wide decimal with DOUBLE is not pushed down", cmpx("dec18", Eq, FloatLiteral(0.1)), "dec18 = 0.1::DOUBLE"},
		{"FLBA decimal", cmpx("decb", Le, dec(t, "-1.5")), "decb <= -1.500"},
		{"date < noon of a day", cmpx("day", Lt, TimestampLiteral((day2024*86400+43200)*1e6, meta.Micros)), "day <= DATE '2024-01-01'"},
		{"date = noon can match nothing", cmpx("day", Eq, TimestampLiteral((day2024*86400+43200)*1e6, meta.Micros)), "day IS NULL AND NULL"},
		{"date = midnight", cmpx("day", Eq, TimestampLiteral(day2024*86400*1e6, meta.Micros)), "day = DATE '2024-01-01'"},
		{"timestamp >= date", cmpx("ts", Ge, DateLiteral(day2024)), "ts >= TIMESTAMP '2024-01-01 00:00:00'"},
		{"micros = nanos between two micros", cmpx("ts", Eq, TimestampLiteral(day2024*86400*1e9+1500, meta.Nanos)), "ts IS NULL AND NULL"},
		{"micros > nanos between two micros", cmpx("ts", Gt, TimestampLiteral(day2024*86400*1e9+1500, meta.Nanos)), "ts >= TIMESTAMP '2024-01-01 00:00:00.000002'"},
		{"nanos column = micros literal", cmpx("tsn", Eq, TimestampLiteral(day2024*86400*1e6+1, meta.Micros)), "tsn >= TIMESTAMP_NS '2024-01-01 00:00:00.000001' AND tsn <= TIMESTAMP_NS '2024-01-01 00:00:00.000001999'"},
		{"float = 0.1 (not a FLOAT)", cmpx("f32", Eq, dec(t, "0.1")), "f32 IS NULL AND NULL"},
		{"float < 0.1 is float <= the FLOAT below it", cmpx("f32", Lt, dec(t, "0.1")), "f32 <= 0.099999994"},
		{"float >= 0.1 is float >= the FLOAT above it", cmpx("f32", Ge, dec(t, "0.1")), "f32 >= 0.1"},
		{"float = 0.5 exactly", cmpx("f32", Eq, dec(t, "0.5")), "f32 = 0.5"},
		{"float16 = 0.1 has no FLOAT16 form", cmpx("f16", Eq, dec(t, "0.1")), "f16 IS NULL AND NULL"},
		{"float16 < 0.1", cmpx("f16", Lt, dec(t, "0.1")), "f16 <= 0.0999755859375"},
		{"float16 > -1e9", cmpx("f16", Gt, FloatLiteral(-1e9)), "f16 >= -65504"},
		{"double = NaN", cmpx("f64", Eq, FloatLiteral(math.NaN())), "f64 = NaN"},
		{"double > 1000 (NaN qualifies)", cmpx("f64", Gt, IntLiteral(1000)), "f64 > 1000"},
		{"string", cmpx("s", Ge, StringLiteral("Zürich")), "s >= 'Zürich'"},
		{"blob with string", cmpx("blob", Eq, StringLiteral("ab")), `blob = "ab"`},
		{"uuid", cmpx("uuid", Eq, StringLiteral("00112233-4455-6677-8899-aabbccddeeff")), "uuid = 0x00112233445566778899aabbccddeeff"},
		{"bool", cmpx("flag", Eq, BoolLiteral(true)), "flag = true"},
		{"TIME is not pushed down", cmpx("tm", Lt, IntLiteral(5)), "tm < 5"},
		{"repeated leaf is not pushed down", cmpx("nested", Eq, IntLiteral(5)), "nested = 5"},
		{"IN drops impossible values and keeps NULL", &InList{Col: Column{Path: "i32"}, List: []Literal{IntLiteral(3), dec(t, "1.5"), NullLiteral(), IntLiteral(1), IntLiteral(3)}},
			"i32 IN (1, 3, NULL)"},
		{"NOT IN drops values that always differ", &InList{Col: Column{Path: "i32"}, Not: true, List: []Literal{IntLiteral(1), FloatLiteral(5e9)}}, "i32 NOT IN (1)"},
		{"NOT (x IN list) is NOT IN", &Not{X: &InList{Col: Column{Path: "s"}, List: []Literal{StringLiteral("b"), StringLiteral("a")}}}, "s NOT IN ('a', 'b')"},
		{"IN with a range element", &InList{Col: Column{Path: "i64"}, List: []Literal{IntLiteral(1), FloatLiteral(1 << 53)}},
			"i64 IN (1) OR (i64 >= 9007199254740992 AND i64 <= 9007199254740993)"},
		{"BETWEEN", &Between{Col: Column{Path: "i32"}, Low: IntLiteral(1), High: IntLiteral(9)}, "i32 >= 1 AND i32 <= 9"},
		{"NOT BETWEEN", &Between{Col: Column{Path: "i32"}, Low: IntLiteral(1), High: IntLiteral(9), Not: true}, "i32 < 1 OR i32 > 9"},
		{"NOT (NOT BETWEEN)", &Not{X: &Between{Col: Column{Path: "i32"}, Low: IntLiteral(1), High: IntLiteral(9), Not: true}}, "i32 >= 1 AND i32 <= 9"},
		{"BETWEEN with a NULL end", &Between{Col: Column{Path: "i32"}, Low: NullLiteral(), High: IntLiteral(9)}, "NULL AND i32 <= 9"},
		{"IS NULL on a required column", &IsNull{Col: Column{Path: "i32"}}, "FALSE"},
		{"NOT IS NULL", &Not{X: &IsNull{Col: Column{Path: "s"}}}, "s IS NOT NULL"},
		{"LIKE without wildcards is =", &Like{Col: Column{Path: "s"}, Pattern: "abc"}, "s = 'abc'"},
		{"LIKE prefix", &Like{Col: Column{Path: "s"}, Pattern: "ab%"}, "starts_with(s, 'ab')"},
		{"NOT LIKE prefix", &Not{X: &Like{Col: Column{Path: "s"}, Pattern: "ab%"}}, "NOT starts_with(s, 'ab')"},
		{"LIKE general", &Like{Col: Column{Path: "s"}, Pattern: "a%c"}, "s LIKE 'a%c'"},
		{"starts_with negated", &Not{X: &StartsWith{Col: Column{Path: "s"}, Prefix: "x"}}, "NOT starts_with(s, 'x')"},
		{"De Morgan", &Not{X: &And{Xs: []Expr{cmpx("i32", Eq, IntLiteral(1)), &IsNull{Col: Column{Path: "s"}}}}},
			"i32 != 1 OR s IS NOT NULL"},
		{"De Morgan through OR and NOT", &Not{X: &Or{Xs: []Expr{cmpx("i32", Lt, IntLiteral(1)), &Not{X: cmpx("f64", Ge, IntLiteral(2))}}}},
			"i32 >= 1 AND f64 >= 2"},
		{"constants fold", &And{Xs: []Expr{&Const{True}, &Or{Xs: []Expr{&Const{False}, cmpx("i32", Eq, IntLiteral(1))}}}}, "i32 = 1"},
		{"FALSE wins an AND", &And{Xs: []Expr{cmpx("i32", Eq, IntLiteral(1)), cmpx("i32", Eq, dec(t, "0.5"))}}, "FALSE"},
		{"null-aware TRUE is absorbed by a test of its column", &And{Xs: []Expr{cmpx("i32n", Lt, FloatLiteral(5e9)), cmpx("i32n", Gt, IntLiteral(3))}}, "i32n > 3"},
		{"residual stays", &Or{Xs: []Expr{&Residual{Text: "a = b"}, cmpx("i32", Eq, IntLiteral(1))}}, "a = b OR i32 = 1"},
		{"negated residual", &Not{X: &Residual{Text: "a = b"}}, "NOT (a = b)"},
	}
	for _, tt := range tests {
		got, _, err := Resolve(s, tt.e)
		if err != nil {
			t.Errorf("%s: Resolve(%s): %v", tt.name, tt.e, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("%s: Resolve(%s) = %s, want %s", tt.name, tt.e, got, tt.want)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	s := testSchema(t)
	tests := []struct {
		e    Expr
		want error
	}{
		{cmpx("nope", Eq, IntLiteral(1)), ErrUnknownColumn},
		{cmpx("s", Eq, IntLiteral(1)), ErrType},
		{cmpx("i32", Eq, StringLiteral("1")), ErrType},
		{cmpx("day", Eq, IntLiteral(1)), ErrType},
		{cmpx("ts", Eq, FloatLiteral(1)), ErrType},
		{cmpx("flag", Eq, IntLiteral(1)), ErrType},
		{cmpx("uuid", Eq, StringLiteral("not a uuid")), ErrType},
		{&Like{Col: Column{Path: "i32"}, Pattern: "1%"}, ErrType},
		{&Compare{Col: Column{Path: "i32"}, Op: In, Lit: IntLiteral(1)}, ErrBadPredicate},
		{&And{Xs: []Expr{nil}}, ErrBadPredicate},
	}
	for _, tt := range tests {
		_, _, err := Resolve(s, tt.e)
		if !errors.Is(err, tt.want) {
			t.Errorf("Resolve(%v) error = %v, want %v", tt.e, err, tt.want)
		}
	}
	// Unsupported leaves are residuals, with a note.
	got, notes, err := Resolve(s, cmpx("tm", Lt, IntLiteral(5)))
	if err != nil || len(notes) != 1 {
		t.Fatalf("Resolve(tm < 5) = %v, %v, %v", got, notes, err)
	}
	if _, ok := got.(*Residual); !ok {
		t.Errorf("Resolve(tm < 5) = %T, want a *Residual", got)
	}
}

func TestCoerce(t *testing.T) {
	s := testSchema(t)
	leaf := s.LeafByPath("i32n")
	e, err := Coerce(leaf, Le, dec(t, "7.9"))
	if err != nil || e.String() != "i32n <= 7" {
		t.Errorf("Coerce(i32n <= 7.9) = %v, %v", e, err)
	}
	if _, err := Coerce(leaf, In, IntLiteral(1)); !errors.Is(err, ErrBadPredicate) {
		t.Errorf("Coerce with IN: %v", err)
	}
	if _, err := Coerce(s.LeafByPath("tm"), Eq, IntLiteral(1)); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Coerce on TIME: %v", err)
	}
}
