package stats

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// testSchema is the flattened schema of the footers these tests write: one
// leaf per kind of column whose statistics get misread.
func testSchema() []meta.SchemaElement {
	req, opt := meta.Required, meta.Optional
	e := func(name string, t meta.Type, rep meta.Repetition) meta.SchemaElement {
		return meta.SchemaElement{Name: name, Type: &t, RepetitionType: &rep}
	}
	orderID := e("order_id", meta.Int64, req)
	customer := e("customer_id", meta.Int32, req)
	customer.LogicalType = &meta.LogicalType{Integer: &meta.IntType{BitWidth: 32}}
	customer.ConvertedType = ptr(meta.ConvUint32)
	delta := e("delta", meta.Int32, req)
	delta.LogicalType = &meta.LogicalType{Integer: &meta.IntType{BitWidth: 8, IsSigned: true}}
	delta.ConvertedType = ptr(meta.ConvInt8)
	city := e("city", meta.ByteArray, req)
	city.LogicalType = &meta.LogicalType{String: &struct{}{}}
	city.ConvertedType = ptr(meta.ConvUTF8)
	amount := e("amount", meta.FixedLenByteArray, req)
	amount.TypeLength = ptr(int32(4))
	amount.LogicalType = &meta.LogicalType{Decimal: &meta.DecimalType{Precision: 9, Scale: 2}}
	amount.ConvertedType = ptr(meta.ConvDecimal)
	amount.Precision, amount.Scale = ptr(int32(9)), ptr(int32(2))
	temp := e("temp_c", meta.Double, opt)
	ratio := e("ratio", meta.Float, opt)
	half := e("half", meta.FixedLenByteArray, opt)
	half.TypeLength = ptr(int32(2))
	half.LogicalType = &meta.LogicalType{Float16: &struct{}{}}
	ts := e("ts", meta.Int96, opt)
	flag := e("flag", meta.Boolean, opt)
	leaves := []meta.SchemaElement{orderID, customer, delta, city, amount, temp, ratio, half, ts, flag}
	root := meta.SchemaElement{Name: "schema", NumChildren: ptr(int32(len(leaves)))}
	return append([]meta.SchemaElement{root}, leaves...)
}

// footer writes a one-row-group footer in which only column col has
// statistics, thrift-encodes it and decodes it back, as a reader finds it.
func footer(t *testing.T, createdBy *string, orders []meta.ColumnOrder, col string, s *meta.Statistics, numValues int64) (Column, *meta.ColumnMetaData) {
	t.Helper()
	schema := testSchema()
	md := &meta.FileMetaData{Version: 1, Schema: schema, NumRows: numValues, CreatedBy: createdBy, ColumnOrders: orders}
	rg := meta.RowGroup{NumRows: numValues}
	for _, leaf := range schema[1:] {
		cm := &meta.ColumnMetaData{Type: *leaf.Type, PathInSchema: []string{leaf.Name}, NumValues: numValues, Encodings: []meta.Encoding{meta.Plain}}
		if leaf.Name == col {
			cm.Statistics = s
		}
		rg.Columns = append(rg.Columns, meta.ColumnChunk{MetaData: cm})
	}
	md.RowGroups = []meta.RowGroup{rg}
	got := roundTrip(t, md)
	cols, err := Columns(got)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cols {
		if c.Path == col {
			return c, got.RowGroups[0].Columns[i].MetaData
		}
	}
	t.Fatalf("no column %q", col)
	return Column{}, nil
}

// typeOrders gives every leaf TYPE_ORDER, or, for the named ones, total order.
func typeOrders(total ...string) []meta.ColumnOrder {
	names := []string{}
	for _, e := range testSchema()[1:] {
		names = append(names, e.Name)
	}
	out := make([]meta.ColumnOrder, len(names))
	for i, n := range names {
		out[i] = meta.ColumnOrder{Kind: meta.TypeDefinedOrder}
		for _, tn := range total {
			if n == tn {
				out[i].Kind = meta.IEEE754TotalOrder
			}
		}
	}
	return out
}

