package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	runs := fs.Int("runs", 3, "timed runs of each query in each engine")
	filter := fs.String("filter", "", "run only the queries whose name matches this `regexp`")
	threads := fs.Int("threads", 2, "threads of each engine")
	asJSON := fs.Bool("json", false, "print the measurements as JSON instead of markdown")
	scale := fs.Bool("scale", false, "also run the 10M-row scaling queries (generates a 10M-row file once)")
	dataDir := fs.String("data", "data", "`directory` caching the generated files")
	list := fs.Bool("list", false, "list the queries and exit")
	s3 := fs.Bool("s3", false, "run only the rows over a loopback S3 server (pqsql alone; see s3.go)")
	latency := fs.Duration("s3-latency", 20*time.Millisecond, "latency the S3 server adds to every request")
	render := fs.String("render", "", "print the markdown of an earlier run's JSON `file` (such as data/last-run.json) and exit")
	memory := fs.Bool("memory", false, "measure each engine's peak memory instead, each query once in a fresh process per run (see memory.go)")
	child := fs.String(memChildFlag, "", "internal to -memory: measure this `engine` (pqsql or DuckDB) on -"+memQueryFlag)
	childQuery := fs.String(memQueryFlag, "", "internal to -memory: the `query` a child measures")
	warm := fs.Bool(memWarmFlag, false, "with -memory: before measuring, run the same query once on the repository's small fixtures in each child, so that code paged in and memory an engine keeps between queries are not charged to the query (both engines alike)")
	code := fs.Bool(memCodeFlag, false, "with -memory: charge a query for the code pages it touches first too, rather than make the program's mapped files resident before the baseline")
	release := fs.Bool(memReleaseFlag, false, "with -memory-warm: hand pqsql's free heap back to the system before the baseline (debug.FreeOSMemory), which no session does between queries; DuckDB's allocator keeps its memory either way")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() > 0 || *runs < 1 || *threads < 1 {
		return fmt.Errorf("%w: flags only, -runs >= 1, -threads >= 1", errUsage)
	}
	if *child != "" {
		return memChild(ctx, *child, *childQuery, *threads, *dataDir, memMode{warm: *warm, release: *release, code: *code}, stdout)
	}
	if *memory && *s3 {
		return fmt.Errorf("%w: -memory measures the local rows; it does not go with -s3", errUsage)
	}
	if *render != "" {
		b, err := os.ReadFile(*render)
		if err != nil {
			return err
		}
		var rep report
		if err := json.Unmarshal(b, &rep); err != nil {
			return fmt.Errorf("%w: -render %s: %w", errUsage, *render, err)
		}
		rep.writeMarkdown(stdout)
		return nil
	}
	var re *regexp.Regexp
	if *filter != "" {
		var err error
		if re, err = regexp.Compile(*filter); err != nil {
			return fmt.Errorf("%w: -filter: %w", errUsage, err)
		}
	}
	qs := remoteOnly(selectQueries(queries, re, *scale), *s3)
	if *list {
		for _, q := range qs {
			fmt.Fprintf(stdout, "%s\t%s\n", q.name, q.sql)
		}
		return nil
	}
	if len(qs) == 0 {
		return fmt.Errorf("%w: no query matches -filter %q", errUsage, *filter)
	}

	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	gen, err := findGenerator(wd)
	if err != nil {
		return err
	}
	data, err := filepath.Abs(*dataDir)
	if err != nil {
		return err
	}
	files, err := ensureFiles(gen, fileSet(data, needsScale(qs)), stderr)
	if err != nil {
		return err
	}
	if *memory {
		return runMemory(ctx, qs, memConfig{runs: *runs, threads: *threads, dataDir: data, mode: memMode{warm: *warm, release: *release, code: *code}, asJSON: *asJSON, args: args}, stdout, stderr)
	}
	if *s3 {
		return runS3(ctx, qs, files, s3Config{runs: *runs, threads: *threads, latency: *latency, args: args}, stdout, stderr)
	}
	bound := make([]boundQuery, len(qs))
	for i, q := range qs {
		if bound[i], err = bind(q, files); err != nil {
			return err
		}
	}
	outDir := filepath.Join(data, "out")
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}

	duck, err := newDuckEngine(ctx, *threads)
	if err != nil {
		return err
	}
	defer duck.close()
	r := &runner{pq: newPQEngine(*threads), duck: duck, runs: *runs, outDir: outDir, log: stderr}
	if err := r.calibrate(); err != nil {
		return err
	}
	rep := &report{
		Command:   strings.TrimSpace("go run . " + strings.Join(args, " ")),
		Date:      time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Machine:   thisMachine(),
		Threads:   *threads,
		Runs:      *runs,
		DuckDB:    duck.version,
		Go:        runtime.Version(),
		LoadStart: loadAvg(),
		Files:     files,
	}
	for _, q := range bound {
		if ctx.Err() != nil {
			break
		}
		res := r.query(ctx, q)
		fmt.Fprintf(stderr, "%-28s pqsql %9s ms  DuckDB %9s ms  %s\n", q.name, ms(res.PQSQL.MedianMS), ms(res.DuckDB.MedianMS), res.Answers)
		rep.Queries = append(rep.Queries, res)
	}
	rep.LoadEnd = loadAvg()
	rep.GeoMean = geoMean(rep.Queries)
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	// Kept so that the markdown can be printed again (-render).
	if err := os.WriteFile(filepath.Join(data, "last-run.json"), b, 0o644); err != nil {
		return err
	}
	if *asJSON {
		_, err := stdout.Write(b)
		return err
	}
	rep.writeMarkdown(stdout)
	return ctx.Err()
}

func needsScale(qs []query) bool {
	for _, q := range qs {
		if q.scale {
			return true
		}
	}
	return false
}
