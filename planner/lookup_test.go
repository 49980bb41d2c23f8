package planner

import (
	"strings"
	"testing"
)

// TestFoldKeyAgreesWithEqualFold checks that the column index groups names
// exactly as strings.EqualFold does, including runes whose case orbit has
// more than two members (k, K and the Kelvin sign; s, S and the long s).
func TestFoldKeyAgreesWithEqualFold(t *testing.T) {
	names := []string{"k", "K", "\u212a", "s", "S", "\u017f", "Straße", "STRASSE", "straße", "Σσς", "ΣΣΣ", "σςσ",
		"Ǆ", "ǅ", "ǆ", "Åbo", "åbo", "\u212bbo", "x", "x_1", "X_1", "order_id", "ORDER_ID", "İ", "i", "ı"}
	for _, a := range names {
		for _, b := range names {
			if got, want := foldKey(a) == foldKey(b), strings.EqualFold(a, b); got != want {
				t.Errorf("%q vs %q: same key %v, EqualFold %v", a, b, got, want)
			}
		}
	}
}

func TestLookupFirstExactThenFolded(t *testing.T) {
	cols := []Column{{Name: "a"}, {Name: "B"}, {Name: "b"}, {Name: "Ä"}, {Name: "A"}}
	b := &binder{cols: cols}
	for _, tt := range []struct {
		name string
		want int
	}{{"a", 0}, {"A", 4}, {"b", 2}, {"B", 1}, {"ä", 3}, {"Ä", 3}, {"c", -1}} {
		if got := b.lookup(tt.name); got != tt.want {
			t.Errorf("lookup(%q) = %d, want %d", tt.name, got, tt.want)
		}
	}
}
