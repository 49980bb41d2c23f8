package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/pqsql/pqsql/exec"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

func TestParseProcIO(t *testing.T) {
	got, err := parseProcIO([]byte("rchar: 12345\nwchar: 9\nsyscr: 4\nsyscw: 1\nread_bytes: 4096\nwrite_bytes: 0\ncancelled_write_bytes: 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got != (procIO{rchar: 12345, readBytes: 4096}) {
		t.Errorf("parsed %+v", got)
	}
	for _, bad := range []string{"rchar: 1\n", "rchar: x\nread_bytes: 1\n"} {
		if _, err := parseProcIO([]byte(bad)); !errors.Is(err, errProc) {
			t.Errorf("parseProcIO(%q) = %v, want errProc", bad, err)
		}
	}
}

func TestParseMemStatus(t *testing.T) {
	got, err := parseMemStatus([]byte("Name:\tbench\nVmPeak:\t  900 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1024 kB\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got != (memStatus{rss: 1 << 20, hwm: 2 << 20}) {
		t.Errorf("parsed %+v", got)
	}
	if _, err := parseMemStatus([]byte("VmHWM:\t2048 MB\nVmRSS:\t1 kB\n")); !errors.Is(err, errProc) {
		t.Errorf("a unit other than kB parsed: %v", err)
	}
}

// The peak RSS follows an allocation made after the reset, and the reset
// brings it back down once the memory is gone.
func TestPeakRSS(t *testing.T) {
	debug.FreeOSMemory()
	if err := resetPeakRSS(); err != nil {
		t.Skipf("this kernel cannot reset the peak RSS: %v", err)
	}
	before, err := readMemStatus()
	if err != nil {
		t.Fatal(err)
	}
	const size = 64 << 20
	b := make([]byte, size)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	after, err := readMemStatus()
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.hwm - before.rss; grew < size*3/4 {
		t.Errorf("peak RSS grew %d bytes after touching %d", grew, size)
	}
	b = nil
	if io0, err := readProcIO(); err != nil || io0.rchar <= 0 {
		t.Errorf("/proc/self/io: %+v, %v", io0, err)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{nil, 0},
	} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestSameAnswer(t *testing.T) {
	for _, tc := range []struct {
		a, b    []string
		ordered bool
		want    string // a substring of the difference, "" for none
	}{
		{[]string{"1\tx", "2\ty"}, []string{"2\ty", "1\tx"}, false, ""},
		{[]string{"1\tx", "2\ty"}, []string{"2\ty", "1\tx"}, true, "row 1"},
		{[]string{"1"}, []string{"1", "1"}, false, "pqsql 1 rows, DuckDB 2"},
		{[]string{"NULL"}, []string{"(empty)"}, true, "row 1"},
		{[]string{}, []string{}, true, ""},
	} {
		got := sameAnswer(tc.a, tc.b, tc.ordered)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("sameAnswer(%q, %q, %v) = %q, want %q", tc.a, tc.b, tc.ordered, got, tc.want)
		}
	}
}

func TestBind(t *testing.T) {
	files := map[string]string{"{sorted}": "/d/o's.parquet", "{parts}": "/d/p/*.parquet"}
	got, err := bind(query{name: "q", sql: "SELECT * FROM {sorted} UNION ALL SELECT * FROM {parts}"}, files)
	if err != nil {
		t.Fatal(err)
	}
	if want := "SELECT * FROM '/d/o''s.parquet' UNION ALL SELECT * FROM '/d/p/*.parquet'"; got.sql != want {
		t.Errorf("bound %q, want %q", got.sql, want)
	}
	if got.template != "SELECT * FROM {sorted} UNION ALL SELECT * FROM {parts}" {
		t.Errorf("template %q", got.template)
	}
	if _, err := bind(query{name: "q", sql: "SELECT * FROM {nowhere}"}, files); !errors.Is(err, errUsage) {
		t.Errorf("unknown placeholder: %v, want errUsage", err)
	}
}

// Every query names only files fileSet makes, and names are unique.
func TestQueriesBind(t *testing.T) {
	files := map[string]string{}
	for _, s := range fileSet(t.TempDir(), true) {
		for k, v := range s.files {
			files[k] = v
		}
	}
	local, remote := s3Bindings(files)
	seen := map[string]bool{}
	for _, q := range queries {
		if seen[q.name] {
			t.Errorf("query name %s used twice", q.name)
		}
		seen[q.name] = true
		if q.remote {
			for _, m := range []map[string]string{local, remote} {
				if _, err := bind(q, m); err != nil {
					t.Error(err)
				}
			}
			continue
		}
		if _, err := bind(q, files); err != nil {
			t.Error(err)
		}
	}
	all := selectQueries(queries, nil, true)
	short := selectQueries(queries, nil, false)
	if len(all) != len(queries) || len(short) >= len(all) {
		t.Errorf("%d queries, %d with -scale, %d without", len(queries), len(all), len(short))
	}
	for _, q := range short {
		if q.scale {
			t.Errorf("%s runs without -scale", q.name)
		}
	}
	if got := selectQueries(queries, regexp.MustCompile("^glob_"), false); len(got) != 3 {
		t.Errorf("-filter ^glob_ selects %d queries", len(got))
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1.00 KiB", 21 << 10: "21.0 KiB",
		632 << 10: "632 KiB", 60<<20 + 400<<10: "60.4 MiB", 3 << 30: "3.00 GiB",
	} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// pqsql's side end to end on a committed fixture: the answer as text, the
// CSV file as the shell writes it, and the reader's byte count.
func TestPQEngine(t *testing.T) {
	fixture, err := filepath.Abs("../fixtures/orders_sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e := newPQEngine(benchThreads())
	q, err := bind(query{name: "q", sql: "SELECT order_id, note, discount FROM {sorted} WHERE order_id IN (49, 50, 777) ORDER BY order_id"},
		map[string]string{"{sorted}": fixture})
	if err != nil {
		t.Fatal(err)
	}
	answer, err := e.exec(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := answer()
	if err != nil {
		t.Fatal(err)
	}
	// Order 50 has an empty note, order 777 a NaN discount (fixtures/README.md).
	if got := strings.Join(rows, "\n"); !strings.Contains(got, "50\t\t") || !strings.Contains(got, "777\t") || !strings.HasSuffix(got, "nan") {
		t.Errorf("answer:\n%s", got)
	}
	n, requests, err := e.readerBytes(ctx, q.sql)
	if err != nil || n <= 0 || requests <= 0 {
		t.Errorf("reader bytes %d in %d requests, %v", n, requests, err)
	}

	q.csv, q.csvOut = true, filepath.Join(t.TempDir(), "out.csv")
	q.sql = "SELECT 'a,b' AS x, 'say \"hi\"' AS y, NULL AS z, '' AS e"
	answer, err = e.exec(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(q.csvOut)
	if err != nil {
		t.Fatal(err)
	}
	if want := "x,y,z,e\n\"a,b\",\"say \"\"hi\"\"\",,\"\"\n"; string(b) != want {
		t.Errorf("CSV %q, want %q", b, want)
	}
	if rows, err := answer(); err != nil || len(rows) != 2 {
		t.Errorf("CSV answer %q, %v", rows, err)
	}
}

// Both engines on a committed fixture: the same answers, rendered the same
// way, for values whose text is easy to get wrong (NaN, -0.0, NULL, the
// empty string, decimals, timestamps), and CSV files that match.
func TestEnginesAgree(t *testing.T) {
	fixture, err := filepath.Abs("../fixtures/orders_sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	duck, err := newDuckEngine(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer duck.close()
	pq := newPQEngine(2)
	files := map[string]string{"{sorted}": fixture}
	for _, qt := range []query{
		{name: "values", sql: "SELECT order_id, shipped_at, amount, discount, note FROM {sorted} WHERE order_id IN (50, 100, 777, 1234, 3000) ORDER BY order_id", ordered: true},
		{name: "groups", sql: "SELECT status, count(*), sum(amount) FROM {sorted} GROUP BY status"},
		{name: "csv", sql: "SELECT order_id, status, amount, note FROM {sorted} WHERE order_id <= 2000", ordered: true, csv: true},
	} {
		q, err := bind(qt, files)
		if err != nil {
			t.Fatal(err)
		}
		var answers [2][]string
		for i, e := range []engine{pq, duck} {
			if q.csv {
				q.csvOut = filepath.Join(t.TempDir(), e.name()+".csv")
			}
			answer, err := e.exec(ctx, q)
			if err != nil {
				t.Fatalf("%s: %s: %v", qt.name, e.name(), err)
			}
			if answers[i], err = answer(); err != nil {
				t.Fatalf("%s: %s: %v", qt.name, e.name(), err)
			}
		}
		if len(answers[0]) < 5 {
			t.Errorf("%s: only %d rows", qt.name, len(answers[0]))
		}
		if d := sameAnswer(answers[0], answers[1], qt.ordered); d != "" {
			t.Errorf("%s: answers differ: %s", qt.name, d)
		}
	}
}

// The markdown survives a JSON round trip (-render) and shows the ratio,
// the geometric mean, errors and the scaling section.
func TestMarkdown(t *testing.T) {
	ok := func(ms float64) engineStats {
		return engineStats{TimesMS: []float64{ms}, MedianMS: ms, MinMS: ms, MaxMS: ms, RChar: 2048, PeakGoHeap: 1 << 20}
	}
	rep := report{Command: "go run . -scale", Runs: 1, Threads: 2, Machine: machine{CPUs: 2}, LoadStart: "1.5 1 1", LoadEnd: "2.5 2 1", Queries: []queryResult{
		{Name: "scale_sum_1m", SQL: "SELECT 1", PQSQL: ok(10), DuckDB: ok(20), Ratio: 0.5, Identical: true, Answers: "identical"},
		{Name: "scale_sum_10m", SQL: "SELECT 1", PQSQL: ok(100), DuckDB: ok(100), Ratio: 2, Identical: true, Answers: "identical"},
		{Name: "join", SQL: "SELECT 1", PQSQL: engineStats{Error: "Not implemented Error: joins"}, DuckDB: ok(5), Answers: "not compared"},
	}}
	rep.GeoMean = geoMean(rep.Queries)
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	back.writeMarkdown(&out)
	for _, want := range []string{
		"| `scale_sum_1m` | 10.0 (10.0–10.0) | 20.0 (20.0–20.0) | 0.50x |",
		"**1.00x**",
		"| `join` | error | 5.00 (5.00–5.00) | – |",
		"not compared; pqsql: Not implemented Error: joins",
		"| `sum` | 10.0x | 5.0x | 1.00 MiB / 1.00 MiB |",
		"**These numbers come from a loaded machine**",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, out.String())
		}
	}
}

// BenchmarkPQSQL runs pqsql's side of each 1M-row query over the files a
// run of the benchmark cached in data/ (skipped when there are none), as
// the timed runs do: for profiling one row, such as
// go test -run XXX -bench 'PQSQL/join_selective$' -cpuprofile cpu.prof.
// BENCH_DATA in the environment names another data directory; when it holds
// the 10M-row file (orders-10m) the scale queries run too.
func BenchmarkPQSQL(b *testing.B) {
	dataDir, scale := "data", false
	if d := os.Getenv("BENCH_DATA"); d != "" {
		dataDir = d
		_, err := os.Stat(filepath.Join(d, "orders-10m", stampName))
		scale = err == nil
	}
	specs := fileSet(dataDir, scale)
	files := map[string]string{}
	for _, s := range specs {
		if _, err := os.Stat(filepath.Join(s.dir, stampName)); err != nil {
			b.Skipf("no generated files in %s: run the benchmark once", s.dir)
		}
		for k, v := range s.files {
			files[k] = v
		}
	}
	out := b.TempDir()
	ctx := context.Background()
	for _, q := range selectQueries(queries, nil, scale) {
		if q.remote {
			continue
		}
		bq, err := bind(q, files)
		if err != nil {
			b.Fatal(err)
		}
		if q.csv {
			bq.csvOut = filepath.Join(out, q.name+".csv")
		}
		b.Run(q.name, func(b *testing.B) {
			e := newPQEngine(benchThreads())
			for b.Loop() {
				answer, err := e.exec(ctx, bq)
				if err != nil {
					b.Fatal(err)
				}
				_ = answer
			}
		})
	}
}

// A memory child opens the engine it is named, runs the query it is named
// once over the files under its data directory, and prints what it measured;
// a name that is neither engine nor query is a usage error.
func TestMemChild(t *testing.T) {
	if err := resetPeakRSS(); err != nil {
		t.Skipf("this kernel cannot reset the peak RSS: %v", err)
	}
	fixture, err := filepath.Abs("../fixtures/orders_sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "orders-1m"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fixture, filepath.Join(data, "orders-1m", "orders_sorted.parquet")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Warmed, each engine first runs the query on the small fixtures,
	// pqsql's free heap kept or handed back.
	for _, mode := range []memMode{{}, {warm: true}, {warm: true, release: true}, {code: true}} {
		for _, e := range []string{"pqsql", "DuckDB"} {
			var out bytes.Buffer
			if err := memChild(ctx, e, "point_lookup_sorted", 2, data, mode, &out); err != nil {
				t.Fatalf("%s (mode %+v): %v", e, mode, err)
			}
			var m memSample
			if err := json.Unmarshal(out.Bytes(), &m); err != nil {
				t.Fatalf("%s: %v in %q", e, err, out.String())
			}
			if m.BaseRSS <= 0 || m.PeakRSSDelta < 0 || m.ElapsedMS <= 0 {
				t.Errorf("%s (mode %+v): %+v", e, mode, m)
			}
			if e == "DuckDB" && m.PeakGoHeap != 0 {
				t.Errorf("DuckDB's sample holds a Go heap peak: %+v", m)
			}
		}
	}
	for _, bad := range [][2]string{{"sqlite", "point_lookup_sorted"}, {"pqsql", "no_such_query"}} {
		if err := memChild(ctx, bad[0], bad[1], 2, data, memMode{}, io.Discard); !errors.Is(err, errUsage) {
			t.Errorf("%s on %s: %v, want a usage error", bad[0], bad[1], err)
		}
	}
}

// The memory report gives each engine's median peak RSS Δ with its range,
// the ratio, pqsql's heap peak and how many rows pqsql is at most DuckDB's.
func TestMemoryMarkdown(t *testing.T) {
	pq := summarizeMem([]memSample{{BaseRSS: 30 << 20, PeakRSSDelta: 1 << 20, PeakGoHeap: 512 << 10}, {BaseRSS: 30 << 20, PeakRSSDelta: 3 << 20, PeakGoHeap: 128 << 10}, {BaseRSS: 30 << 20, PeakRSSDelta: 2 << 20, PeakGoHeap: 256 << 10}}, nil)
	duck := summarizeMem([]memSample{{BaseRSS: 50 << 20, PeakRSSDelta: 4 << 20}}, nil)
	failed := summarizeMem(nil, errors.New("DuckDB: exit status 1: boom"))
	rep := memReport{Runs: 3, Threads: 2, Machine: machine{CPUs: 2}, Queries: []memQuery{
		{Name: "q1", PQSQL: pq, DuckDB: duck},
		{Name: "q2", PQSQL: pq, DuckDB: failed},
	}}
	var out bytes.Buffer
	rep.writeMarkdown(&out)
	for _, want := range []string{
		"| `q1` | 2.00 MiB (1.00 MiB–3.00 MiB) | 256 KiB | 4.00 MiB (4.00 MiB–4.00 MiB) | 0.50x |",
		"| `q2` | 2.00 MiB (1.00 MiB–3.00 MiB) | 256 KiB | error: DuckDB: exit status 1: boom | – |",
		"at most DuckDB's: 1 of 1.",
		"pqsql 30.0 MiB, DuckDB 50.0 MiB",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, out.String())
		}
	}
}

// benchThreads is the engine's threads: BENCH_THREADS, or 2 as in the timed runs.
func benchThreads() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_THREADS")); err == nil && n > 0 {
		return n
	}
	return 2
}

// TestQueriesVectorized runs every local query of the benchmark (the 1M-row
// and the scaling ones) on the committed fixtures, which have the same
// schema, and checks that none computes a value with the row-at-a-time
// evaluator: the issue the benchmark answers asks that every one of them
// runs on the vectorized kernels.
func TestQueriesVectorized(t *testing.T) {
	sorted, err := filepath.Abs("../fixtures/orders_sorted.parquet")
	if err != nil {
		t.Fatal(err)
	}
	shuffled, err := filepath.Abs("../fixtures/orders_shuffled.parquet")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"{sorted}": sorted, "{shuffled}": shuffled, "{sorted10m}": sorted,
		"{parts}": filepath.Join(filepath.Dir(sorted), "orders_s*.parquet")}
	ctx := context.Background()
	e := newPQEngine(2)
	n := 0
	for _, q := range selectQueries(queries, nil, true) {
		if q.remote {
			continue
		}
		bq, err := bind(q, files)
		if err != nil {
			t.Fatal(err)
		}
		if q.csv {
			bq.csvOut = filepath.Join(t.TempDir(), q.name+".csv")
		}
		before := exec.RowEvaluations()
		answer, err := e.exec(ctx, bq)
		if err != nil {
			t.Fatalf("%s: %v", q.name, err)
		}
		if _, err := answer(); err != nil {
			t.Fatalf("%s: %v", q.name, err)
		}
		if got := exec.RowEvaluations() - before; got != 0 {
			t.Errorf("%s: %d values computed row at a time", q.name, got)
		}
		n++
	}
	// The counter counts: a WHERE no kernel takes goes row by row.
	bq, err := bind(query{name: "fallback", sql: "SELECT count(*) FROM {sorted} WHERE md5(note) < 'z'"}, files)
	if err != nil {
		t.Fatal(err)
	}
	before := exec.RowEvaluations()
	if _, err := e.exec(ctx, bq); err != nil {
		t.Fatal(err)
	}
	if exec.RowEvaluations() == before {
		t.Error("a WHERE on md5() was not counted as row-at-a-time")
	}
	if n < 30 {
		t.Errorf("%d queries ran", n)
	}
}

// Every local query, the scaling ones included, has its warm-up run on the
// fixtures: a placeholder without a fixture would fail the warmed child.
func TestWarmFilesBindEveryQuery(t *testing.T) {
	for _, q := range selectQueries(queries, nil, true) {
		if q.remote {
			continue
		}
		if _, err := bind(q, warmFiles); err != nil {
			t.Errorf("%s: %v", q.name, err)
		}
	}
}

// residentCode leaves every readable page the program maps from its own
// binary resident.
func TestResidentCode(t *testing.T) {
	if err := residentCode(); err != nil {
		t.Skipf("this kernel cannot populate mappings: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ms, err := mappedFiles()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	var size int64
	for _, m := range ms {
		if m.path == self {
			want[fmt.Sprintf("%08x-%08x", m.start, m.end)] = true
			size += int64(m.end - m.start)
		}
	}
	if size < 1<<20 {
		t.Fatalf("the binary maps %d readable bytes", size)
	}
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var resident int64
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			in = want[f[0]]
			continue
		}
		if in && len(f) == 3 && f[0] == "Rss:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			resident += kb << 10
		}
	}
	if resident != size {
		t.Errorf("%d of the binary's %d mapped bytes resident", resident, size)
	}
}
