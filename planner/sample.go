package planner

import "github.com/pqsql/pqsql/sql"

// sampled is the scan of a sample of the rows of scan (a FROM clause's,
// with columns cols): USING SAMPLE takes it after the FROM clause, joins
// included, and before the WHERE, as DuckDB does.
func sampled(scan *Scan, cols []Column, s *sql.Sample) *Scan {
	for i := range scan.Needed {
		// The optimizer narrows them (PrepareScan).
		scan.Needed[i] = true
	}
	p := passThrough(scan, cols)
	p.Sample = s
	return &Scan{Subquery: p, Source: "(sample)"}
}
