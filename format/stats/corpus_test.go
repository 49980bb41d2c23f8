package stats

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// expected is DuckDB's answer for one corpus file (see ../shared/expected/README.md).
type expected struct {
	columns []string
	types   []string
	rows    [][]*string // nil entries are NULL
}

func readExpected(t *testing.T, path string) *expected {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var e expected
	first := true
	for sc.Scan() {
		if first {
			var head struct {
				Columns []string `json:"columns"`
				Types   []string `json:"types"`
				Error   string   `json:"error"`
			}
			if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if head.Error != "" {
				t.Fatalf("%s: DuckDB refused the file: %s", path, head.Error)
			}
			e.columns, e.types, first = head.Columns, head.Types, false
			continue
		}
		var raw []json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		row := make([]*string, len(raw))
		for i, r := range raw {
			var s *string
			if err := json.Unmarshal(r, &s); err != nil {
				t.Fatalf("%s: value %s is not text (hashed long values are not supported here): %v", path, r, err)
			}
			row[i] = s
		}
		e.rows = append(e.rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return &e
}

// fromText parses DuckDB's text for a value back into the column's PLAIN
// physical form; kinds without a text form here (INT96) are an error.
func fromText(o Order, duckType, text string) ([]byte, error) {
	switch o.Kind() {
	case KindBool:
		return o.Bool(text == "true")
	case KindInt32, KindInt64, KindDecimalBytes:
		if _, isDecimal := o.Decimal(); isDecimal {
			n, err := parseDecimalText(text)
			if err != nil {
				return nil, err
			}
			return o.DecimalUnscaled(n)
		}
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, err
		}
		return o.Int(n)
	case KindUint32, KindUint64:
		n, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			return nil, err
		}
		return o.Uint(n)
	case KindFloat32, KindFloat64, KindFloat16:
		neg := strings.HasPrefix(text, "-")
		var f float64
		switch strings.TrimPrefix(text, "-") {
		case "nan":
			f = math.NaN()
			if neg {
				f = math.Copysign(f, -1)
			}
		default:
			bits := 64
			if o.Kind() != KindFloat64 {
				bits = 32
			}
			var err error
			if f, err = strconv.ParseFloat(text, bits); err != nil {
				return nil, err
			}
		}
		return o.Float(f)
	case KindBytes:
		if duckType == "BLOB" {
			return unescapeBlob(text)
		}
		return []byte(text), nil
	}
	return nil, fmt.Errorf("no text form for %s", o.Kind())
}

// parseDecimalText reads "-12.30" as the unscaled integer -1230.
func parseDecimalText(s string) (*big.Int, error) {
	n, ok := new(big.Int).SetString(strings.Replace(s, ".", "", 1), 10)
	if !ok {
		return nil, fmt.Errorf("not a decimal: %q", s)
	}
	return n, nil
}

// unescapeBlob undoes DuckDB's \xNN escapes of non-printable bytes.
func unescapeBlob(s string) ([]byte, error) {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' {
			b, err := hex.DecodeString(s[i+2 : i+4])
			if err != nil {
				return nil, err
			}
			out = append(out, b...)
			i += 3
			continue
		}
		out = append(out, s[i])
	}
	return out, nil
}

// decodedValues is the hook for the lead's page reader: once package format
// decodes every leaf (nested ones included) in physical form, set it so the
// containment checks below also cover nested leaves, whose values DuckDB's
// text does not give back one leaf at a time. Each entry is one value or nil
// for a null, in file order; ok=false means "not available".
var decodedValues = func(t *testing.T, file string, rg, col int) (values [][]byte, ok bool) { return nil, false }

// corpusCase names a file and what the rules must decide for its columns:
// "" means both bounds accepted, anything else is a piece of the reason the
// bounds were refused. Keys are dotted paths, optionally "path@rowgroup".
type corpusCase struct {
	file string
	want map[string]string
}

