package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pqsql/pqsql/exec"
	"github.com/pqsql/pqsql/internal/objtest"
)

// The rows over S3 run on pqsql alone: the DuckDB linked here has no
// httpfs extension, and nothing may reach the internet to install it.
// Each row's answer is checked against pqsql's answer on the local file,
// which the local rows check against DuckDB.

// s3Config is how the rows over S3 run.
type s3Config struct {
	runs, threads int
	latency       time.Duration
	args          []string
}

// remoteOnly keeps the rows over S3 when s3 is set, the others otherwise.
func remoteOnly(qs []query, s3 bool) []query {
	var out []query
	for _, q := range qs {
		if q.remote == s3 {
			out = append(out, q)
		}
	}
	return out
}

// benchTB lets the test servers run in this program: Fatal stops the run
// through a panic that runS3 recovers.
type benchTB struct{ cleanups []func() }

type tbFatal struct{ msg string }

func (t *benchTB) Fatal(args ...any) { panic(tbFatal{fmt.Sprint(args...)}) }
func (t *benchTB) Cleanup(f func())  { t.cleanups = append(t.cleanups, f) }
func (t *benchTB) close()            { slicesReverse(t.cleanups) }
func slicesReverse(fs []func()) {
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// An s3Row is what one row over S3 measured at one latency.
type s3Row struct {
	times    []float64 // ms
	requests int
	rounds   []int
	bytes    int64
}

// runS3 serves the benchmark's files from an S3 server on 127.0.0.1
// (gofakes3, SigV4 checked), runs each remote row on a new session (cold:
// no footer cached) with no latency and with cfg.latency added to every
// request, and prints requests, sequential round trips (from the server's
// request times), bytes asked and time beside the local file's time.
func runS3(ctx context.Context, qs []query, files map[string]string, cfg s3Config, stdout, stderr io.Writer) (err error) {
	tb := &benchTB{}
	defer tb.close()
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(tbFatal)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("S3 server: %s", f.msg)
		}
	}()
	srv := objtest.NewS3(tb)
	local, remote := s3Bindings(files)
	for p, path := range local {
		if strings.HasPrefix(remote[p], "s3://bench/parts/") {
			srv.PutDir(tb, "bench", "parts/", filepath.Dir(path), filepath.Base(path))
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		srv.Put(tb, "bench", filepath.Base(path), data)
	}
	session := func(ctx context.Context) (*exec.Session, error) {
		s := exec.NewSession()
		s.Settings.Threads = cfg.threads
		_, err := s.Execute(ctx, fmt.Sprintf(`CREATE SECRET (TYPE s3, KEY_ID '%s', SECRET '%s', REGION '%s', ENDPOINT '%s', URL_STYLE 'path', USE_SSL false)`,
			objtest.KeyID, objtest.Secret, objtest.Region, srv.Endpoint))
		return s, err
	}
	loadStart := loadAvg()
	var b strings.Builder
	fmt.Fprintf(&b, "- command: `go run . -s3 %s` (in bench/)\n", strings.Join(without(cfg.args, "-s3"), " "))
	fmt.Fprintf(&b, "- date: %s\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	m := thisMachine()
	fmt.Fprintf(&b, "- machine: %d CPUs (%s), %s memory; load average %s at the start, LOADEND at the end\n", m.CPUs, m.CPUModel, m.MemTotal, loadStart)
	fmt.Fprintf(&b, "- pqsql alone (%s, %d threads), %d runs of each query, each on a new session (no footer cached); S3 is gofakes3 on 127.0.0.1, with 0 and %v added to every request\n\n",
		runtime.Version(), cfg.threads, cfg.runs, cfg.latency)
	fmt.Fprintf(&b, "| query | local ms | S3 0 ms: ms | S3 %v: ms median (min–max) | requests | round trips | bytes asked | answers |\n|---|---|---|---|---|---|---|---|\n", cfg.latency)
	for _, q := range qs {
		if ctx.Err() != nil {
			break
		}
		lq, err := bind(q, local)
		if err != nil {
			return err
		}
		rq, err := bind(q, remote)
		if err != nil {
			return err
		}
		pq := newPQEngine(cfg.threads)
		var localMS []float64
		var want []string
		for range cfg.runs {
			start := time.Now()
			res, err := pq.s.Execute(ctx, lq.sql)
			if err != nil {
				return fmt.Errorf("%s local: %w", q.name, err)
			}
			localMS = append(localMS, float64(time.Since(start))/1e6)
			want = resultText(res)
		}
		var rows [2]s3Row
		answers := "identical"
		for i, lat := range []time.Duration{0, cfg.latency} {
			srv.SetFaults(objtest.Faults{Latency: lat})
			for range cfg.runs {
				s, err := session(ctx)
				if err != nil {
					return err
				}
				srv.Requests()
				start := time.Now()
				res, err := s.Execute(ctx, rq.sql)
				took := time.Since(start)
				reqs := srv.Requests()
				if err != nil {
					return fmt.Errorf("%s over S3: %w", q.name, err)
				}
				if d := sameAnswer(resultText(res), want, q.ordered); d != "" {
					answers = "DIFFERENT: " + d
				}
				r := &rows[i]
				r.times = append(r.times, float64(took)/1e6)
				r.requests, r.bytes = len(reqs), askedBytes(reqs)
				r.rounds = append(r.rounds, objtest.Rounds(reqs))
			}
		}
		srv.SetFaults(objtest.Faults{})
		r := rows[1]
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %d | %s | %s | %s |\n", q.name, ms(median(localMS)), ms(median(rows[0].times)),
			spread(r.times), r.requests, intRange(r.rounds), humanBytes(r.bytes), answers)
		fmt.Fprintf(stderr, "%-28s local %s ms  S3 %s ms  %d requests, %s rounds\n", q.name, ms(median(localMS)), ms(median(r.times)), r.requests, intRange(r.rounds))
	}
	fmt.Fprintf(stdout, "%s", strings.Replace(b.String(), "LOADEND", loadAvg(), 1))
	return ctx.Err()
}

