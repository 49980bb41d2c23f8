package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// engineStats is what one engine measured on one query.
type engineStats struct {
	Error    string    `json:"error,omitempty"`
	TimesMS  []float64 `json:"times_ms,omitempty"`
	MedianMS float64   `json:"median_ms"`
	MinMS    float64   `json:"min_ms"`
	MaxMS    float64   `json:"max_ms"`
	// RChar is the growth of /proc/self/io rchar during the median run:
	// bytes returned by read system calls, page cache hits included.
	RChar int64 `json:"rchar_bytes"`
	// StorageReadBytes is /proc/self/io read_bytes: bytes fetched from the
	// disk (0 when the page cache held the file).
	StorageReadBytes int64 `json:"storage_read_bytes"`
	// PeakRSSDelta is the largest, over the runs, of the peak resident set
	// size during a run less the resident set size before it.
	PeakRSSDelta int64 `json:"peak_rss_delta_bytes"`
	// PeakGoHeap is the largest Go heap in use sampled during a run, less
	// the heap in use before it; only pqsql's memory lives there.
	PeakGoHeap int64 `json:"peak_go_heap_bytes"`
	Rows       int   `json:"rows"`
}

// queryResult is one row of the report.
type queryResult struct {
	Name string `json:"name"`
	// SQL is the query with its files as placeholders (report.Files).
	SQL    string      `json:"sql"`
	PQSQL  engineStats `json:"pqsql"`
	DuckDB engineStats `json:"duckdb"`
	// PQSQLReaderBytes and PQSQLReaderRequests are what pqsql's reader
	// counted under EXPLAIN ANALYZE: every read of the query's files.
	PQSQLReaderBytes    int64 `json:"pqsql_reader_bytes"`
	PQSQLReaderRequests int64 `json:"pqsql_reader_requests"`
	// Ratio is pqsql's median time over DuckDB's.
	Ratio     float64 `json:"ratio,omitempty"`
	Identical bool    `json:"identical"`
	Answers   string  `json:"answers"`
}

// A report is the whole run.
type report struct {
	Command   string            `json:"command"`
	Date      string            `json:"date"`
	Machine   machine           `json:"machine"`
	Threads   int               `json:"threads"`
	Runs      int               `json:"runs"`
	DuckDB    string            `json:"duckdb_version"`
	Go        string            `json:"go_version"`
	LoadStart string            `json:"loadavg_start"`
	LoadEnd   string            `json:"loadavg_end"`
	Files     map[string]string `json:"files"`
	Queries   []queryResult     `json:"queries"`
	GeoMean   float64           `json:"geomean_ratio,omitempty"`
}

// machine describes the computer the numbers come from.
type machine struct {
	CPUs     int    `json:"cpus"`
	CPUModel string `json:"cpu_model"`
	MemTotal string `json:"mem_total"`
}

func thisMachine() machine {
	m := machine{CPUs: runtime.NumCPU()}
	m.CPUModel = procField("/proc/cpuinfo", "model name")
	m.MemTotal = procField("/proc/meminfo", "MemTotal")
	if kb, ok := strings.CutSuffix(m.MemTotal, " kB"); ok {
		if n, err := strconv.ParseInt(kb, 10, 64); err == nil {
			m.MemTotal = humanBytes(n << 10)
		}
	}
	return m
}