var corpusCases = []corpusCase{
	{"binary_truncated_min_max", map[string]string{
		"utf8_full_truncation": "", "binary_full_truncation": "", "utf8_partial_truncation": "",
		"binary_partial_truncation": "", "utf8_no_truncation": "", "binary_no_truncation": "",
	}},
	{"floating_orders_nan_count", map[string]string{
		"float_ieee754": "", "double_ieee754": "", "float16_ieee754": "",
		"float_typedef": "", "double_typedef": "", "float16_typedef": "",
		// Row group 1 mixes NaN with numbers: under TYPE_ORDER the writer kept no bounds.
		"float_typedef@1": "the statistics record no minimum or maximum", "double_typedef@1": "the statistics record no minimum or maximum",
		"float16_typedef@1": "the statistics record no minimum or maximum",
		// Row group 2 is all NaN.
		"float_ieee754@2": "every non-null value is NaN", "double_ieee754@2": "every non-null value is NaN", "float16_ieee754@2": "every non-null value is NaN",
		"float_typedef@2": "every non-null value is NaN", "double_typedef@2": "every non-null value is NaN", "float16_typedef@2": "every non-null value is NaN",
	}},
	{"float16_nonzeros_and_nans", map[string]string{"x": ""}},
	{"float16_zeros_and_nans", map[string]string{"x": ""}},
	{"nan_in_stats", map[string]string{"x": "a bound is NaN"}},
	{"single_nan", map[string]string{"mycol": "every value is null"}},
	{"int32_decimal", map[string]string{"value": ""}},
	{"int64_decimal", map[string]string{"value": ""}},
	{"fixed_length_decimal", map[string]string{"value": "parquet-mr 1.8.2, which compared every value as signed (PARQUET-686)"}},
	{"fixed_length_decimal_legacy", map[string]string{"value": "parquet-mr 1.8.2, which compared every value as signed (PARQUET-686)"}},
	{"byte_array_decimal", map[string]string{"value": "the writer kept no statistics"}},
	{"nonnullable.impala", map[string]string{
		"ID": "", "Int_Array.list.element": "", "Int_Map.map.key": "",
		"nested_Struct.G.map.key": "every value is null",
	}},
	{"nullable.impala", map[string]string{
		"id": "", "int_array.list.element": "", "int_map.map.value": "",
		"int_map.map.key": "PARQUET-686",
		"nested_struct.C.d.list.element.list.element.F": "PARQUET-686",
	}},
	{"int96_from_spark", map[string]string{"a": "INT96 (legacy timestamps) has no sort order"}},
}

func TestCorpusBounds(t *testing.T) {
	shared := testcorpus.Shared(t)
	for _, tc := range corpusCases {
		t.Run(tc.file, func(t *testing.T) {
			f := readParquet(t, filepath.Join(shared, "parquet-testing", "data", tc.file+".parquet"))
			exp := readExpected(t, filepath.Join(shared, "expected", "data", tc.file+".parquet.jsonl"))
			checkFile(t, tc.file, f, exp, tc.want)
		})
	}
}

// checkFile checks every column chunk and page of a file: the outcome the
// table wants, a reason for every refusal, and, where the values are known,
// that the accepted bounds contain every one of them.
func checkFile(t *testing.T, name string, f *parquetFile, exp *expected, want map[string]string) {
	t.Helper()
	cols, err := Columns(f.md)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	firstRow := 0
	for g, rg := range f.md.RowGroups {
		for i, c := range cols {
			cm := rg.Columns[i].MetaData
			if cm == nil {
				t.Fatalf("row group %d column %s: no metadata", g, c.Path)
			}
			b := ChunkBounds(c, cm.Statistics, cm.NumValues)
			where := fmt.Sprintf("row group %d, %s", g, c.Path)
			if (b.Min == nil || b.Max == nil) && b.Refused == "" {
				t.Errorf("%s: bounds missing without a reason", where)
			}
			if w, ok := outcome(want, c.Path, g); ok {
				seen[c.Path] = true
				switch {
				case w == "" && (b.Min == nil || b.Max == nil):
					t.Errorf("%s: bounds refused: %s", where, b.Refused)
				case w != "" && !strings.Contains(b.Refused, w):
					t.Errorf("%s: refused %q, want it to say %q", where, b.Refused, w)
				}
			}
			values, ok := columnValues(t, name, f, exp, c, g, i, firstRow, int(rg.NumRows))
			if !ok {
				continue
			}
			checkContains(t, where, b, values)
			checkPages(t, where, f, c, g, i, values)
		}
		firstRow += int(rg.NumRows)
	}
	for k := range want {
		if p, _, _ := strings.Cut(k, "@"); !seen[p] {
			t.Errorf("no column %s in %s", p, name)
		}
	}
}

func outcome(want map[string]string, path string, g int) (string, bool) {
	if w, ok := want[fmt.Sprintf("%s@%d", path, g)]; ok {
		return w, true
	}
	w, ok := want[path]
	return w, ok
}

