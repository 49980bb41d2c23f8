package main

import (
	"bufio"
	"context"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/exec"
)

// A streamed result prints as the same text, in every mode, as the whole
// result does: the modes that print a row at a time batch by batch, box
// mode from the first and last rows only.
func TestStreamedOutputMatches(t *testing.T) {
	t.Chdir(moduleRoot(t))
	queries := []string{
		"SELECT * FROM 'fixtures/orders_sorted.parquet' WHERE order_id < 0",
		"SELECT * FROM 'fixtures/orders_sorted.parquet' LIMIT 1",
		"SELECT order_id, note, discount, shipped_at FROM 'fixtures/orders_shuffled.parquet' WHERE order_id < 5000",
		"SELECT * FROM 'fixtures/orders_sorted.parquet'",
		"SELECT * FROM 'fixtures/nested.parquet'",
	}
	s := exec.NewSession()
	for _, q := range queries {
		whole, err := s.Execute(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range modeNames {
			for _, maxRows := range []int{40, 0} {
				if maxRows == 0 && m.mode != modeBox {
					continue
				}
				o := defaultRenderOptions()
				o.setMode(m.mode)
				o.maxRows = maxRows
				want := renderString(t, whole, o)
				res, err := s.Stream(context.Background(), q)
				if err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				w := bufio.NewWriter(&b)
				if err := renderStreamed(context.Background(), w, res, o); err != nil {
					t.Fatal(err)
				}
				w.Flush()
				if got := b.String(); got != want {
					t.Errorf("%s, mode %s, maxrows %d: streamed output differs\n got %d bytes: %.300q\nwant %d bytes: %.300q",
						q, m.name, maxRows, len(got), got, len(want), want)
				}
			}
		}
	}
}

// An error part way through a query's rows ends the output after the rows
// printed so far, reports the error and makes the script fail.
func TestMidStreamErrorExitCode(t *testing.T) {
	t.Chdir(moduleRoot(t))
	// Twice order_id passes SMALLINT's range at order_id 16384.
	code, out, errOut := runCapture(t, "", "-csv", "-c",
		"SELECT order_id, CAST(order_id * 2 AS SMALLINT) AS x FROM 'fixtures/orders_sorted.parquet'")
	if code == 0 {
		t.Fatalf("exit code 0, want non-zero; stderr %q", errOut)
	}
	if !strings.Contains(errOut, "Conversion Error") && !strings.Contains(errOut, "Out of Range") {
		t.Fatalf("stderr %q, want the cast's error", errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "order_id,x" || len(lines) < 2 || len(lines) > 16384 {
		t.Fatalf("%d lines before the error, want the header and some rows (first %q)", len(lines), lines[0])
	}
	if lines[1] != "1,2" {
		t.Fatalf("first row %q", lines[1])
	}
}