// s3Bindings returns what the remote rows' placeholders stand for: the
// local files (for the answers to compare with) and their s3:// URLs on
// the server runS3 starts.
func s3Bindings(files map[string]string) (local, remote map[string]string) {
	local, remote = map[string]string{}, map[string]string{}
	for _, name := range []string{"sorted", "shuffled", "parts"} {
		path, ok := files["{"+name+"}"]
		if !ok {
			continue
		}
		p := "{s3" + name + "}"
		local[p] = path
		remote[p] = "s3://bench/" + filepath.Base(path)
		if name == "parts" {
			remote[p] = "s3://bench/parts/" + filepath.Base(path)
		}
	}
	return local, remote
}

// askedBytes sums the bytes the requests' ranges ask for; a suffix range
// counts its length, which the files here exceed.
func askedBytes(reqs []objtest.Request) int64 {
	var n int64
	for _, r := range reqs {
		rng, ok := strings.CutPrefix(r.Range, "bytes=")
		if !ok {
			continue
		}
		a, c, _ := strings.Cut(rng, "-")
		if a == "" {
			v, _ := strconv.ParseInt(c, 10, 64)
			n += v
			continue
		}
		x, _ := strconv.ParseInt(a, 10, 64)
		y, _ := strconv.ParseInt(c, 10, 64)
		n += y - x + 1
	}
	return n
}

func spread(xs []float64) string {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return "–"
	}
	return fmt.Sprintf("%s (%s–%s)", ms(median(s)), ms(s[0]), ms(s[len(s)-1]))
}

// intRange prints the smallest and largest of xs, or one number when
// they agree.
func intRange(xs []int) string {
	if len(xs) == 0 {
		return "–"
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

func without(args []string, flag string) []string {
	var out []string
	for _, a := range args {
		if a != flag {
			out = append(out, a)
		}
	}
	return out
}