var (
	negZero64 = f64b(math.Copysign(0, -1))
	posZero64 = f64b(0)
	nan64     = f64b(math.NaN())
	negNaN64  = f64b(math.Copysign(math.NaN(), -1))
)

func TestChunkBoundsFromWrittenFooters(t *testing.T) {
	modern := ptr("parquet-cpp-arrow version 14.0.1")
	tests := []struct {
		name      string
		createdBy *string
		orders    []meta.ColumnOrder
		col       string
		stats     *meta.Statistics
		numValues int64
		min, max  []byte // the accepted bounds; nil for none
		source    Source
		refused   string // Refused must contain this; "" means Refused is ""
		check     func(t *testing.T, b Bounds)
	}{
		// column_orders.
		{
			name: "no column_orders: min_value/max_value have no order", createdBy: modern, col: "city",
			stats:     &meta.Statistics{MinValue: []byte("Aarhus"), MaxValue: []byte("Łódź"), NullCount: ptr(int64(0))},
			numValues: 4, refused: "the footer has no column_orders, so their order is undefined",
			check: func(t *testing.T, b Bounds) {
				want := "city: min/max refused: the footer has no column_orders, so their order is undefined"
				if got := b.Report()[0]; got != want {
					t.Errorf("report %q, want %q", got, want)
				}
			},
		},
		{
			name: "no column_orders: the deprecated pair stands in for a signed column", createdBy: modern, col: "order_id",
			stats:     &meta.Statistics{MinValue: le64(1), MaxValue: le64(4), Min: le64(1), Max: le64(4), NullCount: ptr(int64(0))},
			numValues: 4, min: le64(1), max: le64(4), source: SourceDeprecated,
			check: func(t *testing.T, b Bounds) { wantNote(t, b, "so the deprecated min/max are used") },
		},
		{
			name: "an unknown column order", createdBy: modern, col: "order_id",
			orders:    append([]meta.ColumnOrder{{Kind: meta.OrderUnknown, UnknownField: 3}}, typeOrders()[1:]...),
			stats:     &meta.Statistics{MinValue: le64(1), MaxValue: le64(4)},
			numValues: 4, refused: "column_orders names an order this reader does not know (union field 3)",
		},
		{
			name: "IEEE_754_TOTAL_ORDER on an integer column", createdBy: modern, col: "order_id", orders: typeOrders("order_id"),
			stats:     &meta.Statistics{MinValue: le64(1), MaxValue: le64(4)},
			numValues: 4, refused: "IEEE_754_TOTAL_ORDER, which applies only to FLOAT, DOUBLE and FLOAT16",
		},
		{
			name: "column_orders of the wrong length", createdBy: modern, col: "order_id",
			orders:    []meta.ColumnOrder{{Kind: meta.TypeDefinedOrder}},
			stats:     &meta.Statistics{MinValue: le64(1), MaxValue: le64(4)},
			numValues: 4, refused: "column_orders has 1 entries for 10 columns",
		},
		// Only the deprecated pair.
		{
			name: "deprecated only, unsigned column", createdBy: modern, col: "customer_id",
			stats:     &meta.Statistics{Min: le32(17), Max: le32(-1294967296), NullCount: ptr(int64(0))},
			numValues: 4, refused: "only the deprecated min/max are present, and writers computed them with signed comparison, but this column is ordered as unsigned 32-bit integers",
		},
		{
			name: "deprecated only, string column", createdBy: modern, col: "city", orders: typeOrders(),
			stats:     &meta.Statistics{Min: []byte("Aarhus"), Max: []byte("Łódź")},
			numValues: 4, refused: "writers computed them with signed comparison, but this column is ordered as unsigned bytes",
		},
		{
			name: "deprecated only, decimal column", createdBy: modern, col: "amount", orders: typeOrders(),
			stats:     &meta.Statistics{Min: []byte{0xff, 0xff, 0xfe, 0x71}, Max: []byte{0, 0, 0x27, 0x10}},
			numValues: 4, refused: "ordered as decimals as big-endian two's complement",
		},
		{
			name: "deprecated only, signed int8 column", createdBy: modern, col: "delta",
			stats:     &meta.Statistics{Min: le32(-128), Max: le32(127), NullCount: ptr(int64(0))},
			numValues: 4, min: le32(-128), max: le32(127), source: SourceDeprecated,
		},
		{
			name: "deprecated only, boolean column", createdBy: modern, col: "flag",
			stats:     &meta.Statistics{Min: []byte{0}, Max: []byte{1}, NullCount: ptr(int64(0))},
			numValues: 4, min: []byte{0}, max: []byte{1}, source: SourceDeprecated,
		},
		{
			name: "deprecated only, equal bounds need no order", createdBy: modern, col: "customer_id",
			stats:     &meta.Statistics{Min: le32(-1), Max: le32(-1), NullCount: ptr(int64(0))},
			numValues: 4, min: le32(-1), max: le32(-1), source: SourceDeprecated,
		},
		// NaN.
		{
			name: "a NaN max under TYPE_ORDER", createdBy: modern, col: "temp_c", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: f64b(1), MaxValue: nan64, NullCount: ptr(int64(0))},
			numValues: 2, refused: "a bound is NaN, which orders nothing outside IEEE_754_TOTAL_ORDER, so both are ignored",
			check: func(t *testing.T, b Bounds) {
				if !b.MayHoldNaN() || !b.MayHoldAbove(f64b(1e9), false) || !b.MayHoldBelow(f64b(-1e9), false) {
					t.Error("refused bounds must keep every comparison")
				}
			},
		},
		{
			name: "a NaN min in the deprecated pair", createdBy: modern, col: "temp_c",
			stats:     &meta.Statistics{Min: nan64, Max: f64b(3)},
			numValues: 2, refused: "only the deprecated min/max are present, and a bound is NaN",
		},
		{
			name: "TYPE_ORDER without nan_count: NaN may lie beyond the max", createdBy: modern, col: "temp_c", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: f64b(-3.25), MaxValue: f64b(25), NullCount: ptr(int64(0))},
			numValues: 4, min: f64b(-3.25), max: f64b(25), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if !b.MayHoldNaN() {
					t.Error("MayHoldNaN = false without nan_count")
				}
				if !b.MayHoldAbove(f64b(1000), false) {
					t.Error("x > 1000 must keep the chunk: a NaN satisfies it")
				}
				if b.MayHoldBelow(f64b(-1000), false) {
					t.Error("x < -1000 can skip: NaN is above every number")
				}
				if !b.MayHoldEqual(nan64) {
					t.Error("x = NaN must keep the chunk")
				}
				if b.MayHoldEqual(f64b(1000)) {
					t.Error("x = 1000 can skip")
				}
				wantNote(t, b, "nan_count is absent, so NaN values may lie beyond the maximum")
			},
		},
		{
			name: "TYPE_ORDER with nan_count 0: the max bounds everything", createdBy: modern, col: "temp_c", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: f64b(-3.25), MaxValue: f64b(25), NullCount: ptr(int64(0)), NanCount: ptr(int64(0))},
			numValues: 4, min: f64b(-3.25), max: f64b(25), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if b.MayHoldNaN() || !b.NoNaN || !b.NaNCountKnown {
					t.Errorf("NoNaN %v, NaNCountKnown %v", b.NoNaN, b.NaNCountKnown)
				}
				if b.MayHoldAbove(f64b(1000), false) || b.MayHoldEqual(nan64) {
					t.Error("x > 1000 and x = NaN can skip")
				}
				if !b.MayHoldAbove(f64b(25), true) || b.MayHoldAbove(f64b(25), false) {
					t.Error("x >= 25 keeps, x > 25 skips")
				}
			},
		},
		{
			name: "TYPE_ORDER: nan_count + null_count = num_values means all NaN", createdBy: modern, col: "temp_c", orders: typeOrders(),
			stats:     &meta.Statistics{NullCount: ptr(int64(1)), NanCount: ptr(int64(3))},
			numValues: 4, refused: "every non-null value is NaN",
			check: func(t *testing.T, b Bounds) {
				if !b.AllNaN || b.MayHoldBelow(f64b(1e300), false) || !b.MayHoldAbove(f64b(1e300), false) || !b.MayHoldEqual(nan64) {
					t.Errorf("all-NaN chunk: AllNaN %v", b.AllNaN)
				}
			},
		},
		{
			name: "TYPE_ORDER zero bounds are widened to -0 and +0", createdBy: modern, col: "temp_c", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: posZero64, MaxValue: negZero64, NullCount: ptr(int64(0)), NanCount: ptr(int64(0))},
			numValues: 2, min: negZero64, max: posZero64, source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				wantNote(t, b, "the minimum is zero, so the chunk may hold both -0 and +0")
				wantNote(t, b, "the maximum is zero, so the chunk may hold both -0 and +0")
				if !b.MayHoldEqual(negZero64) || !b.MayHoldEqual(posZero64) {
					t.Error("both zeros must match")
				}
			},
		},
		{
			name: "total order: -NaN..+NaN with nan_count means all NaN", createdBy: modern, col: "temp_c", orders: typeOrders("temp_c"),
			stats:     &meta.Statistics{MinValue: negNaN64, MaxValue: nan64, NullCount: ptr(int64(0)), NanCount: ptr(int64(3))},
			numValues: 3, refused: "every non-null value is NaN (the bounds are NaN under IEEE_754_TOTAL_ORDER)",
			check: func(t *testing.T, b Bounds) {
				if !b.AllNaN || b.MayHoldBelow(f64b(1), false) || !b.MayHoldAbove(f64b(1), false) {
					t.Error("an all-NaN chunk skips x < 1.0 and keeps x > 1.0")
				}
			},
		},
		{
			name: "total order: -NaN..+NaN without nan_count is unbounded", createdBy: modern, col: "temp_c", orders: typeOrders("temp_c"),
			stats:     &meta.Statistics{MinValue: negNaN64, MaxValue: nan64, NullCount: ptr(int64(0))},
			numValues: 3, refused: "both bounds are NaN and nan_count is absent",
			check: func(t *testing.T, b Bounds) {
				if b.AllNaN || !b.MayHoldBelow(f64b(1), false) {
					t.Error("mixed NaN bounds without nan_count must keep everything")
				}
			},
		},
		{
			name: "total order: +NaN..+NaN is all NaN", createdBy: modern, col: "temp_c", orders: typeOrders("temp_c"),
			stats:     &meta.Statistics{MinValue: nan64, MaxValue: nan64},
			numValues: 3, refused: "every non-null value is NaN",
			check: func(t *testing.T, b Bounds) {
				if !b.AllNaN {
					t.Error("AllNaN = false")
				}
			},
		},
		{
			name: "total order: a +NaN max leaves the max open", createdBy: modern, col: "temp_c", orders: typeOrders("temp_c"),
			stats:     &meta.Statistics{MinValue: f64b(1), MaxValue: nan64, NullCount: ptr(int64(0))},
			numValues: 2, min: f64b(1), source: SourceMinMaxValue, refused: "the maximum is +NaN, so the largest number is unknown",
			check: func(t *testing.T, b Bounds) {
				if b.MayHoldBelow(f64b(1), false) || !b.MayHoldAbove(f64b(1), false) || !b.MayHoldNaN() {
					t.Error("x < 1.0 can skip, x > 1.0 must keep")
				}
			},
		},
		{
			name: "total order: a NaN bound contradicting nan_count 0", createdBy: modern, col: "temp_c", orders: typeOrders("temp_c"),
			stats:     &meta.Statistics{MinValue: f64b(1), MaxValue: nan64, NanCount: ptr(int64(0))},
			numValues: 2, refused: "a bound is NaN but nan_count is 0",
		},
		{
			name: "total order: numeric bounds and nan_count 0 prune both ways", createdBy: modern, col: "temp_c", orders: typeOrders("temp_c"),
			stats:     &meta.Statistics{MinValue: negZero64, MaxValue: f64b(0.5), NullCount: ptr(int64(0)), NanCount: ptr(int64(0))},
			numValues: 2, min: negZero64, max: f64b(0.5), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if b.MayHoldAbove(f64b(1), false) || b.MayHoldBelow(f64b(-1), false) {
					t.Error("x > 1.0 and x < -1.0 can skip")
				}
				if !b.MayHoldEqual(posZero64) {
					t.Error("x = 0.0 matches -0 in SQL")
				}
			},
		},
		{
			name: "total order: numeric bounds without nan_count still may hide NaN", createdBy: modern, col: "temp_c", orders: typeOrders("temp_c"),
			stats:     &meta.Statistics{MinValue: f64b(-1), MaxValue: f64b(0.5), NullCount: ptr(int64(0))},
			numValues: 2, min: f64b(-1), max: f64b(0.5), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if !b.MayHoldAbove(f64b(1), false) || b.MayHoldBelow(f64b(-2), false) {
					t.Error("x > 1.0 keeps (NaN possible), x < -2 skips")
				}
			},
		},
		{
			name: "float16 bounds", createdBy: modern, col: "half", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: []byte{0x00, 0xc0}, MaxValue: []byte{0x00, 0x40}, NullCount: ptr(int64(1)), NanCount: ptr(int64(0))},
			numValues: 8, min: []byte{0x00, 0xc0}, max: []byte{0x00, 0x40}, source: SourceMinMaxValue,
		},
		// Counts.
		{
			name: "null_count absent is not zero", createdBy: modern, col: "order_id", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: le64(1), MaxValue: le64(4)},
			numValues: 4, min: le64(1), max: le64(4), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if b.NullCountKnown || !b.MayHoldNull() {
					t.Error("an absent null_count must leave nulls possible")
				}
				wantNote(t, b, "null_count is absent")
			},
		},
		{
			name: "all null: no bounds, but every comparison skips", createdBy: modern, col: "city", orders: typeOrders(),
			stats:     &meta.Statistics{NullCount: ptr(int64(4))},
			numValues: 4, refused: "every value is null, so there is no minimum or maximum",
			check: func(t *testing.T, b Bounds) {
				v := []byte("x")
				if !b.AllNull || b.MayHoldEqual(v) || b.MayHoldAbove(v, true) || b.MayHoldBelow(v, true) || b.MayHoldNonNull() || !b.MayHoldNull() {
					t.Error("an all-null chunk must skip every comparison and keep IS NULL")
				}
			},
		},
		{
			name: "null_count above num_values is ignored", createdBy: modern, col: "order_id", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: le64(1), MaxValue: le64(4), NullCount: ptr(int64(9))},
			numValues: 4, min: le64(1), max: le64(4), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if b.NullCountKnown || b.AllNull {
					t.Error("an impossible null_count was used")
				}
			},
		},
		{
			name: "null_count zero proves no nulls", createdBy: modern, col: "order_id", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: le64(1), MaxValue: le64(4), NullCount: ptr(int64(0))},
			numValues: 4, min: le64(1), max: le64(4), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if b.MayHoldNull() {
					t.Error("MayHoldNull with null_count 0")
				}
			},
		},
		// Exactness.
		{
			name: "inexact bounds are bounds but not values", createdBy: modern, col: "city", orders: typeOrders(),
			stats: &meta.Statistics{MinValue: []byte("Al"), MaxValue: []byte("Kf"), NullCount: ptr(int64(0)),
				IsMinValueExact: ptr(true), IsMaxValueExact: ptr(false)},
			numValues: 4, min: []byte("Al"), max: []byte("Kf"), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if !b.MinExact || b.MaxExact {
					t.Errorf("MinExact %v MaxExact %v", b.MinExact, b.MaxExact)
				}
				if b.MayHoldEqual([]byte("Kg")) || !b.MayHoldEqual([]byte("Kevin")) {
					t.Error("an inexact max is still a bound")
				}
			},
		},
		{
			name: "string bounds without exactness flags are not values", createdBy: modern, col: "city", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: []byte("Aarhus"), MaxValue: []byte("Łódź")},
			numValues: 4, min: []byte("Aarhus"), max: []byte("Łódź"), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if b.MinExact || b.MaxExact {
					t.Error("unflagged byte-array bounds claimed exact")
				}
			},
		},
		{
			name: "integer bounds without flags are values", createdBy: modern, col: "order_id", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: le64(1), MaxValue: le64(4)},
			numValues: 4, min: le64(1), max: le64(4), source: SourceMinMaxValue,
			check: func(t *testing.T, b Bounds) {
				if !b.MinExact || !b.MaxExact {
					t.Error("fixed-width bounds not exact")
				}
			},
		},
		// Malformed.
		{
			name: "no statistics", createdBy: modern, col: "ratio", orders: typeOrders(),
			stats: nil, numValues: 4, refused: "the writer kept no statistics for this column chunk",
		},
		{
			name: "INT96 has no order", createdBy: modern, col: "ts", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: make([]byte, 12), MaxValue: make([]byte, 12)},
			numValues: 4, refused: "INT96 (legacy timestamps) has no sort order",
		},
		{
			name: "a malformed bound", createdBy: modern, col: "order_id", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: []byte{1, 2, 3}, MaxValue: le64(4)},
			numValues: 4, refused: "the min is malformed",
		},
		{
			name: "min above max", createdBy: modern, col: "customer_id", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: le32(-1), MaxValue: le32(5)},
			numValues: 4, refused: "the min (4294967295) is above the max (5), so the bounds are corrupt",
		},
		{
			name: "a minimum without a maximum", createdBy: modern, col: "city", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: []byte("B"), IsMinValueExact: ptr(true)},
			numValues: 4, min: []byte("B"), source: SourceMinMaxValue, refused: "the writer recorded a minimum but no maximum",
			check: func(t *testing.T, b Bounds) {
				if b.MayHoldBelow([]byte("B"), false) || !b.MayHoldAbove([]byte("zzz"), false) {
					t.Error("only the min may prune")
				}
			},
		},
		{
			name: "an empty string is a valid minimum", createdBy: modern, col: "city", orders: typeOrders(),
			stats:     &meta.Statistics{MinValue: []byte{}, MaxValue: []byte("b"), HasMinValue: true},
			numValues: 4, min: []byte{}, max: []byte("b"), source: SourceMinMaxValue,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, cm := footer(t, tt.createdBy, tt.orders, tt.col, tt.stats, tt.numValues)
			b := ChunkBounds(c, cm.Statistics, cm.NumValues)
			checkBounds(t, b, tt.min, tt.max, tt.source, tt.refused)
			if tt.check != nil {
				tt.check(t, b)
			}
		})
	}
}