// columnValues gives a chunk's values in physical form, from the page-reader
// hook or else from DuckDB's text for a top-level column.
func columnValues(t *testing.T, name string, f *parquetFile, exp *expected, c Column, g, col, firstRow, numRows int) ([][]byte, bool) {
	if v, ok := decodedValues(t, name, g, col); ok {
		return v, true
	}
	o, ok, _ := OrderOf(c.Leaf)
	if !ok || strings.Contains(c.Path, ".") {
		return nil, false // nested leaves wait for decodedValues
	}
	k := -1
	for j, name := range exp.columns {
		if name == c.Path {
			k = j
		}
	}
	if k < 0 || firstRow+numRows > len(exp.rows) {
		t.Fatalf("%s: DuckDB's answer has no column %s or too few rows", name, c.Path)
	}
	var out [][]byte
	for _, row := range exp.rows[firstRow : firstRow+numRows] {
		if row[k] == nil {
			out = append(out, nil)
			continue
		}
		v, err := fromText(o, exp.types[k], *row[k])
		if err != nil {
			t.Fatalf("%s: column %s: %q: %v", name, c.Path, *row[k], err)
		}
		out = append(out, v)
	}
	return out, true
}

// checkContains asserts a Bounds' promise over the values it summarizes.
func checkContains(t *testing.T, where string, b Bounds, values [][]byte) {
	t.Helper()
	o := b.Order
	for _, v := range values {
		switch {
		case v == nil:
			if !b.MayHoldNull() {
				t.Errorf("%s: a null, but null_count says none", where)
			}
		case b.AllNull:
			t.Errorf("%s: value %s in an all-null summary", where, o.Format(v))
		case o.IsNaN(v):
			if !b.MayHoldNaN() || !b.MayHoldEqual(v) {
				t.Errorf("%s: a NaN, but the bounds rule NaN out", where)
			}
		case b.AllNaN:
			t.Errorf("%s: value %s in an all-NaN summary", where, o.Format(v))
		default:
			if b.Min != nil && o.Compare(b.Min, v) > 0 {
				t.Errorf("%s: value %s below the min %s", where, o.Format(v), o.Format(b.Min))
			}
			if b.Max != nil && o.Compare(v, b.Max) > 0 {
				t.Errorf("%s: value %s above the max %s", where, o.Format(v), o.Format(b.Max))
			}
			if !b.MayHoldEqual(v) || !b.MayHoldAbove(v, true) || !b.MayHoldBelow(v, true) {
				t.Errorf("%s: value %s, but a comparison with it would skip", where, o.Format(v))
			}
		}
	}
}

// checkPages checks each page of a flat column's index against its rows.
func checkPages(t *testing.T, where string, f *parquetFile, c Column, g, col int, values [][]byte) {
	t.Helper()
	ci := f.columnIndex(t, g, col)
	cc := f.md.RowGroups[g].Columns[col]
	if ci == nil || cc.OffsetIndexOffset == nil || cc.OffsetIndexLength == nil {
		return
	}
	off, n := *cc.OffsetIndexOffset, int64(*cc.OffsetIndexLength)
	if off < 0 || n < 0 || off+n > int64(len(f.data)) {
		t.Fatalf("%s: offset index outside the file", where)
	}
	oi, err := thrift.DecodeOffsetIndex(f.data[off : off+n])
	if err != nil {
		t.Fatalf("%s: offset index: %v", where, err)
	}
	if len(oi.PageLocations) != len(ci.NullPages) {
		t.Fatalf("%s: %d page locations, %d column index entries", where, len(oi.PageLocations), len(ci.NullPages))
	}
	for p, loc := range oi.PageLocations {
		end := int64(len(values))
		if p+1 < len(oi.PageLocations) {
			end = oi.PageLocations[p+1].FirstRowIndex
		}
		if loc.FirstRowIndex < 0 || loc.FirstRowIndex > end || end > int64(len(values)) {
			t.Fatalf("%s: page %d rows [%d, %d) outside %d rows", where, p, loc.FirstRowIndex, end, len(values))
		}
		pb := PageBounds(c, ci, p)
		if (pb.Min == nil || pb.Max == nil) && pb.Refused == "" {
			t.Errorf("%s page %d: bounds missing without a reason", where, p)
		}
		checkContains(t, fmt.Sprintf("%s page %d", where, p), pb, values[loc.FirstRowIndex:end])
	}
	if _, why := IndexOrder(c, ci); why != "" && ci.BoundaryOrder != meta.Unordered {
		t.Logf("%s: boundary_order %v not trusted: %s", where, ci.BoundaryOrder, why)
	}
}
