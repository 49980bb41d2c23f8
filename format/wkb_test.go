package format

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// wkb builds WKB by hand: b appends in the builder's byte order.
type wkb struct {
	bo  binary.AppendByteOrder
	out []byte
}

func newWKB(le bool) *wkb {
	if le {
		return &wkb{bo: binary.LittleEndian}
	}
	return &wkb{bo: binary.BigEndian}
}

// head writes a byte order and a type code.
func (w *wkb) head(code uint32) *wkb {
	if w.bo == binary.AppendByteOrder(binary.LittleEndian) {
		w.out = append(w.out, 1)
	} else {
		w.out = append(w.out, 0)
	}
	w.out = w.bo.AppendUint32(w.out, code)
	return w
}

func (w *wkb) u32(v uint32) *wkb { w.out = w.bo.AppendUint32(w.out, v); return w }

func (w *wkb) f(vs ...float64) *wkb {
	for _, v := range vs {
		w.out = w.bo.AppendUint64(w.out, math.Float64bits(v))
	}
	return w
}

func (w *wkb) raw(b []byte) *wkb { w.out = append(w.out, b...); return w }

func le() *wkb { return newWKB(true) }

func TestAppendWKT(t *testing.T) {
	nan := math.NaN()
	point := le().head(1).f(30, 10).out
	line := le().head(2).u32(3).f(30, 10, 10, 30, 40, 40).out
	polygon := le().head(3).u32(2).u32(4).f(35, 10, 45, 45, 15, 40, 35, 10).u32(3).f(20, 30, 35, 35, 20, 30).out
	for _, tc := range []struct {
		name string
		wkb  []byte
		want string
	}{
		{"point", point, "POINT (30 10)"},
		{"point big-endian", newWKB(false).head(1).f(-35.94721410461716, -30.731931592053808).out, "POINT (-35.94721410461716 -30.731931592053808)"},
		{"point empty", le().head(1).f(nan, nan).out, "POINT EMPTY"},
		{"point with one NaN", le().head(1).f(nan, 1).out, "POINT (nan 1)"},
		{"point Z (ISO)", le().head(1001).f(30, 10, 40).out, "POINT Z (30 10 40)"},
		{"point M (ISO)", le().head(2001).f(30, 10, 300).out, "POINT M (30 10 300)"},
		{"point ZM (ISO)", le().head(3001).f(30, 10, 40, 300).out, "POINT ZM (30 10 40 300)"},
		{"point ZM empty", le().head(3001).f(nan, nan, nan, nan).out, "POINT ZM EMPTY"},
		{"point Z (EWKB)", le().head(0x80000001).f(1, 2, 3).out, "POINT Z (1 2 3)"},
		{"point M (EWKB)", le().head(0x40000001).f(1, 2, 3).out, "POINT M (1 2 3)"},
		{"point with SRID (EWKB)", le().head(0x20000001).u32(4326).f(1.5, -2.25).out, "POINT (1.5 -2.25)"},
		{"linestring", line, "LINESTRING (30 10, 10 30, 40 40)"},
		{"linestring empty", le().head(2).u32(0).out, "LINESTRING EMPTY"},
		{"linestring with NaN", le().head(3002).u32(2).f(90, 100, 110, 120, nan, nan, nan, nan).out, "LINESTRING ZM (90 100 110 120, nan nan nan nan)"},
		{"polygon with hole", polygon, "POLYGON ((35 10, 45 45, 15 40, 35 10), (20 30, 35 35, 20 30))"},
		{"polygon empty", le().head(3).u32(0).out, "POLYGON EMPTY"},
		{"polygon with empty ring", le().head(3).u32(1).u32(0).out, "POLYGON (EMPTY)"},
		{"multipoint", le().head(4).u32(2).raw(point).raw(newWKB(false).head(1).f(40, 30).out).out, "MULTIPOINT (30 10, 40 30)"},
		{"multipoint with empty point", le().head(4).u32(2).raw(point).raw(le().head(1).f(nan, nan).out).out, "MULTIPOINT (30 10, EMPTY)"},
		{"multipoint Z", le().head(1004).u32(1).raw(le().head(1001).f(30, 10, 40).out).out, "MULTIPOINT Z (30 10 40)"},
		{"multipoint empty", le().head(4).u32(0).out, "MULTIPOINT EMPTY"},
		{"multilinestring", le().head(5).u32(2).raw(line).raw(le().head(2).u32(0).out).out, "MULTILINESTRING ((30 10, 10 30, 40 40), EMPTY)"},
		{"multipolygon", le().head(6).u32(2).raw(polygon).raw(le().head(3).u32(0).out).out,
			"MULTIPOLYGON (((35 10, 45 45, 15 40, 35 10), (20 30, 35 35, 20 30)), EMPTY)"},
		{"collection", le().head(7).u32(3).raw(point).raw(line).raw(le().head(7).u32(0).out).out,
			"GEOMETRYCOLLECTION (POINT (30 10), LINESTRING (30 10, 10 30, 40 40), GEOMETRYCOLLECTION EMPTY)"},
		{"collection M", le().head(2007).u32(1).raw(le().head(2001).f(30, 10, 300).out).out, "GEOMETRYCOLLECTION M (POINT M (30 10 300))"},
		{"collection empty ZM", le().head(3007).u32(0).out, "GEOMETRYCOLLECTION ZM EMPTY"},
		{"numbers", le().head(2).u32(4).f(0.1, math.Copysign(0, -1), 1e20, 1e-5, 123456789012345, math.Inf(1), math.Inf(-1), 0.0001).out,
			"LINESTRING (0.1 -0, 1e+20 1e-05, 123456789012345 inf, -inf 0.0001)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AppendWKT([]byte("x="), tc.wkb)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if string(got) != "x="+tc.want {
				t.Errorf("got %q, want %q", got, "x="+tc.want)
			}
		})
	}
}

