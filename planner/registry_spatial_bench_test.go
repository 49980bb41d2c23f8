package planner

import "testing"

// BenchmarkSTIntersectsPolygon is one row of ST_Intersects(point column,
// constant polygon): both arguments are parsed from WKB each row.
func BenchmarkSTIntersectsPolygon(b *testing.B) {
	f := scalarFuncs["st_intersects"]
	poly, err := evalGeomFromText(nil, []Datum{{S: "POLYGON ((13 52.3, 13 52.7, 13.8 52.7, 13.8 52.3, 13 52.3))"}})
	if err != nil {
		b.Fatal(err)
	}
	c := newCall(f, nil, tBool)
	args := []Datum{{Bytes: wkbPoint(13.4, 52.5)}, poly}
	for b.Loop() {
		d, err := f.Eval(c, args)
		if err != nil || !d.B {
			b.Fatalf("%v %v", d, err)
		}
	}
}
