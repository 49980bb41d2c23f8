package planner

import (
	"math"

	"github.com/pqsql/pqsql/sql"
)

// A Series is the integer sequence range or generate_series produces:
// Start, Start+Step, ... up to Stop, which Inclusive says is part of it
// (generate_series) or not (range).
type Series struct {
	Start, Stop, Step int64
	Inclusive         bool
}

// seriesSource plans FROM range(...) or generate_series(...): one BIGINT
// column named after the function, as DuckDB binds it.
func seriesSource(src *sql.Source) (*Scan, []Column, error) {
	s := &Series{Step: 1, Inclusive: src.Function == "generate_series"}
	switch a := src.Args; len(a) {
	case 1:
		s.Stop = a[0]
	case 2:
		s.Start, s.Stop = a[0], a[1]
	case 3:
		s.Start, s.Stop, s.Step = a[0], a[1], a[2]
	default:
		return nil, nil, binderError("No function matches the given name and argument types '%s' with %d arguments", src.Function, len(a))
	}
	if s.Step == 0 {
		return nil, nil, binderError("interval cannot be 0!")
	}
	cols := []Column{{Name: src.Function, Type: tBigInt}}
	fn := &TableFunction{Name: src.Function, Columns: cols, Series: s}
	return &Scan{Function: fn, Source: src.Text}, cols, nil
}

// Len is the number of values of the series, computed without
// overflow for any BIGINT bounds.
func (s *Series) Len() int64 {
	var span uint64 // distance from Start towards Stop
	switch {
	case s.Step > 0 && (s.Stop > s.Start || s.Inclusive && s.Stop == s.Start):
		span = uint64(s.Stop) - uint64(s.Start)
	case s.Step < 0 && (s.Stop < s.Start || s.Inclusive && s.Stop == s.Start):
		span = uint64(s.Start) - uint64(s.Stop)
	default:
		return 0
	}
	step := uint64(s.Step)
	if s.Step < 0 {
		step = -step
	}
	n := span / step
	if s.Inclusive || span%step != 0 {
		n++
	}
	return int64(min(n, math.MaxInt64))
}