// checkBounds asserts the accepted bounds and the refusal.
func checkBounds(t *testing.T, b Bounds, min, max []byte, source Source, refused string) {
	t.Helper()
	if (b.Min == nil) != (min == nil) || string(b.Min) != string(min) {
		t.Errorf("Min = %x, want %x (refused: %s)", b.Min, min, b.Refused)
	}
	if (b.Max == nil) != (max == nil) || string(b.Max) != string(max) {
		t.Errorf("Max = %x, want %x (refused: %s)", b.Max, max, b.Refused)
	}
	if (min != nil || max != nil) && b.Source != source {
		t.Errorf("Source = %v, want %v", b.Source, source)
	}
	switch {
	case refused == "" && b.Refused != "":
		t.Errorf("Refused = %q, want none", b.Refused)
	case refused != "" && !strings.Contains(b.Refused, refused):
		t.Errorf("Refused = %q, want it to say %q", b.Refused, refused)
	}
	if (b.Min == nil || b.Max == nil) && b.Refused == "" {
		t.Error("a missing bound without a reason")
	}
}

func wantNote(t *testing.T, b Bounds, s string) {
	t.Helper()
	for _, n := range b.Notes {
		if strings.Contains(n, s) {
			return
		}
	}
	t.Errorf("no note says %q; notes: %q", s, b.Notes)
}

