package exec

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

func TestExplain(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	q := "SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19990"
	r, err := s.Execute(context.Background(), "EXPLAIN "+q)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PARQUET_SCAN", "pushdown: order_id > 19990", "row group 0 (4000 rows): skip", "row group 4 (4000 rows): select rows [3750, 4000)"} {
		if !strings.Contains(r.Explain, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, r.Explain)
		}
	}
	if strings.Contains(r.Explain, "rows decoded") {
		t.Errorf("plain EXPLAIN ran the query:\n%s", r.Explain)
	}
	r, err = s.Execute(context.Background(), "EXPLAIN ANALYZE "+q)
	if err != nil {
		t.Fatal(err)
	}
	// One 250-row page of row group 4 is decoded; ten rows pass the filter.
	for _, want := range []string{"row groups read: 1, skipped: 4", "rows decoded: 250, rows returned: 10", "bytes read: "} {
		if !strings.Contains(r.Explain, want) {
			t.Errorf("EXPLAIN ANALYZE lacks %q:\n%s", want, r.Explain)
		}
	}
}

func TestLimitStopsEarly(t *testing.T) {
	t.Chdir(moduleRoot(t))
	st, err := planner.Parse("SELECT order_id FROM 'fixtures/orders_sorted.parquet' LIMIT 3")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), nil)
	if err != nil {
		t.Fatal(err)
	}
	x := &executor{settings: NewSession().Settings}
	res, err := x.result(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if res.NumRows() != 3 || x.stats.RowGroups != 1 {
		t.Errorf("rows %d, row groups read %d; want 3 rows from 1 row group", res.NumRows(), x.stats.RowGroups)
	}
}

func TestStatementErrors(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	tests := []struct {
		q    string
		kind error
	}{
		{"SET threads = 'many'", ErrBadSetting},
		{"SET nope = true", ErrUnknownSetting},
		{"DROP VIEW missing", ErrCatalog},
		{"SELECT ordr_id FROM 'fixtures/orders_sorted.parquet'", planner.ErrBinder},
	}
	for _, tc := range tests {
		if _, err := s.Execute(context.Background(), tc.q); !errors.Is(err, tc.kind) {
			t.Errorf("%s: %v, want %v", tc.q, err, tc.kind)
		}
	}
	if _, err := s.Execute(context.Background(), "SET statistics = false"); err != nil || s.Settings.Statistics {
		t.Errorf("SET statistics = false: err %v, setting %v", err, s.Settings.Statistics)
	}
}
