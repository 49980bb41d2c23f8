package stats

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// statisticsFixture opens fixtures/statistics.parquet, written by
// fixtures/gen with arrow-go; the test skips until it exists.
func statisticsFixture(t *testing.T) *parquetFile {
	t.Helper()
	path := filepath.Join(testcorpus.ModuleRoot(t), "fixtures", "statistics.parquet")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("skipping: %s is not there yet (fixtures/gen writes it): %v", path, err)
	}
	return readParquet(t, path)
}

// statisticsRows are the fixture's rows as fixtures/gen/statistics.go writes
// them (statRows), in DuckDB's text forms; nil is a null. There is no DuckDB
// answer for our own fixture, so the generator's table is the reference.
var statisticsRows = func() *expected {
	s := func(v string) *string { return &v }
	cols := []string{"order_id", "customer_id", "delta", "city", "amount", "amount_ba", "temp_c", "ratio", "coupon", "note"}
	types := []string{"BIGINT", "UINTEGER", "TINYINT", "VARCHAR", "DECIMAL(9,2)", "DECIMAL(12,2)", "DOUBLE", "FLOAT", "VARCHAR", "VARCHAR"}
	rows := [][]*string{
		{s("1"), s("17"), s("-5"), s("Zürich"), s("12.50"), s("1.28"), s("nan"), s("0.5"), s("SPRING10"), s("first order")},
		{s("2"), s("3000000000"), s("12"), s("Łódź"), s("-3.99"), s("-0.01"), s("21.5"), s("nan"), nil, nil},
		{s("3"), s("2147483648"), s("-128"), s("Aarhus"), s("100.00"), s("999999.99"), s("-3.25"), s("2.0"), s("WELCOME"), s("ring twice")},
		{s("4"), s("905"), s("127"), s("Århus"), s("-0.01"), s("1.27"), s("12.0"), s("1.5"), s("VIP20"), s("Łódź office")},
		{s("5"), s("42"), s("0"), s("São Paulo"), s("0.00"), s("-128.00"), s("0.0"), s("nan"), nil, nil},
		{s("6"), s("4294967295"), s("-1"), s("Écija"), s("0.01"), s("2.55"), s("7.5"), s("nan"), nil, s("")},
		{s("7"), s("2147483647"), s("100"), s("Zagreb"), s("-250.00"), s("0.00"), s("3.25"), s("nan"), nil, s("leave with neighbour")},
		{s("8"), s("1000"), s("-100"), s("Reykjavík"), s("99.99"), s("-1.29"), s("1.5"), s("nan"), nil, nil},
		{s("9"), s("2147483649"), s("-2"), s("Ängelholm"), s("-0.50"), s("327.67"), s("-0.0"), s("-0.0"), s("SUMMER5"), s("x")},
		{s("10"), s("7"), s("-3"), s("Aarhus"), s("-7.25"), s("327.68"), s("-1.5"), s("0.0"), s("SUMMER5"), nil},
		{s("11"), s("3999999999"), s("5"), s("Århus"), s("3.00"), s("-327.68"), s("-7.25"), nil, nil, nil},
		{s("12"), s("123456"), s("1"), s("Berlin"), s("0.00"), s("-327.69"), nil, s("1.0"), s("AUTUMN"), s("zzz")},
	}
	return &expected{columns: cols, types: types, rows: rows}
}()

// TestStatisticsFixture runs the corpus checks over the statistics fixture:
// every chunk's and page's accepted bounds contain its values, and each
// refusal says why.
func TestStatisticsFixture(t *testing.T) {
	f := statisticsFixture(t)
	checkFile(t, "statistics.parquet", f, statisticsRows, map[string]string{
		"order_id": "", "customer_id": "", "delta": "", "city": "", "amount": "", "amount_ba": "",
		"temp_c": "", "ratio": "", "coupon": "",
		// Row group 1's ratio is all NaN: the writer kept no bounds.
		"ratio@1": "the statistics record no minimum or maximum",
		// Row group 1's coupon is all null.
		"coupon@1": "every value is null",
		"note":     "the writer kept no statistics",
	})
}

// TestStatisticsFixtureOldWriter replays the chapter's experiment: keep only
// the deprecated min and max, as a writer from before min_value would have.
func TestStatisticsFixtureOldWriter(t *testing.T) {
	f := statisticsFixture(t)
	cols, err := Columns(f.md)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"order_id": "", "delta": "", "temp_c": "",
		// The writer kept no deprecated pair for unsigned integers and strings.
		"customer_id": "the statistics record no minimum or maximum",
		"city":        "the statistics record no minimum or maximum",
		"amount":      "writers computed them with signed comparison, but this column is ordered as decimals",
		"amount_ba":   "writers computed them with signed comparison, but this column is ordered as decimals",
	}
	for _, c := range cols {
		w, ok := want[c.Path]
		if !ok {
			continue
		}
		s := *f.md.RowGroups[0].Columns[indexOf(cols, c.Path)].MetaData.Statistics
		s.MinValue, s.MaxValue, s.HasMinValue, s.HasMaxValue = nil, nil, false, false
		b := ChunkBounds(c, &s, 4)
		switch {
		case w == "" && (b.Min == nil || b.Max == nil || b.Source != SourceDeprecated):
			t.Errorf("%s: not accepted from the deprecated pair: %s", c.Path, b.Refused)
		case w != "" && !bytes.Contains([]byte(b.Refused), []byte(w)):
			t.Errorf("%s: refused %q, want it to say %q", c.Path, b.Refused, w)
		}
	}
	// Without column_orders every chunk with min_value/max_value is refused,
	// and only the signed, non-byte-array columns fall back to min/max.
	for _, c := range cols {
		c.ColumnOrder = nil
		cm := f.md.RowGroups[0].Columns[indexOf(cols, c.Path)].MetaData
		b := ChunkBounds(c, cm.Statistics, cm.NumValues)
		switch c.Path {
		case "order_id", "delta", "temp_c", "ratio":
			if b.Source != SourceDeprecated {
				t.Errorf("%s without column_orders: source %v (%s)", c.Path, b.Source, b.Refused)
			}
		case "note":
		default:
			if b.Min != nil || !bytes.Contains([]byte(b.Refused), []byte("the footer has no column_orders")) {
				t.Errorf("%s without column_orders: %q", c.Path, b.Refused)
			}
		}
	}
}