func TestAppendWKTRefusesMalformed(t *testing.T) {
	point := le().head(1).f(30, 10).out
	deep := []byte{}
	for i := 0; i < 40; i++ {
		deep = append(deep, le().head(7).u32(1).out...)
	}
	deep = append(deep, point...)
	for _, tc := range []struct {
		name string
		wkb  []byte
		want error
	}{
		{"empty", nil, ErrCorrupt},
		{"bad byte order", append([]byte{2}, point[1:]...), ErrCorrupt},
		{"truncated type", point[:3], ErrCorrupt},
		{"truncated point", point[:len(point)-1], ErrCorrupt},
		{"trailing bytes", append(append([]byte{}, point...), 0), ErrCorrupt},
		{"unknown type", le().head(8).out, ErrCorrupt},
		{"unknown ISO dimension", le().head(4001).f(1, 2).out, ErrCorrupt},
		{"type zero", le().head(0).out, ErrCorrupt},
		{"huge vertex count", le().head(2).u32(0xffffffff).f(1, 2).out, ErrCorrupt},
		{"huge ring count", le().head(3).u32(0x7fffffff).out, ErrCorrupt},
		{"huge part count", le().head(7).u32(0x10000000).raw(point).out, ErrCorrupt},
		{"truncated SRID", le().head(0x20000001).out[:7], ErrCorrupt},
		{"multipoint holding a line", le().head(4).u32(1).raw(le().head(2).u32(0).out).out, ErrCorrupt},
		{"multipoint part dims differ", le().head(4).u32(1).raw(le().head(1001).f(1, 2, 3).out).out, ErrCorrupt},
		{"collection member dims differ", le().head(1007).u32(1).raw(point).out, ErrCorrupt},
		{"nesting too deep", deep, ErrLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AppendWKT([]byte("keep"), tc.wkb)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if string(got) != "keep" {
				t.Errorf("dst changed to %q", got)
			}
		})
	}
}

// AppendText prints GEOMETRY and GEOGRAPHY as WKT, and malformed WKB as
// its bytes.
func TestAppendTextGeometry(t *testing.T) {
	v := &Values{Type: meta.ByteArray, Bytes: [][]byte{le().head(1).f(1, 2).out, {1, 9}}}
	for _, k := range []Kind{KindGeometry, KindGeography} {
		if got := string(AppendText(nil, Logical{Kind: k}, v, 0)); got != "POINT (1 2)" {
			t.Errorf("kind %d: got %q", k, got)
		}
		if got := string(AppendText(nil, Logical{Kind: k}, v, 1)); got != `\x01\x09` {
			t.Errorf("kind %d malformed: got %q", k, got)
		}
	}
	if got := (Logical{Kind: KindGeography}).SQLName(); got != "GEOMETRY" {
		t.Errorf("SQLName %q", got)
	}
}

func FuzzAppendWKT(f *testing.F) {
	f.Add(le().head(1).f(30, 10).out)
	f.Add(le().head(3007).u32(1).raw(le().head(3002).u32(1).f(1, 2, 3, 4).out).out)
	f.Add(newWKB(false).head(6).u32(1).raw(newWKB(false).head(3).u32(1).u32(1).f(1, 2).out).out)
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := AppendWKT(nil, b)
		if err != nil && len(out) != 0 {
			t.Fatalf("error %v with output %q", err, out)
		}
		if err == nil && !strings.Contains(string(out), " ") {
			t.Fatalf("odd WKT %q", out)
		}
	})
}

// A GEOMETRY column holding a value that is not WKB fails the read with an
// error naming the column and page, as DuckDB fails it.
func TestMalformedGeometryFailsRead(t *testing.T) {
	good, err := AppendWKT(nil, []byte{1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40})
	if err != nil || string(good) != "POINT (1 2)" {
		t.Fatalf("well-formed point: %q, %v", good, err)
	}
	d := &chunkDecoder{leaf: &Leaf{Path: "geom", Type: meta.ByteArray, Element: &meta.SchemaElement{
		LogicalType: &meta.LogicalType{Geometry: &meta.GeometryType{}}}},
		out: &ColumnData{Values: Values{Type: meta.ByteArray, Bytes: [][]byte{{1, 1, 0, 0}}}}}
	if err := d.checkGeometry(0); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("truncated WKB: want ErrCorrupt, got %v", err)
	}
}
