package exec

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// withStreamWindow runs f with chunks larger than window streamed window
// bytes at a time.
func withStreamWindow(t *testing.T, window int, f func()) {
	t.Helper()
	oldWindow, oldAbove := streamWindow, streamAbove
	streamWindow, streamAbove = window, window
	defer func() { streamWindow, streamAbove = oldWindow, oldAbove }()
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

// TestStreamedScanReadsTheSameBytes checks that a streamed scan reads each
// byte the one fetch would, once, in more requests: a full scan (chunks
// read whole), a scan of the pages the page index chose, a WHERE judged
// before the other columns are read, on columns nothing else reads, and
// the dictionary pages of point lookups.
func TestStreamedScanReadsTheSameBytes(t *testing.T) {
	t.Chdir(moduleRoot(t))
	for _, q := range []string{
		"SELECT count(order_id), max(status), sum(amount) FROM 'fixtures/orders_shuffled.parquet'",
		"SELECT count(*), max(order_id), min(order_id) FROM 'fixtures/orders_sorted.parquet' WHERE order_id BETWEEN 2000 AND 4000 OR order_id > 9000",
		"SELECT count(*), sum(amount), max(note) FROM 'fixtures/orders_shuffled.parquet' WHERE customer_id <> 100500 AND status <> 'shipped'",
		"SELECT count(*), sum(amount) FROM 'fixtures/orders_shuffled.parquet' WHERE order_id % 7 = 3",
		// Read late, the WHERE's column the query reads after it is
		// carried out of the first pass, not read again: it streams.
		"SELECT count(*), sum(order_id), max(amount), max(note) FROM 'fixtures/orders_shuffled.parquet' WHERE order_id % 97 = 3",
		"SELECT max(note), min(note), count(note), sum(order_id), sum(amount) FROM 'fixtures/orders_shuffled.parquet' WHERE note IS NOT NULL OR order_id % 97 = 3",
		// Judged by its dictionary, a column the query reads after is
		// carried out of the judging, not read again: it streams.
		"SELECT count(*), sum(customer_id), min(customer_id) FROM 'fixtures/orders_shuffled.parquet' WHERE customer_id IN (776373, 255083, 673089, 491189, 672692)",
		// A point lookup reads the pages holding its row, fetched, but
		// the dictionary pages larger than a window stream, decoded as
		// they are read.
		"SELECT * FROM 'fixtures/orders_shuffled.parquet' WHERE order_id = 4242",
		"SELECT * FROM 'fixtures/orders_sorted.parquet' WHERE order_id IN (17, 4242, 9000)",
		// A WHERE's numbers passing most rows stay carried however many
		// pass: a row group of them costs no more to hold than to read
		// again.
		"SELECT count(*), sum(order_id), sum(amount) FROM 'fixtures/orders_shuffled.parquet' WHERE order_id % 7 <> 3",
	} {
		run := func() (*AnalyzeJSON, string) {
			res, err := NewSession().Execute(context.Background(), "EXPLAIN (ANALYZE, FORMAT JSON) "+q)
			if err != nil {
				t.Fatal(err)
			}
			var rep ExplainJSON
			if err := json.Unmarshal([]byte(res.Explain), &rep); err != nil || rep.Analyze == nil {
				t.Fatalf("EXPLAIN ANALYZE output: %v", err)
			}
			rows, err := NewSession().Execute(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			for r := range rows.NumRows() {
				for c := range rows.Columns {
					v, _ := rows.Cell(r, c)
					text.WriteString(v + "\t")
				}
				text.WriteString("\n")
			}
			return rep.Analyze, text.String()
		}
		var fetched, streamed *AnalyzeJSON
		var want, got string
		withStreamWindow(t, 1<<30, func() { fetched, want = run() })
		withStreamWindow(t, 256, func() { streamed, got = run() })
		if got != want {
			t.Errorf("%s: streamed answer\n%s\nfetched\n%s", q, got, want)
		}
		if streamed.BytesRead != fetched.BytesRead {
			t.Errorf("%s: streamed scan read %d bytes, fetched %d", q, streamed.BytesRead, fetched.BytesRead)
		}
		if streamed.Requests <= fetched.Requests {
			t.Errorf("%s: streamed scan made %d requests, fetched %d: nothing streamed", q, streamed.Requests, fetched.Requests)
		}
	}
}

// TestReleasedBatchesKeepAnswers streams queries, releasing each batch once
// its rows are read, and checks the rows against Execute's: storage a
// released batch hands back must serve only batches made after it.
func TestReleasedBatchesKeepAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	for _, tc := range []struct {
		sql      string
		recycles bool
	}{
		{"SELECT order_id, status, amount FROM 'fixtures/orders_shuffled.parquet'", true},
		{"SELECT amount, order_id FROM 'fixtures/orders_sorted.parquet' WHERE status <> 'shipped'", true},
		{"SELECT city, note FROM 'fixtures/orders_shuffled.parquet' LIMIT 3000 OFFSET 1000", true},
		{"SELECT DISTINCT status, city FROM 'fixtures/orders_shuffled.parquet'", true},
		{"SELECT order_id, order_id FROM 'fixtures/orders_sorted.parquet'", false},
		{"SELECT order_id + 1, status FROM 'fixtures/orders_sorted.parquet'", false},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			s := NewSession()
			want, err := s.Execute(context.Background(), tc.sql)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Stream(context.Background(), tc.sql)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			var got []string
			released := 0
			for {
				b, err := res.Next()
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				for r := range b.Len {
					got = append(got, rowString(b, r))
				}
				if b.from != nil {
					released++
				}
				res.Release(b)
			}
			var rows []string
			for _, b := range want.Batches {
				for r := range b.Len {
					rows = append(rows, rowString(b, r))
				}
			}
			slices.Sort(got)
			slices.Sort(rows)
			if !slices.Equal(got, rows) {
				t.Fatalf("%d rows streamed and released differ from the %d rows of Execute", len(got), len(rows))
			}
			if tc.recycles != (released > 0) {
				t.Errorf("%d batches recycled; want recycling %v", released, tc.recycles)
			}
		})
	}
}