func indexOf(cols []Column, path string) int {
	for i, c := range cols {
		if c.Path == path {
			return i
		}
	}
	return -1
}

// The mistaken orders of chapter 8: each compares a column's bytes in a way
// some reader or writer once did.
var mistakenOrders = []struct {
	name   string
	column string
	cmp    func(a, b []byte) int
}{
	{"signed comparison of an unsigned integer", "customer_id", func(a, b []byte) int {
		return cmp3(int32(binary.LittleEndian.Uint32(a)), int32(binary.LittleEndian.Uint32(b)))
	}},
	{"unsigned comparison of a signed integer", "delta", func(a, b []byte) int {
		return cmp3(binary.LittleEndian.Uint32(a), binary.LittleEndian.Uint32(b))
	}},
	{"Java's signed bytes for UTF-8", "city", javaBytes},
	{"unsigned bytes for a two's complement decimal", "amount", bytes.Compare},
	{"Java's signed bytes for a decimal of several bytes", "amount_ba", javaBytes},
	{"a double's bits as a signed integer", "temp_c", func(a, b []byte) int {
		return cmp3(int64(binary.LittleEndian.Uint64(a)), int64(binary.LittleEndian.Uint64(b)))
	}},
	{"an integer's little-endian bytes as a string", "customer_id", bytes.Compare},
}

// javaBytes compares byte by byte as Java's signed byte, the order parquet-mr
// used before PARQUET-686 was fixed.
func javaBytes(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := cmp3(int32(int8(a[i])), int32(int8(b[i]))); c != 0 {
			return c
		}
	}
	return cmp3(len(a), len(b))
}

// TestMistakenOrders shows that each mistaken order finds the wrong minimum
// or maximum in at least one of the fixture's row groups, while the chosen
// order finds the bounds the writer recorded in every row group.
func TestMistakenOrders(t *testing.T) {
	f := statisticsFixture(t)
	cols, err := Columns(f.md)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mistakenOrders {
		t.Run(m.name, func(t *testing.T) {
			k := indexOf(cols, m.column)
			if k < 0 {
				t.Fatalf("no column %s", m.column)
			}
			c := cols[k]
			o := mustOrder(t, c.Leaf)
			wrong := 0
			firstRow := 0
			for g, rg := range f.md.RowGroups {
				values, ok := columnValues(t, "statistics.parquet", f, statisticsRows, c, g, k, firstRow, int(rg.NumRows))
				firstRow += int(rg.NumRows)
				if !ok {
					t.Fatal("no values")
				}
				cm := rg.Columns[k].MetaData
				b := ChunkBounds(c, cm.Statistics, cm.NumValues)
				if b.Min == nil || b.Max == nil {
					t.Fatalf("row group %d: bounds refused: %s", g, b.Refused)
				}
				lo, hi := extremes(values, o, o.Compare)
				if o.Compare(lo, b.Min) != 0 || o.Compare(hi, b.Max) != 0 {
					t.Errorf("row group %d: the chosen order (%s) finds %s..%s, the footer says %s..%s",
						g, o.Name(), o.Format(lo), o.Format(hi), o.Format(b.Min), o.Format(b.Max))
				}
				mlo, mhi := extremes(values, o, m.cmp)
				if o.Compare(mlo, b.Min) != 0 || o.Compare(mhi, b.Max) != 0 {
					wrong++
					t.Logf("row group %d: %s finds %s..%s, the footer says %s..%s", g, m.name,
						o.Format(mlo), o.Format(mhi), o.Format(b.Min), o.Format(b.Max))
					// The damage: a value the mistaken bounds leave out.
					if out := outside(values, o, mlo, mhi); out == nil {
						t.Errorf("row group %d: mistaken bounds %s..%s exclude no value", g, o.Format(mlo), o.Format(mhi))
					}
				}
			}
			if wrong == 0 {
				t.Errorf("%s got every row group of %s right", m.name, m.column)
			}
		})
	}
}

// extremes finds the least and greatest non-null, non-NaN values under cmp.
func extremes(values [][]byte, o Order, cmp func(a, b []byte) int) (lo, hi []byte) {
	for _, v := range values {
		if v == nil || o.IsNaN(v) {
			continue
		}
		if lo == nil || cmp(v, lo) < 0 {
			lo = v
		}
		if hi == nil || cmp(v, hi) > 0 {
			hi = v
		}
	}
	return lo, hi
}

// outside returns a value that bounds lo..hi, read in the correct order, would skip.
func outside(values [][]byte, o Order, lo, hi []byte) []byte {
	for _, v := range values {
		if v != nil && !o.IsNaN(v) && (o.Compare(v, lo) < 0 || o.Compare(v, hi) > 0) {
			return v
		}
	}
	return nil
}
