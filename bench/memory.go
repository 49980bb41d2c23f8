package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The memory mode (-memory) measures each engine's peak memory on each
// query in a process of its own: the program runs itself again with
// -memory-child, which opens one engine, runs one query once, cold, and
// prints what it measured. In the side-by-side runs both engines share one
// long-lived process, where DuckDB's allocator keeps memory from earlier
// queries (its RSS Δ then understates its peak) while pqsql's heap is
// handed back before each run; here neither engine has run anything before
// the query, and both are measured by the kernel's count alone.

// A memSample is what one child process measured.
type memSample struct {
	// BaseRSS is the resident set size after the engine is open, before
	// the query.
	BaseRSS int64 `json:"base_rss_bytes"`
	// PeakRSSDelta is the peak resident set size during the query (VmHWM)
	// less BaseRSS.
	PeakRSSDelta int64 `json:"peak_rss_delta_bytes"`
	// PeakGoHeap is the largest Go heap in use during the query less the
	// heap in use before it; only pqsql's memory lives there.
	PeakGoHeap int64   `json:"peak_go_heap_bytes"`
	ElapsedMS  float64 `json:"elapsed_ms"`
}

// memStats is one engine's samples of one query and their medians.
type memStats struct {
	Error        string      `json:"error,omitempty"`
	Samples      []memSample `json:"samples,omitempty"`
	BaseRSS      int64       `json:"median_base_rss_bytes"`
	PeakRSSDelta int64       `json:"median_peak_rss_delta_bytes"`
	PeakGoHeap   int64       `json:"median_peak_go_heap_bytes"`
}

func summarizeMem(samples []memSample, err error) memStats {
	s := memStats{Samples: samples}
	if err != nil {
		s.Error = err.Error()
	}
	var base, rss, heap []int64
	for _, m := range samples {
		base = append(base, m.BaseRSS)
		rss = append(rss, m.PeakRSSDelta)
		heap = append(heap, m.PeakGoHeap)
	}
	s.BaseRSS, s.PeakRSSDelta, s.PeakGoHeap = median(base), median(rss), median(heap)
	return s
}

// memQuery is one row of the memory report.
type memQuery struct {
	Name   string   `json:"name"`
	SQL    string   `json:"sql"`
	PQSQL  memStats `json:"pqsql"`
	DuckDB memStats `json:"duckdb"`
}

// A memReport is a whole run of the memory mode.
type memReport struct {
	Command   string     `json:"command"`
	Date      string     `json:"date"`
	Machine   machine    `json:"machine"`
	Threads   int        `json:"threads"`
	Runs      int        `json:"runs"`
	Warm      bool       `json:"warm"`
	Release   bool       `json:"release,omitempty"`
	Code      bool       `json:"code,omitempty"`
	Go        string     `json:"go_version"`
	LoadStart string     `json:"loadavg_start"`
	LoadEnd   string     `json:"loadavg_end"`
	Queries   []memQuery `json:"queries"`
}

// memChildFlag names the engine a child process measures; memQueryFlag the
// query it runs.
const (
	memChildFlag   = "memory-child"
	memQueryFlag   = "memory-query"
	memWarmFlag    = "memory-warm"
	memReleaseFlag = "memory-release"
	memCodeFlag    = "memory-code"
)

// A memMode is how a child prepares before its baseline. Fresh (neither):
// the engine is opened, pqsql's heap collected and handed back, nothing
// run. warm: the query ran once on the small fixtures first, and pqsql's
// heap is collected but, as between the queries of a session, its free
// pages stay with the process, as DuckDB's allocator keeps its own;
// release: hand them back all the same (debug.FreeOSMemory), so that the
// query pays again for every page pqsql's runtime touches, which no
// session does.
//
// Unless code is set, the pages of the files the process maps (the
// binary's code and data, both engines', and shared libraries) are made
// resident before the baseline (residentCode), so that the query is
// charged for the memory it makes; with code, for the code pages it
// touches first as well.
type memMode struct {
	warm, release, code bool
}

// warmFiles stand for the placeholders in a warmed child's first run: the
// repository's small orders fixtures, of the benchmark files' schema, so
// the run takes the query's code paths without touching its data.
var warmFiles = map[string]string{
	"{sorted}":    filepath.Join("..", "fixtures", "orders_sorted.parquet"),
	"{shuffled}":  filepath.Join("..", "fixtures", "orders_shuffled.parquet"),
	"{parts}":     filepath.Join("..", "fixtures", "orders_s*.parquet"),
	"{sorted10m}": filepath.Join("..", "fixtures", "orders_sorted.parquet"),
}

