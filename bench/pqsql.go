package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pqsql/pqsql/exec"
)

// pqEngine runs queries through pqsql's exec package in-process, as the
// pqsql shell does.
type pqEngine struct {
	s *exec.Session
}

func newPQEngine(threads int) *pqEngine {
	s := exec.NewSession()
	s.Settings.Threads = threads
	return &pqEngine{s: s}
}

func (e *pqEngine) name() string { return "pqsql" }

func (e *pqEngine) close() error { return nil }

func (e *pqEngine) exec(ctx context.Context, q boundQuery) (func() ([]string, error), error) {
	if q.csvOut != "" {
		// As the shell's COPY and csv mode do: the rows stream from the
		// query to the file, a batch at a time.
		res, err := e.s.Stream(ctx, q.sql)
		if err != nil {
			return nil, err
		}
		defer res.Close()
		if err := writeCSV(q.csvOut, res); err != nil {
			return nil, err
		}
		return func() ([]string, error) { return fileAnswer(q.csvOut) }, nil
	}
	res, err := e.s.Execute(ctx, q.sql)
	if err != nil {
		return nil, err
	}
	return func() ([]string, error) { return resultText(res), nil }, nil
}

// resultText renders a result's rows as the answers are compared.
func resultText(res *exec.Result) []string {
	rows := make([]string, 0, res.NumRows())
	cells := make([]string, len(res.Columns))
	nulls := make([]bool, len(res.Columns))
	var buf []byte
	for _, b := range res.Batches {
		for r := range b.Len {
			for c, v := range b.Vectors {
				nulls[c] = v.IsNull(r)
				if !nulls[c] {
					buf = exec.AppendText(buf[:0], v, r)
					cells[c] = string(buf)
				}
			}
			rows = append(rows, rowText(cells, nulls))
		}
	}
	return rows
}

// writeCSV writes a result as DuckDB's COPY ... TO (HEADER) writes it: a
// header, NULL as nothing, the empty string as "", other fields quoted
// (RFC 4180) only when they hold a comma, a quote or a line break. It takes
// the batches as Next hands them out, so the result is never held whole.
func writeCSV(path string, res *exec.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 256<<10)
	csv := exec.CSVFormat{Sep: ",", QuoteNull: true}
	buf := csv.AppendHeader(nil, res.Columns)
	w.Write(buf)
	for {
		b, err := res.Next()
		if err != nil {
			f.Close()
			return err
		}
		if b == nil {
			break
		}
		buf = csv.AppendRows(buf[:0], b.Vectors, b.Len)
		res.Release(b) // as the shell's COPY does once a batch is written
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// readerBytes runs q under EXPLAIN ANALYZE and returns what pqsql's reader
// counted: the bytes and requests of every read, by any purpose.
func (e *pqEngine) readerBytes(ctx context.Context, q string) (bytes, requests int64, err error) {
	res, err := e.s.Execute(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+q)
	if err != nil {
		return 0, 0, err
	}
	var rep exec.ExplainJSON
	if err := json.Unmarshal([]byte(res.Explain), &rep); err != nil {
		return 0, 0, fmt.Errorf("EXPLAIN ANALYZE output: %w", err)
	}
	if rep.Analyze == nil {
		return 0, 0, fmt.Errorf("EXPLAIN ANALYZE output has no analysis")
	}
	return rep.Analyze.BytesRead, rep.Analyze.Requests, nil
}