// procField returns the value of the first "name: value" line of a /proc
// file, or "unknown".
func procField(path, name string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "unknown"
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// loaded reports whether the one-minute load average, at the start or the
// end, exceeded the number of CPUs.
func (r *report) loaded() bool {
	for _, l := range []string{r.LoadStart, r.LoadEnd} {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if v, err := strconv.ParseFloat(f[0], 64); err == nil && v > float64(r.Machine.CPUs) {
			return true
		}
	}
	return false
}

// geoMean is the geometric mean of the positive ratios.
func geoMean(qs []queryResult) float64 {
	var sum float64
	n := 0
	for _, q := range qs {
		if q.Ratio > 0 {
			sum += math.Log(q.Ratio)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return math.Exp(sum / float64(n))
}

// writeMarkdown prints the report as RESULTS.md holds it.
func (r *report) writeMarkdown(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("# pqsql and DuckDB side by side\n\n")
	p("- command: `%s` (in bench/)\n", r.Command)
	p("- date: %s\n", r.Date)
	p("- machine: %d CPUs (%s), %s memory; load average %s at the start, %s at the end\n",
		r.Machine.CPUs, r.Machine.CPUModel, r.Machine.MemTotal, r.LoadStart, r.LoadEnd)
	p("- engines: pqsql (this checkout, %s) and DuckDB %s, in one process, %d threads each, %d runs of each query\n\n",
		r.Go, r.DuckDB, r.Threads, r.Runs)
	if r.loaded() {
		p("**These numbers come from a loaded machine**: its load average exceeded its %d CPUs during the run, "+
			"as other builds shared it. Times vary from run to run (see each min–max) and the ratios "+
			"with them; bytes and answers do not depend on the load.\n\n", r.Machine.CPUs)
	}
	p("| query | pqsql ms median (min–max) | DuckDB ms median (min–max) | pqsql / DuckDB | pqsql bytes: reader / rchar | DuckDB bytes: rchar | pqsql memory: Go heap peak / RSS Δ | DuckDB memory: RSS Δ | answers |\n")
	p("|---|---|---|---|---|---|---|---|---|\n")
	faster, identical, fewerBytes, compared := 0, 0, 0, 0
	for _, q := range r.Queries {
		ratio := "–"
		if q.Ratio > 0 {
			ratio = fmt.Sprintf("%.2fx", q.Ratio)
			compared++
			if q.Ratio <= 1 {
				faster++
			}
			if q.PQSQL.RChar <= q.DuckDB.RChar {
				fewerBytes++
			}
		}
		if q.Identical {
			identical++
		}
		answers := q.Answers
		if q.PQSQL.Error != "" {
			answers += "; pqsql: " + oneLine(q.PQSQL.Error)
		}
		if q.DuckDB.Error != "" {
			answers += "; DuckDB: " + oneLine(q.DuckDB.Error)
		}
		p("| `%s` | %s | %s | %s | %s / %s | %s | %s / %s | %s | %s |\n",
			q.Name, timeCell(q.PQSQL), timeCell(q.DuckDB), ratio,
			byteCell(q.PQSQLReaderBytes, q.PQSQL), byteCell(q.PQSQL.RChar, q.PQSQL), byteCell(q.DuckDB.RChar, q.DuckDB),
			byteCell(q.PQSQL.PeakGoHeap, q.PQSQL), byteCell(q.PQSQL.PeakRSSDelta, q.PQSQL), byteCell(q.DuckDB.PeakRSSDelta, q.DuckDB),
			answers)
	}
	p("\nGeometric mean of pqsql / DuckDB over the %d queries both ran: **%.2fx**. ", compared, r.GeoMean)
	p("pqsql at most DuckDB's median time: %d of %d; ", faster, compared)
	p("read (rchar) at most DuckDB's bytes: %d of %d; identical answers: %d of %d.\n\n", fewerBytes, compared, identical, len(r.Queries))
	r.writeScaling(w)
	p("The SQL of every row, its files as placeholders:\n\n")
	for _, q := range r.Queries {
		p("- `%s`: `%s`\n", q.Name, q.SQL)
	}
	p("\nThe files (made by fixtures/gen, under bench/data/): %s.\n\n", fileNotes)
	p("\n%s", methodNotes)
}

// writeScaling prints, for each scaling query run on both sizes, how each
// engine's median time and pqsql's heap peak grew from 1M to 10M rows.
func (r *report) writeScaling(w io.Writer) {
	byName := map[string]queryResult{}
	for _, q := range r.Queries {
		byName[q.Name] = q
	}
	header := false
	for _, q := range r.Queries {
		base, ok := strings.CutSuffix(q.Name, "_1m")
		if !ok || !strings.HasPrefix(base, "scale_") {
			continue
		}
		big, ok := byName[base+"_10m"]
		if !ok || q.Ratio == 0 || big.Ratio == 0 {
			continue
		}
		if !header {
			fmt.Fprintf(w, "Scaling from 1M to 10M rows (10M time / 1M time; linear is 10x):\n\n")
			fmt.Fprintf(w, "| query | pqsql growth | DuckDB growth | pqsql Go heap peak 1M / 10M | pqsql RSS Δ 10M | DuckDB RSS Δ 10M |\n|---|---|---|---|---|---|\n")
			header = true
		}
		fmt.Fprintf(w, "| `%s` | %.1fx | %.1fx | %s / %s | %s | %s |\n", strings.TrimPrefix(base, "scale_"),
			big.PQSQL.MedianMS/q.PQSQL.MedianMS, big.DuckDB.MedianMS/q.DuckDB.MedianMS,
			humanBytes(q.PQSQL.PeakGoHeap), humanBytes(big.PQSQL.PeakGoHeap),
			humanBytes(big.PQSQL.PeakRSSDelta), humanBytes(big.DuckDB.PeakRSSDelta))
	}
	if header {
		fmt.Fprintln(w)
	}
}

// methodNotes says how every number of the table is measured.
const fileNotes = "orders files of the fixture generator's schema, row groups of 128Ki rows " +
	"(8 in a 1M-row file), data pages of 2,000 rows, page index on every column, Bloom " +
	"filters on customer_id and city, snappy; customers drawn from a pool of 800,000 ids. " +
	"`{sorted}`: 1M rows by order_id (sorting_columns set); `{shuffled}`: the same rows " +
	"shuffled; `{parts}`: the sorted rows cut into 16 files of 62,500 consecutive order_ids, " +
	"read through a glob; `{sorted10m}`: 10M rows by order_id"

const methodNotes = `How the numbers are measured:

- **Time**: wall time of one query in-process, from the call until every
  row is produced: pqsql's ` + "`exec.Session.Execute`" + ` returning its batches;
  DuckDB's rows fetched through database/sql without converting them to Go
  values. The CSV row writes the file in both (DuckDB: ` + "`COPY ... TO`" + `;
  pqsql: its result written by the benchmark as COPY writes CSV). The two
  engines alternate run by run, the one that starts swapping each run, after
  an untimed run of each (pqsql's EXPLAIN ANALYZE, DuckDB's answer).
- **Bytes**: *reader* is what pqsql's own reader counted under EXPLAIN
  ANALYZE (every read of the files, by any purpose); *rchar* is the growth
  of /proc/self/io's rchar during a timed run (bytes returned by read system
  calls, page cache hits included, less the bytes of reading /proc/self/io
  itself). The files sit in the page cache, so read_bytes (the disk) is
  about 0 and is only in the JSON output. DuckDB's external file cache is
  off, so each of its runs reads the file again.
- **Memory**: *RSS Δ* is the peak resident set size during a run
  (VmHWM, reset before each run through /proc/self/clear_refs) less the
  resident set size before it; the largest over the runs. Before each run
  the Go heap is collected and returned to the system; DuckDB's allocator
  may keep memory from an earlier query, which then does not count again,
  so DuckDB's RSS Δ can understate its peak. *Go heap peak* samples
  pqsql's heap in use (live and unswept objects, runtime/metrics) every
  millisecond, less the heap in use before the run (the answers the
  benchmark keeps of earlier runs); it includes the result being built,
  and the tables of a large GROUP BY that pqsql maps outside the Go heap.
  Like DuckDB's allocator, pqsql keeps buffers between the queries of a
  session (fetched bytes and number dictionaries, up to 32 MiB idle, held
  across collections), so neither column charges a run for buffers an
  earlier run left; the fresh-process table (-memory) does.
- **Answers**: each engine's first run, rendered as DuckDB's
  CAST(v AS VARCHAR) text (pqsql's exec.AppendText; DuckDB's own cast in a
  wrapping SELECT), compared row by row, in order where the query has a
  total ORDER BY and as multisets otherwise; the CSV files line by line.
`

func timeCell(s engineStats) string {
	if len(s.TimesMS) == 0 {
		return "error"
	}
	return fmt.Sprintf("%s (%s–%s)", ms(s.MedianMS), ms(s.MinMS), ms(s.MaxMS))
}

func ms(v float64) string {
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

func byteCell(n int64, s engineStats) string {
	if len(s.TimesMS) == 0 {
		return "–"
	}
	return humanBytes(n)
}

// humanBytes prints n in B, KiB, MiB or GiB with three significant digits.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB"} {
		v /= unit
		if v < unit || u == "GiB" {
			switch {
			case v < 10:
				return fmt.Sprintf("%.2f %s", v, u)
			case v < 100:
				return fmt.Sprintf("%.1f %s", v, u)
			}
			return fmt.Sprintf("%.0f %s", v, u)
		}
	}
	return ""
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", "\\|")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

func itoa(n int) string { return fmt.Sprint(n) }
