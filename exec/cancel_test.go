package exec

import (
	"context"
	"errors"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// doneAfter is a context whose Err reports cancellation from its n-th call
// on: a Ctrl-C that arrives while the work is under way, deterministically.
type doneAfter struct {
	context.Context
	n, calls int
}

func (c *doneAfter) Err() error {
	c.calls++
	if c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

func TestSortStopsWhenCancelled(t *testing.T) {
	rows := make([][]planner.Datum, 20_000)
	for i := range rows {
		rows[i] = []planner.Datum{{I: int64((i * 7919) % len(rows))}}
	}
	compared := 0
	less := func(a, b []planner.Datum) bool { compared++; return a[0].I < b[0].I }
	ctx := &doneAfter{Context: context.Background(), n: 2} // the entry check passes
	if err := sortStable(ctx, rows, less); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if compared > cancelCheckRows {
		t.Fatalf("%d comparisons after cancellation, want at most %d", compared, cancelCheckRows)
	}
	compared = 0
	if err := sortStable(context.Background(), rows, less); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i-1][0].I > rows[i][0].I {
			t.Fatalf("rows %d and %d out of order", i-1, i)
		}
	}
}

func TestSortPassesOtherPanicsOn(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want the comparison's own panic", r)
		}
	}()
	rows := [][]planner.Datum{{{I: 2}}, {{I: 1}}}
	_ = sortStable(context.Background(), rows, func(a, b []planner.Datum) bool { panic("boom") })
	t.Fatal("no panic")
}
