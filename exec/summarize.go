package exec

import (
	"context"
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/planner"
)

// summarize answers SUMMARIZE as DuckDB's binder rewrites it: per column
// of the source or query, its name and type, min and max as text,
// approx_count_distinct, avg (numbers and temporal values), stddev
// (numbers), approx_quantile at 0.25, 0.5 and 0.75 as text (numbers and
// temporal values), count(*) and the share of NULLs. All the aggregates
// run as one query over one scan; its single row is then turned into a
// row per column.
func (s *Session) summarize(ctx context.Context, st *planner.Summarize) (*Result, error) {
	inner := ""
	if st.Query != nil {
		inner = st.Query.Text
	} else {
		inner = "SELECT * FROM " + st.Source.Text
	}
	parsed, err := planner.Parse(inner)
	if err != nil {
		return nil, err
	}
	q, ok := parsed.(*planner.Select)
	if !ok {
		return nil, fmt.Errorf("%w: SUMMARIZE of %s", ErrNotImplemented, inner)
	}
	p, err := planner.Build(q, catalog{s, ctx})
	if err != nil {
		return nil, err
	}

	// stat[i][k] is the select-list position of column i's statistic k,
	// or -1 where DuckDB gives NULL.
	const nStats = 10
	var sel []string
	stat := make([][nStats]int, len(p.Columns))
	add := func(i, k int, expr string) {
		stat[i][k] = len(sel)
		sel = append(sel, expr)
	}
	for i, c := range p.Columns {
		col := quoteIdent(c.Name)
		numeric := c.Type.IsNumeric()
		temporal := isTemporal(c.Type)
		for k := range stat[i] {
			stat[i][k] = -1
		}
		add(i, 0, "CAST(min("+col+") AS VARCHAR)")
		add(i, 1, "CAST(max("+col+") AS VARCHAR)")
		add(i, 2, "CAST(approx_count_distinct("+col+") AS BIGINT)")
		if numeric || temporal {
			add(i, 3, "CAST(avg("+col+") AS VARCHAR)")
		}
		if numeric {
			add(i, 4, "CAST(stddev("+col+") AS VARCHAR)")
		}
		if numeric || temporal {
			for k, f := range []string{"0.25", "0.5", "0.75"} {
				add(i, 5+k, "CAST(approx_quantile("+col+", CAST("+f+" AS FLOAT)) AS VARCHAR)")
			}
		}
		add(i, 8, "count(*)")
		add(i, 9, "CAST(CASE WHEN count(*) > 0 THEN (CAST(1 AS DOUBLE) - CAST(count("+col+") AS DOUBLE) / CAST(count(*) AS DOUBLE)) * CAST(100 AS DOUBLE) ELSE NULL END AS DECIMAL(9,2))")
	}
	text := "SELECT " + strings.Join(sel, ", ") + " FROM (" + inner + ") AS summarize_tbl"
	agg, err := s.execute(ctx, text)
	if err != nil {
		return nil, err
	}
	defer agg.Close()
	var row []planner.Datum
	for {
		b, err := agg.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		if b.Len > 0 && row == nil {
			for _, v := range b.Vectors {
				row = append(row, datumAt(v, 0))
			}
		}
	}
	if row == nil {
		return nil, fmt.Errorf("%w: SUMMARIZE's aggregate gave no row", ErrNotImplemented)
	}

	varchar, bigint := Type{ID: TypeVarchar}, Type{ID: TypeBigInt}
	res := &Result{
		Columns: []string{"column_name", "column_type", "min", "max", "approx_unique", "avg", "std", "q25", "q50", "q75", "count", "null_percentage"},
		Types:   []Type{varchar, varchar, varchar, varchar, bigint, varchar, varchar, varchar, varchar, varchar, bigint, {ID: TypeDecimal, Precision: 9, Scale: 2}},
	}
	b := &Batch{Len: len(p.Columns)}
	for j, t := range res.Types {
		v := newResultVector(t, len(p.Columns))
		for i, c := range p.Columns {
			switch {
			case j == 0:
				v.appendDatum(planner.Datum{S: c.Name})
			case j == 1:
				v.appendDatum(planner.Datum{S: c.Type.String()})
			case stat[i][j-2] < 0:
				v.appendDatum(planner.NullDatum)
			default:
				v.appendDatum(row[stat[i][j-2]])
			}
		}
		b.Vectors = append(b.Vectors, v)
	}
	res.Batches = []*Batch{b}
	return res, nil
}

// isTemporal reports whether t is a date, time or timestamp type, the
// types besides numbers whose avg and quantiles SUMMARIZE shows.
func isTemporal(t Type) bool {
	switch t.ID {
	case TypeDate, TypeTime, TypeTimeNS, TypeTimeTZ, TypeTimestamp, TypeTimestampNS, TypeTimestampTZ:
		return true
	}
	return false
}

// quoteIdent is name as a double-quoted SQL identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
