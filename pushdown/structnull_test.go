package pushdown

import (
	"errors"
	"testing"
)

// TestStructIsNull checks what s IS [NOT] NULL on a struct becomes for one
// file: exact on a leaf reached through required fields only, implied
// leaf tests beside the condition itself otherwise, and never judged for
// IS NOT NULL without such a leaf.
func TestStructIsNull(t *testing.T) {
	structs := openFixture(t, "structs.parquet")
	nested := openFixture(t, "nested.parquet")
	for _, tc := range []struct {
		name string
		e    Expr
		want string
	}{
		{"structs", &StructIsNull{Path: "pt"}, "pt.x IS NULL"},
		{"structs", &StructIsNull{Path: "pt", Not: true}, "pt.x IS NOT NULL"},
		{"structs", &Not{X: &StructIsNull{Path: "pt"}}, "pt.x IS NOT NULL"},
		{"structs", &StructIsNull{Path: "address", Text: "(address IS NULL)"},
			"address.city IS NULL AND address.zip IS NULL AND address.street IS NULL AND (address IS NULL)"},
		{"structs", &StructIsNull{Path: "address", Not: true, Text: "(address IS NOT NULL)"}, "(address IS NOT NULL)"},
		{"structs", &Not{X: &StructIsNull{Path: "address", Not: true, Text: "(address IS NOT NULL)"}},
			"address.city IS NULL AND address.zip IS NULL AND address.street IS NULL AND NOT ((address IS NOT NULL))"},
		{"structs", &StructIsNull{Path: "meta.inner", Text: "(meta.inner IS NULL)"},
			"meta.inner.score IS NULL AND meta.inner.day IS NULL AND (meta.inner IS NULL)"},
		// deep.inner holds only a list, whose elements are not rows.
		{"nested", &StructIsNull{Path: "deep.inner", Text: "(deep.inner IS NULL)"}, "(deep.inner IS NULL)"},
		{"nested", &StructIsNull{Path: "address", Not: true, Text: "(address IS NOT NULL)"}, "(address IS NOT NULL)"},
	} {
		f := structs
		if tc.name == "nested" {
			f = nested
		}
		got, _, err := Resolve(f.Schema, tc.e)
		if err != nil {
			t.Fatalf("%s: Resolve(%s): %v", tc.name, tc.e, err)
		}
		if got.String() != tc.want {
			t.Errorf("%s: Resolve(%s) = %s, want %s", tc.name, tc.e, got, tc.want)
		}
	}
	if _, _, err := Resolve(structs.Schema, &StructIsNull{Path: "nope"}); !errors.Is(err, ErrUnknownColumn) {
		t.Errorf("a struct the file does not have: %v, want ErrUnknownColumn", err)
	}
}