// TestKnownBadWriters covers each created_by rule of parquet-java's
// CorruptStatistics and Arrow's ApplicationVersion.
func TestKnownBadWriters(t *testing.T) {
	berlin := &meta.Statistics{Min: []byte("Berlin"), Max: []byte("Berlin"), NullCount: ptr(int64(0))}
	tests := []struct {
		name      string
		createdBy *string
		orders    []meta.ColumnOrder
		col       string
		stats     *meta.Statistics
		accepted  bool
		refused   string
	}{
		{"PARQUET-251: parquet-mr 1.6.0, binary", ptr("parquet-mr version 1.6.0 (build 6aa21f8776625b5fa6b18059cfebe7549f2e00cb)"), nil, "city", berlin, false, "PARQUET-251"},
		{"PARQUET-251: parquet-mr 1.7.0, binary", ptr("parquet-mr version 1.7.0"), nil, "city", berlin, false, "parquet-mr before 1.8.0"},
		{"PARQUET-251 fixed in 1.8.0", ptr("parquet-mr version 1.8.0 (build 0fda28af84b9746396014ad6a415b90592a98b3b)"), nil, "city", berlin, true, ""},
		{"PARQUET-251 fixed in CDH 1.5.0-cdh5.5.0", ptr("parquet-mr version 1.5.0-cdh5.5.0 (build abc)"), nil, "city", berlin, true, ""},
		{"PARQUET-251 not fixed in CDH 1.5.0-cdh5.4.0", ptr("parquet-mr version 1.5.0-cdh5.4.0 (build abc)"), nil, "city", berlin, false, "PARQUET-251"},
		{"PARQUET-251 applies to min_value too", ptr("parquet-mr version 1.6.0"), typeOrders(), "city",
			&meta.Statistics{MinValue: []byte("A"), MaxValue: []byte("A")}, false, "PARQUET-251"},
		{"PARQUET-251 does not touch integers", ptr("parquet-mr version 1.6.0"), nil, "order_id",
			&meta.Statistics{Min: le64(1), Max: le64(9)}, true, ""},
		{"PARQUET-297: no created_by, deprecated binary", nil, nil, "city", berlin, false, "PARQUET-297"},
		{"PARQUET-297: empty created_by", ptr(""), nil, "city", berlin, false, "PARQUET-297"},
		{"no created_by does not matter with column_orders", nil, typeOrders(), "city",
			&meta.Statistics{MinValue: []byte("A"), MaxValue: []byte("B")}, true, ""},
		{"parquet-mr without a readable version, binary", ptr("parquet-mr"), nil, "city", berlin, false, "without a readable version"},
		{"PARQUET-686: parquet-mr 1.9.0, unsigned", ptr("parquet-mr version 1.9.0 (build 38262e2c80015d0935dad20f8e18f2d6f9fbd03c)"), nil, "customer_id",
			&meta.Statistics{Min: le32(17), Max: le32(905)}, false, "parquet-mr 1.9.0, which compared every value as signed (PARQUET-686)"},
		{"PARQUET-686: parquet-mr 1.9.0, string", ptr("parquet-mr version 1.9.0"), nil, "city",
			&meta.Statistics{Min: []byte("Aarhus"), Max: []byte("Zürich")}, false, "PARQUET-686"},
		{"PARQUET-686: parquet-cpp 1.2.0, decimal", ptr("parquet-cpp version 1.2.0"), nil, "amount",
			&meta.Statistics{Min: []byte{0, 0, 0, 1}, Max: []byte{0, 0, 0, 2}}, false, "parquet-cpp 1.2.0, which compared every value as signed"},
		{"PARQUET-686: equal bounds are safe", ptr("parquet-mr version 1.9.0"), nil, "city", berlin, true, ""},
		{"PARQUET-686: signed integers are safe", ptr("parquet-mr version 1.9.0"), nil, "order_id",
			&meta.Statistics{Min: le64(-5), Max: le64(9)}, true, ""},
		{"parquet-cpp-arrow is not parquet-cpp", ptr("parquet-cpp-arrow version 1.0.0"), typeOrders(), "customer_id",
			&meta.Statistics{MinValue: le32(17), MaxValue: le32(-1)}, true, ""},
		{"parquet-mr 1.10.0 is fixed", ptr("parquet-mr version 1.10.0"), typeOrders(), "customer_id",
			&meta.Statistics{MinValue: le32(17), MaxValue: le32(-1)}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, cm := footer(t, tt.createdBy, tt.orders, tt.col, tt.stats, 4)
			b := ChunkBounds(c, cm.Statistics, cm.NumValues)
			if got := b.Min != nil && b.Max != nil; got != tt.accepted {
				t.Fatalf("accepted = %v, want %v (refused: %s)", got, tt.accepted, b.Refused)
			}
			if !strings.Contains(b.Refused, tt.refused) {
				t.Fatalf("Refused = %q, want it to say %q", b.Refused, tt.refused)
			}
		})
	}
}

