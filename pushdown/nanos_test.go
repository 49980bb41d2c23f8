package pushdown

import (
	"math/rand/v2"
	"testing"

	"github.com/pqsql/pqsql/format/meta"
)

// TestNanosAsMicros checks the comparisons on a TIMESTAMPTZ column stored in
// nanoseconds against the value a scan produces, microseconds truncated
// toward zero (-1 ns reads as 1970-01-01 00:00:00, as in DuckDB), around
// zero where truncation and flooring differ, for whole and fractional
// microsecond literals.
func TestNanosAsMicros(t *testing.T) {
	s := testSchema(t)
	leaf := s.LeafByPath("tsn")
	rng := rand.New(rand.NewPCG(7, 11))
	ops := []Op{Eq, Ne, Lt, Le, Gt, Ge}
	for range 20000 {
		ns := rng.Int64N(8001) - 4000
		litNs := rng.Int64N(8001) - 4000
		if rng.IntN(2) == 0 {
			litNs = (rng.Int64N(9) - 4) * 1000 // a whole microsecond
		}
		op := ops[rng.IntN(len(ops))]
		e, err := Coerce(leaf, op, TimestampLiteral(litNs, meta.Nanos))
		if err != nil {
			t.Fatalf("Coerce(tsn %s %d ns): %v", op, litNs, err)
		}
		us := ns / 1000 // the scan's value, truncated
		var want bool
		l := float64(litNs) / 1000
		switch v := float64(us); op {
		case Eq:
			want = v == l
		case Ne:
			want = v != l
		case Lt:
			want = v < l
		case Le:
			want = v <= l
		case Gt:
			want = v > l
		case Ge:
			want = v >= l
		}
		got := Eval(e, mapRow{leaf.Index: le64(uint64(ns))})
		if (got == True) != want || got == Unknown {
			t.Fatalf("%d ns (%d us) %s %d ns: resolved %s gives %v, want %v", ns, us, op, litNs, e, got, want)
		}
	}
}
