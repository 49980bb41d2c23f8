// Command oracle checks pqsql's sqllogictest query suite against DuckDB.
//
//	go run . [-check|-write] [-v] ../../testdata/queries/*.test
//
// Every record runs through an in-memory DuckDB (one per file, working
// directory the repository root); -check fails with a diff where DuckDB's
// answer differs from the expected block, -write replaces the expected
// blocks with DuckDB's. See README.md.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

const rootModule = "module github.com/pqsql/pqsql"

// findRoot walks up from dir to the directory whose go.mod declares the
// pqsql module itself (not this nested tool's).
func findRoot(dir string) (string, error) {
	for {
		if f, err := os.Open(filepath.Join(dir, "go.mod")); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if strings.TrimSpace(sc.Text()) == rootModule {
					f.Close()
					return dir, nil
				}
			}
			f.Close()
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrRoot
		}
		dir = parent
	}
}

// Stats counts what a run did with the records.
type Stats struct {
	Records, Agree, Skipped, Differs, Rewritten, Failed int
}

// Runner holds a run's options and output.
type Runner struct {
	Write   bool
	Verbose bool
	Out     io.Writer
	Stats   Stats
}

func (rn *Runner) failf(f *File, r Record, format string, args ...any) {
	rn.Stats.Failed++
	fmt.Fprintf(rn.Out, "FAIL %s:%d: %s\n", filepath.Base(f.Path), r.Line, oneLine(r.SQL))
	fmt.Fprintf(rn.Out, format, args...)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// outcome is DuckDB's verdict on one record.
type outcome struct {
	agree   bool
	detail  string // why not, when it does not agree
	rewrite *Rewrite
}

func (rn *Runner) judge(ctx context.Context, s *Session, r Record) outcome {
	if r.Kind == "statement" {
		err := s.Exec(ctx, r.SQL)
		switch {
		case r.WantErr && err == nil:
			return outcome{detail: "  DuckDB raised no error\n"}
		case r.WantErr && !strings.Contains(err.Error(), r.ErrText):
			return outcome{detail: fmt.Sprintf("  DuckDB's error %q does not contain %q\n", err, r.ErrText)}
		case !r.WantErr && err != nil:
			return outcome{detail: fmt.Sprintf("  DuckDB: %v\n", err)}
		}
		return outcome{agree: true}
	}
	res, err := s.Query(ctx, r.SQL, r.Rowsort)
	if err != nil {
		return outcome{detail: fmt.Sprintf("  DuckDB: %v\n", err)}
	}
	got := res.Rows
	want := slices.Clone(r.Expected)
	if r.Rowsort {
		got = slices.Clone(got)
		slices.Sort(got)
		slices.Sort(want)
	}
	rw := &Rewrite{Types: res.Types, Rows: got}
	var b strings.Builder
	if res.Types != r.Types {
		fmt.Fprintf(&b, "  types: file says %s, DuckDB's columns are %s\n", r.Types, res.Types)
	}
	if !slices.Equal(got, want) {
		b.WriteString("  --- expected\n  +++ DuckDB\n")
		for _, l := range diffLines(want, got) {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return outcome{agree: b.Len() == 0, detail: b.String(), rewrite: rw}
}

// verify runs a marked record's "# oracle: verify" SQL, whose DuckDB
// answer must be the record's hand-derived expected block.
func (rn *Runner) verify(ctx context.Context, s *Session, f *File, r Record) {
	if r.Kind != "query" {
		rn.failf(f, r, "  \"oracle: verify\" is only for query records\n")
		return
	}
	v := r
	v.SQL = r.Verify
	v.Types = "" // the stand-in query's column types need not match
	o := rn.judge(ctx, s, v)
	if o.rewrite == nil || !slices.Equal(sortedIf(o.rewrite.Rows, r.Rowsort), sortedIf(r.Expected, r.Rowsort)) {
		rn.failf(f, r, "  the verify query %s does not confirm the expected block:\n%s", oneLine(r.Verify), o.detail)
	}
}

func sortedIf(rows []string, sorted bool) []string {
	if !sorted {
		return rows
	}
	rows = slices.Clone(rows)
	slices.Sort(rows)
	return rows
}

// RunFile checks (or rewrites) one file and reports whether it was changed.
func (rn *Runner) RunFile(ctx context.Context, f *File) (string, bool, error) {
	s, err := OpenSession(ctx)
	if err != nil {
		return "", false, err
	}
	defer s.Close()
	rewrites := map[int]Rewrite{}
	for i, r := range f.Records {
		rn.Stats.Records++
		if r.Verify != "" {
			rn.verify(ctx, s, f, r)
		}
		if r.Marker == MarkSkip {
			rn.Stats.Skipped++
			if rn.Verbose {
				fmt.Fprintf(rn.Out, "skip %s:%d: %s\n", filepath.Base(f.Path), r.Line, r.Reason)
			}
			continue
		}
		o := rn.judge(ctx, s, r)
		switch {
		case r.Marker == MarkDiffers && o.agree:
			rn.failf(f, r, "  marked \"oracle: differs\" (%s) but DuckDB now agrees: drop the marker\n", r.Reason)
		case r.Marker == MarkDiffers:
			rn.Stats.Differs++
			if rn.Verbose {
				fmt.Fprintf(rn.Out, "differs %s:%d (%s): %s\n%s", filepath.Base(f.Path), r.Line, r.Reason, oneLine(r.SQL), o.detail)
			}
		case o.agree:
			rn.Stats.Agree++
		case rn.Write && o.rewrite != nil:
			rewrites[i] = *o.rewrite
			rn.Stats.Rewritten++
			fmt.Fprintf(rn.Out, "rewrite %s:%d: %s\n%s", filepath.Base(f.Path), r.Line, oneLine(r.SQL), o.detail)
		default:
			rn.failf(f, r, "%s", o.detail)
		}
	}
	if len(rewrites) == 0 {
		return "", false, nil
	}
	return f.Render(rewrites), true, nil
}

func main() {
	check := flag.Bool("check", false, "compare every expected block with DuckDB's answer (the default)")
	write := flag.Bool("write", false, "replace expected blocks that differ with DuckDB's answer")
	verbose := flag.Bool("v", false, "also list skipped records and DuckDB's answers to records marked differs")
	diff := flag.Bool("diff", false, "differential testing: random filtered aggregates through DuckDB and pqsql (FILE arguments: Parquet files; none means the default set)")
	seed := flag.Uint64("seed", 1, "-diff: random seed")
	count := flag.Int("n", 1000, "-diff: number of queries")
	genDir := flag.String("gen", "", "-diff: also write DuckDB-generated files (many row groups, NaN, ±0, NULL, Bloom filters) into this directory and test them")
	kind := flag.String("kind", KindFilter, "-diff: what to generate: filter (filtered aggregates), join (joins and uncorrelated subqueries) or scalar (scalar expressions over the function registry)")
	maxReports := flag.Int("max-reports", 50, "-diff: how many distinct minimized mismatches to print")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run . [-check|-write] [-v] FILE.test...\n       go run . -diff [-seed N] [-n COUNT] [-v] [FILE.parquet...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *diff {
		os.Exit(runDiff(flag.Args(), *kind, *seed, *count, *maxReports, *genDir, *verbose, os.Stdout))
	}
	if *check && *write || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(flag.Args(), *write, *verbose, os.Stdout))
}

func run(args []string, write, verbose bool, out io.Writer) int {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(out, err)
		return 2
	}
	var paths []string
	for _, a := range args {
		if !filepath.IsAbs(a) {
			a = filepath.Join(cwd, a)
		}
		paths = append(paths, a)
	}
	root, err := findRoot(cwd)
	if err != nil {
		fmt.Fprintln(out, err)
		return 2
	}
	// Fixture paths in the suite are relative to the repository root.
	if err := os.Chdir(root); err != nil {
		fmt.Fprintln(out, err)
		return 2
	}
	rn := &Runner{Write: write, Verbose: verbose, Out: out}
	ctx := context.Background()
	for _, p := range paths {
		f, err := ParseFile(p)
		if err != nil {
			fmt.Fprintln(out, err)
			return 2
		}
		text, changed, err := rn.RunFile(ctx, f)
		if err != nil {
			fmt.Fprintln(out, err)
			return 2
		}
		if changed {
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				fmt.Fprintln(out, err)
				return 2
			}
		}
	}
	st := rn.Stats
	fmt.Fprintf(out, "%d records: %d agree with DuckDB, %d rewritten, %d marked differs, %d skipped, %d failed\n",
		st.Records, st.Agree, st.Rewritten, st.Differs, st.Skipped, st.Failed)
	if st.Failed > 0 {
		return 1
	}
	return 0
}

// diffLines is a line diff (longest common subsequence): "  " keeps a
// line, "- " is only in a, "+ " only in b.
func diffLines(a, b []string) []string {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, "  "+a[i])
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, "- "+a[i])
			i++
		default:
			out = append(out, "+ "+b[j])
			j++
		}
	}
	return out
}