// rowString renders row r of b as text.
func rowString(b *Batch, r int) string {
	var buf []byte
	for _, v := range b.Vectors {
		if v.IsNull(r) {
			buf = append(buf, "NULL"...)
		} else {
			buf = AppendText(buf, v, r)
		}
		buf = append(buf, '\t')
	}
	return string(buf)
}

// TestDroppedCarryKeepsAnswers checks a late read whose WHERE passes most
// rows: the carry of its column grows past what reading it again costs, is
// dropped, and the column is read again for the rows passed.
func TestDroppedCarryKeepsAnswers(t *testing.T) {
	t.Chdir(moduleRoot(t))
	for _, q := range []string{
		"SELECT count(*), sum(order_id), max(note), sum(amount) FROM 'fixtures/orders_shuffled.parquet' WHERE order_id % 7 <> 3",
		// Strings outgrow their pages' bytes, and are read again.
		"SELECT count(*), max(note), min(note), sum(amount) FROM 'fixtures/orders_shuffled.parquet' WHERE note <> 'x' OR amount > 0",
	} {
		checkDroppedCarry(t, q)
	}
	// A join filter's list of most customers, carried out of judging the
	// customer ids though it keeps most of them (as a short list would).
	old := rowsPerPickedValue
	rowsPerPickedValue = 0
	defer func() { rowsPerPickedValue = old }()
	checkDroppedCarry(t, "SELECT count(*), sum(o.customer_id), sum(o.amount) FROM (SELECT DISTINCT customer_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id % 3 <> 0) AS c "+
		"JOIN 'fixtures/orders_shuffled.parquet' AS o ON o.customer_id = c.customer_id")
}

// checkDroppedCarry checks that q's answer, streamed, is its answer
// fetched.
func checkDroppedCarry(t *testing.T, q string) {
	t.Helper()
	run := func() string {
		res, err := NewSession().Execute(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for c := range res.Columns {
			v, _ := res.Cell(0, c)
			text.WriteString(v + "\t")
		}
		return text.String()
	}
	var want, got string
	withStreamWindow(t, 1<<30, func() { want = run() })
	withStreamWindow(t, 256, func() { got = run() })
	if got != want {
		t.Errorf("%s: streamed %q, fetched %q", q, got, want)
	}
}
