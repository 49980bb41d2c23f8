package exec

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// withStreamWindow runs f with chunks streamed window bytes at a time.
func withStreamWindow(t *testing.T, window int, f func()) {
	t.Helper()
	old := streamWindow
	streamWindow = window
	defer func() { streamWindow = old }()
	f()
}

// TestSQLLogicStreamed reruns the query records with every chunk read whole
// streamed through a window smaller than most pages, so that the streaming
// reader, not the row group's one fetch, serves the scans: the answers and
// errors must not change.
func TestSQLLogicStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole query suite again")
	}
	root := moduleRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "testdata", "queries", "*.test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files: %v", err)
	}
	t.Chdir(root)
	withStreamWindow(t, 64, func() {
		for _, path := range files {
			t.Run(filepath.Base(path), func(t *testing.T) {
				s := NewSession()
				for _, r := range parseRecords(t, path) {
					if strings.Contains(r.sql, "../shared/") || strings.Contains(strings.ToUpper(r.sql), "EXPLAIN") {
						continue // request counts differ by design
					}
					checkRecord(t, s, r)
				}
			})
		}
	})
}

// TestStreamedScanReadsTheSameBytes checks that a streamed full scan reads
// each byte the one fetch would, once, in more requests.
func TestStreamedScanReadsTheSameBytes(t *testing.T) {
	t.Chdir(moduleRoot(t))
	const q = "EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(order_id), max(status), sum(amount) FROM 'fixtures/orders_shuffled.parquet'"
	run := func() *AnalyzeJSON {
		res, err := NewSession().Execute(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var rep ExplainJSON
		if err := json.Unmarshal([]byte(res.Explain), &rep); err != nil || rep.Analyze == nil {
			t.Fatalf("EXPLAIN ANALYZE output: %v", err)
		}
		return rep.Analyze
	}
	var fetched, streamed *AnalyzeJSON
	withStreamWindow(t, 1<<30, func() { fetched = run() })
	withStreamWindow(t, 256, func() { streamed = run() })
	if streamed.BytesRead != fetched.BytesRead {
		t.Errorf("streamed scan read %d bytes, fetched %d", streamed.BytesRead, fetched.BytesRead)
	}
	if streamed.Requests <= fetched.Requests {
		t.Errorf("streamed scan made %d requests, fetched %d: nothing streamed", streamed.Requests, fetched.Requests)
	}
}
