package exec

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// panicCtx is a context whose Err panics: a way to make the statement
// panic from outside, in the executor's own loops.
type panicCtx struct{ context.Context }

func (panicCtx) Err() error { panic("context checked") }

func TestExecuteRecoversPanicAndSessionLives(t *testing.T) {
	root := testcorpus.ModuleRoot(t)
	s := NewSession()
	stmt := "SELECT sum(order_id) FROM '" + root + "/fixtures/orders_sorted.parquet'"
	_, err := s.Execute(panicCtx{context.Background()}, stmt)
	if !errors.Is(err, ErrInternal) {
		t.Fatalf("err = %v, want ErrInternal", err)
	}
	var ie *InternalError
	if !errors.As(err, &ie) || ie.Statement != stmt || ie.Panic != "context checked" || len(ie.Stack) == 0 {
		t.Fatalf("err = %#v, want the statement, the panic value and a stack", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "INTERNAL Error: panic running ") || !strings.Contains(msg, "orders_sorted") {
		t.Fatalf("message %q does not name the statement", msg)
	}
	// The session still answers.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, stmt)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := res.Cell(0, 0); got != "200010000" {
		t.Fatalf("sum = %s, want 200010000", got)
	}
}
