package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/sql"
)

// firstSchema plans a list or glob of files read without union_by_name as
// DuckDB reads it: with the first file's columns, names and types. A later
// file's column is found by name, ignoring case (the k-th of a name for
// the k-th); one of another type is cast to the first file's type, and a
// value the cast cannot convert fails the query. A column of the first
// file that a later file lacks fails the query when it is read (exec
// matches the fields per file); columns only later files have are not
// read.
//
// Files whose columns match the first's are read as the first is; the
// others form runs, in file order, of files that map alike, each a scan
// of its own fields under a projection of the casts, joined by UNION ALL
// as union_by_name joins its runs. Filters reach every run's scan, where a
// cast column prunes only when the cast keeps order (column in build.go);
// otherwise its row groups are kept.
func firstSchema(src *sql.Source, files []string, c buildCtx) (*Scan, []Column, error) {
	type run struct {
		files  []string
		fields []*format.Field
		cast   bool
	}
	var runs []run
	var first []*format.Field
	kept := &keptFooters{}
	err := eachSchema(files[:1], c, openDeferred, func(_ int, f *format.File) {
		first = f.Schema.Fields
		kept.keep(files[0], f)
	})
	if err != nil {
		return nil, nil, err
	}
	// Each later file's fields as mapped to the first's, kept only where
	// they differ: a file that matches maps to first.
	type mapped struct {
		fields []*format.Field
		key    string
	}
	maps := make([]mapped, len(files))
	err = eachSchema(files[1:], c, openSchema, func(i int, f *format.File) {
		if m, key := mapFields(first, f.Schema.Fields); key != "" {
			maps[i+1] = mapped{m, key}
		}
		kept.keepRead(files[i+1], f)
	})
	if err != nil {
		return nil, nil, err
	}
	last := ""
	for i, path := range files {
		fields, key := maps[i].fields, maps[i].key
		if key == "" {
			fields = first
		}
		if len(runs) == 0 || key != last {
			runs, last = append(runs, run{fields: fields, cast: key != ""}), key
		}
		runs[len(runs)-1].files = append(runs[len(runs)-1].files, path)
	}
	if len(runs) == 1 {
		scan, cols, err := schemaScan(src, files, first, c)
		if err == nil {
			scan.footers = kept
		}
		return scan, cols, err
	}
	var acc *Plan
	var want []Column
	for _, r := range runs {
		s, cols, err := schemaScan(src, r.files, r.fields, c)
		if err != nil {
			return nil, nil, err
		}
		s.footers = kept
		if want == nil {
			want = cols
		}
		p := &Plan{Scan: s, Input: cols, Columns: want, Limit: -1}
		for i, col := range cols {
			var x Expr = &ColRef{Index: i, Name: col.Name, T: col.Type}
			if col.Type != want[i].Type {
				x = &Cast{X: x, T: want[i].Type}
			}
			p.Project = append(p.Project, x)
		}
		if acc == nil {
			acc = p
			continue
		}
		acc = passThrough(&Scan{SetOp: &SetOp{Op: "UNION", All: true, Left: acc, Right: p}, Source: src.Text}, want)
	}
	return &Scan{Subquery: acc, Source: src.Text}, want, nil
}

// mapFields lists, for each of the first file's fields, the field of
// fields that DuckDB reads for it: the one of that name, ignoring case, or
// the first file's own where fields lacks it (reading it then fails). key
// is empty when every field found has the first's name and type, and
// otherwise tells apart files that map differently.
func mapFields(first, fields []*format.Field) ([]*format.Field, string) {
	if sameFields(first, fields) {
		return first, "" // a glob's files usually match: no maps to build
	}
	type slot struct {
		name string
		nth  int
	}
	byName := make(map[slot]*format.Field, len(fields))
	seen := map[string]int{}
	for _, fl := range fields {
		k := strings.ToLower(fl.Name)
		byName[slot{k, seen[k]}] = fl
		seen[k]++
	}
	clear(seen)
	out := make([]*format.Field, len(first))
	var key strings.Builder
	for i, fl := range first {
		k := strings.ToLower(fl.Name)
		g := byName[slot{k, seen[k]}]
		seen[k]++
		out[i] = fl
		if g == nil || (g.Name == fl.Name && TypeOf(g) == TypeOf(fl)) {
			continue
		}
		out[i] = g
		fmt.Fprintf(&key, "%d\x00%s\x00%s\x00", i, g.Name, TypeOf(g))
	}
	return out, key.String()
}

// sameFields reports whether fields has first's names, in first's order
// and spelling, with first's types.
func sameFields(first, fields []*format.Field) bool {
	if len(first) != len(fields) {
		return false
	}
	for i, fl := range first {
		if g := fields[i]; g.Name != fl.Name || TypeOf(g) != TypeOf(fl) {
			return false
		}
	}
	return true
}
