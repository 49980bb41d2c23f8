package planner

import (
	"errors"
	"strings"
	"testing"
)

// pushdownLines are the "pushdown:" lines of a plan's text.
func pushdownLines(t *testing.T, q string) string {
	t.Helper()
	p, err := planWith(t, q, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []string
	for _, l := range strings.Split(p.Explain(), "\n") {
		if strings.Contains(l, "pushdown:") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return strings.Join(out, "\n")
}

// TestSyntaxPrunesAsFunctions checks that the operator and subscript forms
// reach pushdown as the very leaves of the function forms: v['a'] as v.a
// (the shredded-field pruning of VARIANT) and a && b as
// ST_Intersects_Extent (the spatial bounding-box pruning).
func TestSyntaxPrunesAsFunctions(t *testing.T) {
	for _, tc := range []struct{ syntax, function string }{
		{`SELECT id FROM '../fixtures/variant_shredded.parquet' WHERE v['a']::INTEGER > 297`,
			`SELECT id FROM '../fixtures/variant_shredded.parquet' WHERE v.a::INTEGER > 297`},
		{`SELECT id FROM '../fixtures/variant_shredded.parquet' WHERE v['b']::VARCHAR = 's005'`,
			`SELECT id FROM '../fixtures/variant_shredded.parquet' WHERE variant_extract(v, 'b')::VARCHAR = 's005'`},
		{`SELECT id FROM '../fixtures/geo_points.parquet' WHERE geometry && 'POLYGON ((13 52, 13 53, 14 53, 14 52, 13 52))'`,
			`SELECT id FROM '../fixtures/geo_points.parquet' WHERE ST_Intersects_Extent(geometry, 'POLYGON ((13 52, 13 53, 14 53, 14 52, 13 52))')`},
		{`SELECT id FROM '../fixtures/geo_points.parquet' WHERE geometry && 'POINT (13.5 52.5)'::GEOMETRY`,
			`SELECT id FROM '../fixtures/geo_points.parquet' WHERE ST_Intersects_Extent(geometry, ST_GeomFromText('POINT (13.5 52.5)'))`},
	} {
		got, want := pushdownLines(t, tc.syntax), pushdownLines(t, tc.function)
		if got == "" || got != want {
			t.Errorf("%s\n pushdown %q\nwant the function form's %q", tc.syntax, got, want)
		}
	}
}

// TestNestedTypeNames reads nested type names back into their parts.
func TestNestedTypeNames(t *testing.T) {
	st := Type{ID: TypeNested, Name: `STRUCT(a INTEGER, "b c" DECIMAL(9,2), d VARCHAR[], e STRUCT(f MAP(VARCHAR, BIGINT)))`}
	fs, ok := structFields(st)
	if !ok || len(fs) != 4 {
		t.Fatalf("structFields(%s) = %v, %v", st, fs, ok)
	}
	want := []structField{
		{"a", tInteger}, {"b c", Type{ID: TypeDecimal, Precision: 9, Scale: 2}},
		{"d", listOf(tVarchar)}, {"e", Type{ID: TypeNested, Name: "STRUCT(f MAP(VARCHAR, BIGINT))"}},
	}
	for i := range want {
		if fs[i] != want[i] {
			t.Errorf("field %d = %+v, want %+v", i, fs[i], want[i])
		}
	}
	if got := structType(fs); got != st {
		t.Errorf("structType = %s, want %s", got, st)
	}
	if k, v, ok := mapTypes(Type{ID: TypeNested, Name: "MAP(VARCHAR, INTEGER[])"}); !ok || k != tVarchar || v != listOf(tInteger) {
		t.Errorf("mapTypes = %s, %s, %v", k, v, ok)
	}
	if _, ok := structFields(listOf(st)); ok {
		t.Errorf("a LIST of STRUCT read as a STRUCT")
	}
	if c, ok := commonNested(listOf(Type{ID: TypeNull}), listOf(tInteger)); !ok || c != listOf(tInteger) {
		t.Errorf("common type of \"NULL\"[] and INTEGER[] = %s, %v", c, ok)
	}
	if _, ok := commonNested(listOf(tInteger), st); ok {
		t.Errorf("a LIST and a STRUCT have a common type")
	}
}

// TestLambdaErrors checks the binder's errors for misused lambdas.
func TestLambdaErrors(t *testing.T) {
	for _, q := range []string{
		`SELECT list_transform([1], 5)`,
		`SELECT list_transform([1], (a, b, c) -> a)`,
		`SELECT list_reduce([1], x -> x)`,
		`SELECT list_transform(5, x -> x)`,
		`SELECT abs(x -> x)`,
	} {
		if _, err := planWith(t, q, nil); !errors.Is(err, ErrBinder) {
			t.Errorf("%s: %v, want a binder error", q, err)
		}
	}
}