// runMemory measures every query in both engines, runs times each, each
// run in a fresh child process, the engine that starts alternating from run
// to run.
func runMemory(ctx context.Context, qs []query, cfg memConfig, stdout, stderr io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	rep := &memReport{
		Command:   strings.TrimSpace("go run . " + strings.Join(cfg.args, " ")),
		Date:      time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Machine:   thisMachine(),
		Threads:   cfg.threads,
		Runs:      cfg.runs,
		Warm:      cfg.mode.warm,
		Release:   cfg.mode.warm && cfg.mode.release,
		Code:      cfg.mode.code,
		Go:        runtime.Version(),
		LoadStart: loadAvg(),
	}
	for _, q := range qs {
		if ctx.Err() != nil {
			break
		}
		samples := map[string][]memSample{}
		errs := map[string]error{}
		for i := range cfg.runs {
			order := []string{"pqsql", "DuckDB"}
			if i%2 == 1 {
				order = []string{"DuckDB", "pqsql"}
			}
			for _, e := range order {
				if errs[e] != nil {
					continue
				}
				m, err := runMemChild(ctx, self, e, q.name, cfg)
				if err != nil {
					errs[e] = err
					continue
				}
				samples[e] = append(samples[e], m)
			}
		}
		row := memQuery{Name: q.name, SQL: q.sql,
			PQSQL:  summarizeMem(samples["pqsql"], errs["pqsql"]),
			DuckDB: summarizeMem(samples["DuckDB"], errs["DuckDB"]),
		}
		fmt.Fprintf(stderr, "%-28s pqsql RSS Δ %9s (Go heap %9s)  DuckDB RSS Δ %9s\n", q.name,
			humanBytes(row.PQSQL.PeakRSSDelta), humanBytes(row.PQSQL.PeakGoHeap), humanBytes(row.DuckDB.PeakRSSDelta))
		rep.Queries = append(rep.Queries, row)
	}
	rep.LoadEnd = loadAvg()
	if cfg.asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	rep.writeMarkdown(stdout)
	return ctx.Err()
}

// memConfig is how the memory mode runs.
type memConfig struct {
	runs, threads int
	dataDir       string
	mode          memMode
	asJSON        bool
	args          []string
}

// runMemChild runs this program again to measure query name in engine e.
func runMemChild(ctx context.Context, self, e, name string, cfg memConfig) (memSample, error) {
	cmd := osexec.CommandContext(ctx, self, "-"+memChildFlag, e, "-"+memQueryFlag, name,
		"-threads", strconv.Itoa(cfg.threads), "-data", cfg.dataDir, "-"+memWarmFlag+"="+strconv.FormatBool(cfg.mode.warm),
		"-"+memReleaseFlag+"="+strconv.FormatBool(cfg.mode.release),
		"-"+memCodeFlag+"="+strconv.FormatBool(cfg.mode.code))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return memSample{}, fmt.Errorf("%s: %w: %s", e, err, strings.TrimSpace(errOut.String()))
	}
	var m memSample
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		return memSample{}, fmt.Errorf("%s: child output: %w", e, err)
	}
	return m, nil
}

// memChild is the child process: it opens engine e, runs the query named
// name once, and prints a memSample as JSON. With mode.warm, the same
// query ran once on the small fixtures before (warmFiles); otherwise
// nothing did.
func memChild(ctx context.Context, e, name string, threads int, dataDir string, mode memMode, stdout io.Writer) error {
	files := map[string]string{}
	for _, s := range fileSet(dataDir, true) {
		for k, v := range s.files {
			files[k] = v
		}
	}
	i := slices.IndexFunc(queries, func(q query) bool { return q.name == name })
	if i < 0 {
		return fmt.Errorf("%w: no query named %q", errUsage, name)
	}
	q, err := bind(queries[i], files)
	if err != nil {
		return err
	}
	if q.csv {
		outDir := filepath.Join(dataDir, "out")
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return err
		}
		q.csvOut = filepath.Join(outDir, "memory-"+e+".csv")
	}
	var eng engine
	switch e {
	case "pqsql":
		eng = newPQEngine(threads)
	case "DuckDB":
		d, err := newDuckEngine(ctx, threads)
		if err != nil {
			return err
		}
		eng = d
	default:
		return fmt.Errorf("%w: -%s %q: pqsql or DuckDB", errUsage, memChildFlag, e)
	}
	defer eng.close()
	if mode.warm {
		w, err := bind(queries[i], warmFiles)
		if err != nil {
			return err
		}
		if w.csv {
			w.csvOut = filepath.Join(dataDir, "out", "memory-warm-"+e+".csv")
		}
		if _, err := eng.exec(ctx, w); err != nil {
			return fmt.Errorf("%s: the run on the fixtures before measuring: %w", name, err)
		}
	}
	runtime.GC()
	if !mode.warm || mode.release {
		debug.FreeOSMemory()
	}
	if !mode.code {
		if err := residentCode(); err != nil {
			return err
		}
	}
	if err := resetPeakRSS(); err != nil {
		return err
	}
	before, err := readMemStatus()
	if err != nil {
		return err
	}
	heap := startHeapSampler()
	start := time.Now()
	_, runErr := eng.exec(ctx, q)
	elapsed := time.Since(start)
	heapPeak := heap.stop()
	after, err := readMemStatus()
	if err != nil {
		return err
	}
	if runErr != nil {
		return runErr
	}
	m := memSample{
		BaseRSS:      before.rss,
		PeakRSSDelta: max(0, after.hwm-before.rss),
		ElapsedMS:    float64(elapsed.Microseconds()) / 1000,
	}
	if e == "pqsql" {
		m.PeakGoHeap = heapPeak
	}
	return json.NewEncoder(stdout).Encode(m)
}

