package exec

import (
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
)

// TestDictRanks checks that ranks order a dictionary as its strings sort,
// equal entries alike, and that a string outside it ranks strictly between
// its neighbours.
func TestDictRanks(t *testing.T) {
	d := &format.Values{Type: meta.ByteArray, Bytes: [][]byte{[]byte("pear"), []byte("apple"), []byte(""), []byte("pear"), []byte("Zebra"), []byte("äpfel")}}
	dr := newDictRanks(d)
	for i := range d.Bytes {
		for j := range d.Bytes {
			a, b := string(d.Bytes[i]), string(d.Bytes[j])
			want := 0
			switch {
			case a < b:
				want = -1
			case a > b:
				want = 1
			}
			got := 0
			switch {
			case dr.rank[i] < dr.rank[j]:
				got = -1
			case dr.rank[i] > dr.rank[j]:
				got = 1
			}
			if got != want {
				t.Errorf("entries %q and %q: ranks %d and %d", a, b, dr.rank[i], dr.rank[j])
			}
		}
		if got := dr.of(string(d.Bytes[i])); got != dr.rank[i] {
			t.Errorf("of(%q) = %d, the entry's rank is %d", d.Bytes[i], got, dr.rank[i])
		}
	}
	for _, tt := range []struct {
		s            string
		below, above string
	}{
		{"A", "", "Zebra"},
		{"b", "apple", "pear"},
		{"zz", "pear", "äpfel"},
	} {
		r, lo, hi := dr.of(tt.s), dr.of(tt.below), dr.of(tt.above)
		if r <= lo || r >= hi {
			t.Errorf("of(%q) = %d, not strictly between %q (%d) and %q (%d)", tt.s, r, tt.below, lo, tt.above, hi)
		}
	}
	if r := dr.of("\xff"); r <= dr.of("äpfel") {
		t.Errorf("a string above every entry ranks %d", r)
	}
}
