package errclass

import (
	"errors"
	"fmt"
	"testing"
)

func TestSubMatchesItsClassOnly(t *testing.T) {
	notGrouped := Sub(Binder, "Binder Error")
	wrapped := fmt.Errorf("%w: column \"x\" must appear in the GROUP BY clause", notGrouped)
	if !errors.Is(wrapped, notGrouped) || !errors.Is(wrapped, Binder) {
		t.Fatalf("%v: want both the sentinel and its class", wrapped)
	}
	if errors.Is(wrapped, Catalog) {
		t.Fatalf("%v matches Catalog", wrapped)
	}
	if other := Sub(Binder, "Binder Error"); errors.Is(wrapped, other) {
		t.Fatalf("two sentinels with the same text are one")
	}
	if got := wrapped.Error(); got != `Binder Error: column "x" must appear in the GROUP BY clause` {
		t.Fatalf("text %q", got)
	}
	nested := Sub(notGrouped, "narrower")
	if !errors.Is(nested, Binder) || Of(nested) != Binder {
		t.Fatalf("a sub of a sub must match the class")
	}
}

func TestOf(t *testing.T) {
	for _, c := range classes {
		if got := Of(fmt.Errorf("ctx: %w", c)); got != c {
			t.Errorf("Of(wrapped %v) = %v", c, got)
		}
	}
	if got := Of(errors.New("plain")); got != nil {
		t.Errorf("Of(plain) = %v, want nil", got)
	}
	if got := Of(nil); got != nil {
		t.Errorf("Of(nil) = %v", got)
	}
}
