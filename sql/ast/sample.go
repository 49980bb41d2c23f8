package ast

import "strconv"

// A Sample is a SELECT's USING SAMPLE clause: which of the rows of its
// FROM clause, before the WHERE, the SELECT reads.
type Sample struct {
	// Rows is the sample's size in rows, or when Percent its size in
	// percent of the rows (0 to 100).
	Rows    int64
	Size    float64
	Percent bool
	// Method is "reservoir", "bernoulli" or "system": reservoir by
	// default for a count of rows, system for a percentage.
	Method string
	// Seed, when HasSeed (REPEATABLE or the method's second argument),
	// makes the sample the same on every run.
	Seed    int64
	HasSeed bool
}

// String writes the clause as DuckDB's EXPLAIN names it.
func (s *Sample) String() string {
	size := strconv.FormatInt(s.Rows, 10) + " ROWS"
	if s.Percent {
		size = strconv.FormatFloat(s.Size, 'g', -1, 64) + "%"
	}
	out := size + " (" + s.Method
	if s.HasSeed {
		out += ", " + strconv.FormatInt(s.Seed, 10)
	}
	return out + ")"
}