// writeMarkdown prints the memory report as RESULTS.md holds it.
func (r *memReport) writeMarkdown(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("- command: `%s` (in bench/)\n", r.Command)
	p("- date: %s\n", r.Date)
	p("- machine: %d CPUs (%s), %s memory; load average %s at the start, %s at the end\n",
		r.Machine.CPUs, r.Machine.CPUModel, r.Machine.MemTotal, r.LoadStart, r.LoadEnd)
	warmed := ""
	if r.Warm {
		warmed = ", each engine having run the same query once on the repository's small orders fixtures before the baseline (-" + memWarmFlag + "), pqsql's heap collected and its free pages kept as between a session's queries"
		if r.Release {
			warmed = ", each engine having run the same query once on the repository's small orders fixtures before the baseline (-" + memWarmFlag + "), pqsql's free heap then handed back to the system (-" + memReleaseFlag + ")"
		}
	}
	code := "; the program's mapped files (both engines' code) made resident before the baseline"
	if r.Code {
		code = "; code pages a query touches first charged to it (-" + memCodeFlag + ")"
	}
	p("- each query once in a fresh process per engine and run%s%s, %d threads, %d runs (medians; pqsql built with %s)\n\n",
		warmed, code, r.Threads, r.Runs, r.Go)
	p("| query | pqsql peak RSS Δ median (min–max) | pqsql Go heap peak | DuckDB peak RSS Δ median (min–max) | pqsql / DuckDB |\n")
	p("|---|---|---|---|---|\n")
	atMost, compared := 0, 0
	var pqBase, duckBase []int64
	for _, q := range r.Queries {
		ratio := "–"
		if len(q.PQSQL.Samples) > 0 && len(q.DuckDB.Samples) > 0 {
			compared++
			if q.PQSQL.PeakRSSDelta <= q.DuckDB.PeakRSSDelta {
				atMost++
			}
			if q.DuckDB.PeakRSSDelta > 0 {
				ratio = fmt.Sprintf("%.2fx", float64(q.PQSQL.PeakRSSDelta)/float64(q.DuckDB.PeakRSSDelta))
			}
			pqBase = append(pqBase, q.PQSQL.BaseRSS)
			duckBase = append(duckBase, q.DuckDB.BaseRSS)
		}
		heap := "–"
		if len(q.PQSQL.Samples) > 0 {
			heap = humanBytes(q.PQSQL.PeakGoHeap)
		}
		p("| `%s` | %s | %s | %s | %s |\n", q.Name, memCell(q.PQSQL), heap, memCell(q.DuckDB), ratio)
	}
	p("\npqsql's peak RSS Δ at most DuckDB's: %d of %d. ", atMost, compared)
	p("RSS after opening the engine, before the query (median over the rows): pqsql %s, DuckDB %s.\n",
		humanBytes(median(pqBase)), humanBytes(median(duckBase)))
}

func memCell(s memStats) string {
	if len(s.Samples) == 0 {
		if s.Error != "" {
			return "error: " + oneLine(s.Error)
		}
		return "–"
	}
	var rss []int64
	for _, m := range s.Samples {
		rss = append(rss, m.PeakRSSDelta)
	}
	return fmt.Sprintf("%s (%s–%s)", humanBytes(s.PeakRSSDelta), humanBytes(slices.Min(rss)), humanBytes(slices.Max(rss)))
}
