package exec

import (
	"context"
	"testing"
)

// Progress ends at the bytes the plans read: for one file exactly the
// plan's range, for a glob the sum of both files' plans.
func TestProgress(t *testing.T) {
	t.Chdir(explainTree(t, moduleRoot(t)))
	s := NewSession()
	s.Settings.Progress = &Progress{}
	for _, tc := range []struct {
		q           string
		read, total int64
	}{
		{"SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19990", 1030, 1030},
		{"SELECT count(*) FROM 'fixtures/orders_sorted.parquet'", 0, 0},
	} {
		s.Settings.Progress.Reset()
		if _, err := s.Execute(context.Background(), tc.q); err != nil {
			t.Fatal(err)
		}
		if read, total := s.Settings.Progress.Bytes(); read != tc.read || total != tc.total {
			t.Errorf("%s: progress %d of %d, want %d of %d", tc.q, read, total, tc.read, tc.total)
		}
	}
	s.Settings.Progress.Reset()
	if _, err := s.Execute(context.Background(), "SELECT order_id FROM 'fixtures/orders_s*.parquet' WHERE order_id < 100"); err != nil {
		t.Fatal(err)
	}
	if read, total := s.Settings.Progress.Bytes(); read == 0 || read != total {
		t.Errorf("glob: progress %d of %d, want all planned bytes read", read, total)
	}
	var none *Progress
	if read, total := none.Bytes(); read != 0 || total != 0 {
		t.Errorf("nil progress %d of %d", read, total)
	}
}