func TestColumnsPaths(t *testing.T) {
	i32 := meta.Int32
	str := meta.ByteArray
	md := &meta.FileMetaData{Schema: []meta.SchemaElement{
		{Name: "root", NumChildren: ptr(int32(2))},
		{Name: "a", NumChildren: ptr(int32(1))},
		{Name: "list", NumChildren: ptr(int32(1))},
		{Name: "element", Type: &i32},
		{Name: "b", Type: &str},
	}, ColumnOrders: []meta.ColumnOrder{{Kind: meta.TypeDefinedOrder}, {Kind: meta.TypeDefinedOrder}},
		CreatedBy: ptr("parquet-mr version 1.6.0")}
	cols, err := Columns(md)
	if err != nil {
		t.Fatal(err)
	}
	if len(cols) != 2 || cols[0].Path != "a.list.element" || cols[1].Path != "b" {
		t.Fatalf("columns %+v", cols)
	}
	if cols[1].ColumnOrder == nil || cols[1].Writer.App != "parquet-mr" {
		t.Fatalf("column b: %+v", cols[1])
	}
}

func TestColumnsMalformed(t *testing.T) {
	i32 := meta.Int32
	tests := []struct {
		name   string
		schema []meta.SchemaElement
	}{
		{"empty", nil},
		{"root without children", []meta.SchemaElement{{Name: "root"}}},
		{"too many children", []meta.SchemaElement{{Name: "root", NumChildren: ptr(int32(3))}, {Name: "a", Type: &i32}}},
		{"child count beyond the list", []meta.SchemaElement{{Name: "root", NumChildren: ptr(int32(1))}, {Name: "g", NumChildren: ptr(int32(1 << 30))}}},
		{"stray elements", []meta.SchemaElement{{Name: "root", NumChildren: ptr(int32(1))}, {Name: "a", Type: &i32}, {Name: "b", Type: &i32}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Columns(&meta.FileMetaData{Schema: tt.schema}); !errors.Is(err, ErrMalformedSchema) {
				t.Fatalf("err = %v, want ErrMalformedSchema", err)
			}
		})
	}
}
