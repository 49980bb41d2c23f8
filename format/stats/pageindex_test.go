package stats

import (
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
)

// indexRoundTrip thrift-encodes a column index and decodes it back.
func indexRoundTrip(t *testing.T, ci *meta.ColumnIndex) *meta.ColumnIndex {
	t.Helper()
	b, err := thrift.EncodeColumnIndex(ci)
	if err != nil {
		t.Fatal(err)
	}
	out, err := thrift.DecodeColumnIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// testColumn is the named column of testSchema with the given footer facts.
func testColumn(t *testing.T, name string, orders []meta.ColumnOrder, createdBy string) Column {
	t.Helper()
	md := &meta.FileMetaData{Schema: testSchema(), ColumnOrders: orders, CreatedBy: &createdBy}
	cols, err := Columns(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cols {
		if c.Path == name {
			return c
		}
	}
	t.Fatalf("no column %q", name)
	return Column{}
}

func TestPageBounds(t *testing.T) {
	const modern = "parquet-cpp-arrow version 14.0.1"
	ints := &meta.ColumnIndex{
		NullPages:  []bool{false, true, false},
		MinValues:  [][]byte{le64(1), {}, le64(10)},
		MaxValues:  [][]byte{le64(5), {}, le64(20)},
		NullCounts: []int64{0, 100, 3},
	}
	temps := &meta.ColumnIndex{
		NullPages: []bool{false, false, false, false},
		MinValues: [][]byte{f64b(-1), nan64, negNaN64, negZero64},
		MaxValues: [][]byte{f64b(2), nan64, nan64, f64b(3)},
		NanCounts: []int64{0, 7, 2, 1},
	}
	legacyTemps := &meta.ColumnIndex{
		NullPages: []bool{false, false},
		MinValues: [][]byte{f64b(-1), posZero64},
		MaxValues: [][]byte{nan64, f64b(3)},
	}
	cities := &meta.ColumnIndex{
		NullPages: []bool{false},
		MinValues: [][]byte{[]byte("Aarhus")},
		MaxValues: [][]byte{[]byte("Łódź")},
	}
	tests := []struct {
		name     string
		col      string
		orders   []meta.ColumnOrder
		ci       *meta.ColumnIndex
		page     int
		min, max []byte
		refused  string
		check    func(t *testing.T, b Bounds)
	}{
		{name: "a page of integers", col: "order_id", orders: typeOrders(), ci: ints, page: 0, min: le64(1), max: le64(5),
			check: func(t *testing.T, b Bounds) {
				if !b.NullCountKnown || b.NullCount != 0 || b.MayHoldNull() || !b.MinExact {
					t.Errorf("counts %+v", b)
				}
				if b.MayHoldAbove(le64(5), false) || !b.MayHoldAbove(le64(4), false) {
					t.Error("x > 5 skips, x > 4 keeps")
				}
			}},
		{name: "a null page", col: "order_id", orders: typeOrders(), ci: ints, page: 1, refused: "the page holds only nulls",
			check: func(t *testing.T, b Bounds) {
				if !b.AllNull || b.MayHoldEqual(le64(0)) || !b.MayHoldNull() {
					t.Error("a null page must skip comparisons and keep IS NULL")
				}
			}},
		{name: "no column_orders", col: "order_id", ci: ints, page: 2, refused: "the footer has no column_orders"},
		{name: "page out of range", col: "order_id", orders: typeOrders(), ci: ints, page: 3, refused: "the column index has 3 pages, so page 3 is not in it"},
		{name: "malformed index", col: "order_id", orders: typeOrders(), page: 0,
			ci:      &meta.ColumnIndex{NullPages: []bool{false, false}, MinValues: [][]byte{le64(1)}, MaxValues: [][]byte{le64(1)}},
			refused: "the column index is malformed: 2 null_pages, 1 min_values, 1 max_values"},
		{name: "strings from an index are bounds only", col: "city", orders: typeOrders(), ci: cities, page: 0, min: []byte("Aarhus"), max: []byte("Łódź"),
			check: func(t *testing.T, b Bounds) {
				if b.MinExact || b.MaxExact {
					t.Error("column index strings claimed exact")
				}
				wantNote(t, b, "the column index has no null_counts")
			}},
		{name: "total order, numbers, nan_counts 0", col: "temp_c", orders: typeOrders("temp_c"), ci: temps, page: 0, min: f64b(-1), max: f64b(2),
			check: func(t *testing.T, b Bounds) {
				if b.MayHoldNaN() || b.MayHoldAbove(f64b(2), false) {
					t.Error("no NaN: x > 2 skips")
				}
			}},
		{name: "total order, a NaN-only page is indexable", col: "temp_c", orders: typeOrders("temp_c"), ci: temps, page: 1, refused: "every non-null value is NaN",
			check: func(t *testing.T, b Bounds) {
				if !b.AllNaN || b.MayHoldBelow(f64b(1), false) || b.MayHoldEqual(f64b(1)) || !b.MayHoldAbove(f64b(1), false) || !b.MayHoldEqual(nan64) {
					t.Error("a NaN-only page skips x < 1 and x = 1, keeps x > 1 and x = NaN")
				}
			}},
		{name: "total order, -NaN..+NaN with nan_counts", col: "temp_c", orders: typeOrders("temp_c"), ci: temps, page: 2, refused: "every non-null value is NaN",
			check: func(t *testing.T, b Bounds) {
				if !b.AllNaN {
					t.Error("AllNaN = false")
				}
			}},
		{name: "total order, -0 min stays", col: "temp_c", orders: typeOrders("temp_c"), ci: temps, page: 3, min: negZero64, max: f64b(3),
			check: func(t *testing.T, b Bounds) {
				if !b.MayHoldNaN() || !b.MayHoldAbove(f64b(100), false) {
					t.Error("nan_counts 1: x > 100 keeps")
				}
			}},
		{name: "TYPE_ORDER, legacy NaN bound", col: "temp_c", orders: typeOrders(), ci: legacyTemps, page: 0, refused: "a bound is NaN"},
		{name: "TYPE_ORDER, zero min widened", col: "temp_c", orders: typeOrders(), ci: legacyTemps, page: 1, min: negZero64, max: f64b(3),
			check: func(t *testing.T, b Bounds) { wantNote(t, b, "may hold both -0 and +0") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testColumn(t, tt.col, tt.orders, modern)
			b := PageBounds(c, indexRoundTrip(t, tt.ci), tt.page)
			if tt.min != nil || tt.max != nil {
				checkBounds(t, b, tt.min, tt.max, SourceColumnIndex, tt.refused)
			} else {
				checkBounds(t, b, nil, nil, SourceNone, tt.refused)
			}
			if tt.check != nil {
				tt.check(t, b)
			}
		})
	}
	if b := PageBounds(testColumn(t, "order_id", typeOrders(), modern), nil, 0); !strings.Contains(b.Refused, "no column index") {
		t.Errorf("nil index: %q", b.Refused)
	}
}

func TestIndexOrder(t *testing.T) {
	const modern = "parquet-cpp-arrow version 14.0.1"
	idx := func(order meta.BoundaryOrder, nulls []bool, mins, maxs []int64) *meta.ColumnIndex {
		ci := &meta.ColumnIndex{BoundaryOrder: order, NullPages: nulls}
		for i := range nulls {
			if nulls[i] {
				ci.MinValues, ci.MaxValues = append(ci.MinValues, []byte{}), append(ci.MaxValues, []byte{})
				continue
			}
			ci.MinValues, ci.MaxValues = append(ci.MinValues, le64(mins[i])), append(ci.MaxValues, le64(maxs[i]))
		}
		return ci
	}
	tests := []struct {
		name   string
		orders []meta.ColumnOrder
		ci     *meta.ColumnIndex
		want   meta.BoundaryOrder
		why    string
	}{
		{"ascending", typeOrders(), idx(meta.Ascending, []bool{false, false, false}, []int64{1, 5, 5}, []int64{4, 9, 12}), meta.Ascending, ""},
		{"ascending with overlap and a null page", typeOrders(), idx(meta.Ascending, []bool{false, true, false}, []int64{1, 0, 3}, []int64{10, 0, 11}), meta.Ascending, ""},
		{"descending", typeOrders(), idx(meta.Descending, []bool{false, false}, []int64{5, 1}, []int64{9, 4}), meta.Descending, ""},
		{"ascending claim contradicted by the mins", typeOrders(), idx(meta.Ascending, []bool{false, false}, []int64{5, 1}, []int64{9, 10}), meta.Unordered,
			"boundary_order says ASCENDING, but page 1's min 1 is out of order after page 0's min 5"},
		{"ascending claim contradicted by the maxes", typeOrders(), idx(meta.Ascending, []bool{false, false}, []int64{1, 2}, []int64{9, 8}), meta.Unordered,
			"page 1's max 8 is out of order"},
		{"unordered", typeOrders(), idx(meta.Unordered, []bool{false}, []int64{1}, []int64{2}), meta.Unordered, "boundary_order UNORDERED"},
		{"unknown boundary order", typeOrders(), idx(meta.BoundaryOrder(7), []bool{false}, []int64{1}, []int64{2}), meta.Unordered, "boundary_order 7 is unknown"},
		{"no column_orders", nil, idx(meta.Ascending, []bool{false}, []int64{1}, []int64{2}), meta.Unordered, "the footer has no column_orders"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testColumn(t, "order_id", tt.orders, modern)
			got, why := IndexOrder(c, indexRoundTrip(t, tt.ci))
			if got != tt.want {
				t.Fatalf("IndexOrder = %v (%s), want %v", got, why, tt.want)
			}
			if (tt.why == "") != (why == "") || !strings.Contains(why, tt.why) {
				t.Fatalf("why = %q, want %q", why, tt.why)
			}
		})
	}
}
