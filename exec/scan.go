package exec

import (
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/pushdown"
)

// runStats are what EXPLAIN ANALYZE reports.
type runStats struct {
	Files, RowGroups, RowGroupsSkipped int
	RowsDecoded, RowsReturned          int64
	IO                                 format.IOStats
	Plans                              []*pushdown.FilePlan
}

// emitFunc receives one input row; it returns true to stop the scan.
type emitFunc func(row []planner.Datum) (stop bool, err error)

// openCounted opens a file through a CountingSource, so that EXPLAIN
// ANALYZE can report the bytes and requests the query made.
func openCounted(path string) (*format.File, *format.CountingSource, io.Closer, error) {
	src, closer, err := format.OpenLocal(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %w", planner.ErrIO, err)
	}
	cs := format.NewCountingSource(src)
	f, err := format.OpenSource(cs, path, format.DefaultLimits)
	if err != nil {
		closer.Close()
		return nil, nil, nil, err
	}
	return f, cs, closer, nil
}

// options maps the session's switches onto pushdown's.
func (s *Settings) options() pushdown.Options {
	return pushdown.Options{Statistics: s.Statistics, PageIndex: s.PageIndex, Bloom: s.Bloom, Dictionary: s.Dictionary}
}

// fieldMap matches the plan's fields (from the first file) to f's fields.
func fieldMap(scan *planner.Scan, f *format.File) ([]*format.Field, error) {
	out := make([]*format.Field, len(scan.Fields))
	for i, pf := range scan.Fields {
		if !scan.Needed[i] {
			continue
		}
		for _, ff := range f.Schema.Fields {
			if ff.Name == pf.Name {
				out[i] = ff
				break
			}
		}
		if out[i] == nil {
			return nil, fmt.Errorf("%w: %s has no column %s", ErrSchemaMismatch, f.Name, pf.Name)
		}
		if planner.TypeOf(out[i]) != planner.TypeOf(pf) {
			return nil, fmt.Errorf("%w: column %s is %s in %s but %s in %s", ErrSchemaMismatch, pf.Name,
				planner.TypeOf(out[i]), f.Name, planner.TypeOf(pf), scan.Files[0])
		}
	}
	return out, nil
}

// scanFiles reads the plan's files row group by row group, following each
// file's pushdown plan and nothing else, and emits the kept rows.
func (x *executor) scanFiles(ctx context.Context, p *planner.Plan, emit emitFunc) error {
	scan := p.Scan
	width := len(p.Input)
	for _, path := range scan.Files {
		stop, err := x.scanFile(ctx, p, path, width, emit)
		if err != nil || stop {
			return err
		}
	}
	return nil
}

func (x *executor) scanFile(ctx context.Context, p *planner.Plan, path string, width int, emit emitFunc) (bool, error) {
	scan := p.Scan
	f, cs, closer, err := openCounted(path)
	if err != nil {
		return false, err
	}
	defer func() {
		st := cs.Stats()
		x.stats.IO.Bytes += st.Bytes
		x.stats.IO.Requests += st.Requests
		closer.Close()
	}()
	x.stats.Files++
	if scan.CountOnly {
		for _, rg := range f.Meta.RowGroups {
			x.stats.RowGroups++
			for r := int64(0); r < rg.NumRows; r++ {
				if stop, err := emit(make([]planner.Datum, width)); stop || err != nil {
					return stop, err
				}
			}
		}
		return false, nil
	}
	fields, err := fieldMap(scan, f)
	if err != nil {
		return false, err
	}
	var leaves []int
	for _, fl := range fields {
		if fl != nil {
			for _, l := range fl.Leaves {
				leaves = append(leaves, l.Index)
			}
		}
	}
	sort.Ints(leaves)
	fp, err := pushdown.Plan(f, scan.Pushdown, leaves, x.settings.options())
	if err != nil {
		return false, err
	}
	x.stats.Plans = append(x.stats.Plans, fp)
	for _, rg := range fp.RowGroups {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if rg.Verdict == pushdown.Skip {
			x.stats.RowGroupsSkipped++
			continue
		}
		x.stats.RowGroups++
		stop, err := x.scanRowGroup(f, rg, fields, width, emit)
		if err != nil || stop {
			return stop, err
		}
	}
	return false, nil
}

// scanRowGroup reads the columns of one kept row group as its plan says and
// emits the rows inside the plan's row ranges.
func (x *executor) scanRowGroup(f *format.File, rg pushdown.RowGroupPlan, fields []*format.Field, width int, emit emitFunc) (bool, error) {
	var ranges []format.Range
	for _, c := range rg.Columns {
		if c.Whole {
			continue
		}
		if c.Dict.Length > 0 {
			ranges = append(ranges, c.Dict)
		}
		for _, pg := range c.Pages {
			ranges = append(ranges, pg.Range)
		}
	}
	var fetched *format.Fetched
	if len(ranges) > 0 {
		var err error
		if fetched, err = format.Fetch(f.Source, ranges, 0); err != nil {
			return false, err
		}
	}
	data := map[int]*format.ColumnData{}
	for _, c := range rg.Columns {
		var cd *format.ColumnData
		var err error
		if c.Whole {
			cd, err = f.ReadColumn(rg.Index, c.Leaf)
		} else {
			cd, err = f.ReadPages(rg.Index, c.Leaf, c.Dict, c.Pages, fetched)
		}
		if err != nil {
			return false, err
		}
		data[c.Leaf] = cd
	}
	kept := rg.Rows
	if kept == nil {
		kept = pushdown.AllRows(rg.NumRows)
	}
	type col struct {
		pos  int
		vec  *Vector
		rows []int64
		at   int
	}
	var cols []*col
	for i, fl := range fields {
		if fl == nil {
			continue
		}
		for _, l := range fl.Leaves {
			if data[l.Index] == nil {
				return false, fmt.Errorf("exec: %s: row group %d: the scan plan does not read column %s", f.Name, rg.Index, l.Path)
			}
		}
		v, rows, err := fieldVector(fl, data)
		if err != nil {
			return false, fmt.Errorf("%s: row group %d: %w", f.Name, rg.Index, err)
		}
		x.stats.RowsDecoded += int64(len(rows))
		cols = append(cols, &col{pos: i, vec: v, rows: rows})
	}
	for _, r := range kept {
		for row := r.First; row < r.End; row++ {
			out := make([]planner.Datum, width)
			for _, c := range cols {
				for c.at < len(c.rows) && c.rows[c.at] < row {
					c.at++
				}
				if c.at >= len(c.rows) || c.rows[c.at] != row {
					return false, fmt.Errorf("exec: %s: row group %d: row %d of column %s was not decoded", f.Name, rg.Index, row, fields[c.pos].Name)
				}
				out[c.pos] = datumAt(c.vec, c.at)
			}
			if stop, err := emit(out); stop || err != nil {
				return stop, err
			}
		}
	}
	return false, nil
}
