package planner

import (
	"strings"

	"github.com/pqsql/pqsql/sql"
)

// unionByName plans read_parquet(..., union_by_name = true): the files,
// in order, in runs of one schema, each run a files scan, unified as
// UNION ALL BY NAME unifies queries. Columns come in the order DuckDB
// gives them (the first file's, then each new name as a file brings it),
// a file lacking a column reads NULL, and a column's types across files
// meet in the set operations' common type. Filters reach every run's scan
// (the optimizer pushes them into both sides of a set operation), so
// each prunes as a plain scan does.
func unionByName(src *sql.Source, files []string, c buildCtx) (*Scan, []Column, error) {
	runs, err := schemaRuns(files, c)
	if err != nil {
		return nil, nil, err
	}
	if len(runs) == 1 {
		return filesScan(src, files, c)
	}
	// Hive partitioning is decided on all the files, not run by run.
	rs := *src
	on, off := hiveSetting(src)
	rs.HivePartitioning, rs.HivePartitioningSet = on || (!off && hiveDetect(files)), true
	var acc *Plan
	var scan *Scan
	var last []string // the path columns, which DuckDB puts last
	for _, run := range runs {
		s, cols, err := filesScan(&rs, run, c)
		if err != nil {
			return nil, nil, err
		}
		if last == nil {
			for _, p := range s.Partitions {
				if p.Index >= len(s.Fields) {
					last = append(last, strings.ToLower(p.Key))
				}
			}
		}
		for i := range s.Needed {
			s.Needed[i] = true
		}
		p := passThrough(s, cols)
		if acc == nil {
			acc = p
			continue
		}
		left, right, err := alignByName(acc, p)
		if err != nil {
			return nil, nil, err
		}
		left, right, cols, err = setOpSides(left, right)
		if err != nil {
			return nil, nil, err
		}
		scan = &Scan{SetOp: &SetOp{Op: "UNION", All: true, Left: left, Right: right}, Source: src.Text}
		acc = passThrough(scan, cols)
	}
	if len(last) == 0 {
		return scan, acc.Columns, nil
	}
	isLast := map[string]bool{}
	for _, k := range last {
		isLast[k] = true
	}
	var order []int
	for i, col := range acc.Columns {
		if !isLast[strings.ToLower(col.Name)] {
			order = append(order, i)
		}
	}
	for _, k := range last {
		for i, col := range acc.Columns {
			if strings.ToLower(col.Name) == k {
				order = append(order, i)
			}
		}
	}
	w := &Plan{Scan: &Scan{Subquery: acc, Source: src.Text}, Input: acc.Columns, Limit: -1}
	for _, i := range order {
		col := acc.Columns[i]
		w.Project = append(w.Project, &ColRef{Index: i, Name: col.Name, T: col.Type})
		w.Columns = append(w.Columns, col)
	}
	return &Scan{Subquery: w, Source: src.Text}, w.Columns, nil
}

// schemaRuns splits files, in order, into runs of files whose top-level
// columns have the same names and types.
func schemaRuns(files []string, c buildCtx) ([][]string, error) {
	var runs [][]string
	last := ""
	for _, path := range files {
		f, closeFile, err := openSchema(c.ctx, c.store, path)
		if err != nil {
			return nil, err
		}
		var key strings.Builder
		for _, fl := range f.Schema.Fields {
			key.WriteString(fl.Name + "\x00" + TypeOf(fl).String() + "\x00")
		}
		closeFile()
		if k := key.String(); len(runs) == 0 || k != last {
			runs, last = append(runs, nil), k
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], path)
	}
	return runs, nil
}
