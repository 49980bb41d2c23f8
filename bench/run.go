package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"time"
)

// A measurement is one timed execution of a query in one engine.
type measurement struct {
	elapsed time.Duration
	// rchar and readBytes are the growth of /proc/self/io's counters.
	rchar, readBytes int64
	// rssPeak is the peak resident set size during the run less the
	// resident set size before it.
	rssPeak int64
	// heapPeak is the largest Go heap in use sampled during the run.
	heapPeak int64
}

// A runner measures queries in both engines.
type runner struct {
	pq   *pqEngine
	duck *duckEngine
	runs int
	// outDir receives the CSV queries' files.
	outDir string
	// ioOverhead is what reading /proc/self/io itself adds to rchar.
	ioOverhead int64
	log        io.Writer
}

// calibrate measures the bytes one read of /proc/self/io adds to rchar, so
// that they are not counted as the engines' reads.
func (r *runner) calibrate() error {
	a, err := readProcIO()
	if err != nil {
		return err
	}
	b, err := readProcIO()
	if err != nil {
		return err
	}
	r.ioOverhead = b.rchar - a.rchar
	return nil
}

// measure runs q once in e. The Go heap is collected and handed back to the
// operating system first, so that the resident set size starts from what
// is live.
func (r *runner) measure(ctx context.Context, e engine, q boundQuery) (measurement, func() ([]string, error), error) {
	runtime.GC()
	debug.FreeOSMemory()
	if err := resetPeakRSS(); err != nil {
		return measurement{}, nil, err
	}
	mem0, err := readMemStatus()
	if err != nil {
		return measurement{}, nil, err
	}
	io0, err := readProcIO()
	if err != nil {
		return measurement{}, nil, err
	}
	heap := startHeapSampler()
	start := time.Now()
	answer, runErr := e.exec(ctx, q)
	elapsed := time.Since(start)
	heapPeak := heap.stop()
	io1, err := readProcIO()
	if err != nil {
		return measurement{}, nil, err
	}
	mem1, err := readMemStatus()
	if err != nil {
		return measurement{}, nil, err
	}
	if runErr != nil {
		return measurement{}, nil, runErr
	}
	return measurement{
		elapsed:   elapsed,
		rchar:     max(0, io1.rchar-io0.rchar-r.ioOverhead),
		readBytes: io1.readBytes - io0.readBytes,
		rssPeak:   max(0, mem1.hwm-mem0.rss),
		heapPeak:  heapPeak,
	}, answer, nil
}

// engineRuns collects one engine's measurements of one query.
type engineRuns struct {
	e      engine
	err    error
	runs   []measurement
	answer []string
}

// query measures one query: pqsql's reader counters under EXPLAIN ANALYZE
// first, then runs alternately in the two engines, the engine that starts
// swapping from run to run. The first run of each engine also gives its
// answer.
func (r *runner) query(ctx context.Context, q boundQuery) queryResult {
	res := queryResult{Name: q.name, SQL: q.template}
	pq := &engineRuns{e: r.pq}
	duck := &engineRuns{e: r.duck}
	var err error
	if res.PQSQLReaderBytes, res.PQSQLReaderRequests, err = r.pq.readerBytes(ctx, q.sql); err != nil {
		pq.err = err
	}
	for i := range r.runs {
		order := []*engineRuns{pq, duck}
		if i%2 == 1 {
			order = []*engineRuns{duck, pq}
		}
		for _, er := range order {
			if er.err != nil {
				continue
			}
			bq := q
			if q.csv {
				bq.csvOut = filepath.Join(r.outDir, er.e.name()+".csv")
			}
			m, answer, err := r.measure(ctx, er.e, bq)
			if err != nil {
				er.err = err
				continue
			}
			er.runs = append(er.runs, m)
			if er.answer == nil {
				if er.answer, err = answer(); err != nil {
					er.err = fmt.Errorf("rendering the answer: %w", err)
				} else if er.answer == nil {
					er.answer = []string{}
				}
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	res.PQSQL, res.DuckDB = pq.stats(), duck.stats()
	switch {
	case pq.err != nil || duck.err != nil:
		res.Answers = "not compared"
	default:
		if d := sameAnswer(pq.answer, duck.answer, q.ordered); d != "" {
			res.Answers = "differ: " + d
		} else {
			res.Answers = "identical"
			res.Identical = true
		}
	}
	if res.PQSQL.MedianMS > 0 && res.DuckDB.MedianMS > 0 {
		res.Ratio = res.PQSQL.MedianMS / res.DuckDB.MedianMS
	}
	return res
}

// stats summarizes an engine's runs: times as median, min and max; bytes
// as the median run's (they are the same from run to run unless something
// else reads); memory as the largest peak of any run.
func (er *engineRuns) stats() engineStats {
	var s engineStats
	if er.err != nil {
		s.Error = er.err.Error()
	}
	if len(er.runs) == 0 {
		return s
	}
	var times []float64
	var rchar, readBytes []int64
	for _, m := range er.runs {
		times = append(times, float64(m.elapsed.Microseconds())/1000)
		rchar = append(rchar, m.rchar)
		readBytes = append(readBytes, m.readBytes)
		s.PeakRSSDelta = max(s.PeakRSSDelta, m.rssPeak)
		s.PeakGoHeap = max(s.PeakGoHeap, m.heapPeak)
	}
	s.TimesMS = times
	s.MedianMS, s.MinMS, s.MaxMS = median(times), slices.Min(times), slices.Max(times)
	s.RChar, s.StorageReadBytes = median(rchar), median(readBytes)
	s.Rows = len(er.answer)
	return s
}

// median is the middle value, or the mean of the two middle values.
func median[T int64 | float64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
