package planner

import (
	"slices"

	"github.com/pqsql/pqsql/format"
)

// structParts finds the struct columns of a files scan that xs read only
// through field access (s.f, s['f'], s.f.g): for each, the fields read, as
// paths of child positions from the column. A column read anywhere as a
// whole, or whose fields read cover all its leaves, is not listed: it is
// read whole.
func structParts(xs []Expr, fields []*format.Field) map[int][][]int {
	parts := map[int][][]int{}
	whole := map[int]bool{}
	for _, x := range xs {
		walkParts(x, fields, parts, whole)
	}
	for i, ps := range parts {
		var kept [][]int
		for _, p := range ps {
			// A field inside another field read is read with it.
			if !slices.ContainsFunc(ps, func(q []int) bool { return len(q) < len(p) && slices.Equal(q, p[:len(q)]) }) {
				kept = append(kept, p)
			}
		}
		ps, parts[i] = kept, kept
		if whole[i] || i >= len(fields) || fields[i] == nil || leavesUnder(fields[i], ps) == len(fields[i].Leaves) {
			delete(parts, i)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return parts
}

func walkParts(x Expr, fields []*format.Field, parts map[int][][]int, whole map[int]bool) {
	if col, path, ok := fieldPath(x, fields); ok {
		if len(path) == 0 {
			whole[col] = true
		} else if !slices.ContainsFunc(parts[col], func(p []int) bool { return slices.Equal(p, path) }) {
			parts[col] = append(parts[col], path)
		}
		return
	}
	for _, c := range Children(x) {
		walkParts(c, fields, parts, whole)
	}
}

// fieldPath reports the column x reads and the child positions of the
// struct field it reaches (none for the column itself), when x is a column
// or struct_extract applied to one as fieldOf follows it.
func fieldPath(x Expr, fields []*format.Field) (int, []int, bool) {
	switch e := x.(type) {
	case *ColRef:
		return e.Index, nil, true
	case *Call:
		if e.Name != "struct_extract" || len(e.Args) != 2 {
			return 0, nil, false
		}
		col, path, ok := fieldPath(e.Args[0], fields)
		if !ok || fieldOf(e, fields) == nil {
			return 0, nil, false
		}
		return col, append(slices.Clip(path), int(e.Args[1].(*Const).Value.I)), true
	}
	return 0, nil, false
}

// leavesUnder counts the distinct leaves of the fields of f at paths.
func leavesUnder(f *format.Field, paths [][]int) int {
	return len(leafPathsUnder(f, paths))
}

// leafPathsUnder lists the distinct leaves of the fields of f at paths, in
// schema order.
func leafPathsUnder(f *format.Field, paths [][]int) []string {
	seen := map[int]bool{}
	for _, p := range paths {
		g := f
		for _, k := range p {
			g = g.Children[k]
		}
		for _, l := range g.Leaves {
			seen[l.Index] = true
		}
	}
	var out []string
	for _, l := range f.Leaves {
		if seen[l.Index] {
			out = append(out, l.Path)
		}
	}
	return out
}

// partNames names what a scan reads of column f: its name, or with parts
// the dotted names of the struct fields read (address.city).
func partNames(f *format.Field, parts [][]int) []string {
	if len(parts) == 0 {
		return []string{f.Name}
	}
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		name, g := f.Name, f
		for _, k := range p {
			g = g.Children[k]
			name += "." + g.Name
		}
		out = append(out, name)
	}
	return out
}

// structPath is the dotted path of the struct x reads, when x is a struct
// column or a struct field reached from one by field access.
func structPath(x Expr, fields []*format.Field) (string, bool) {
	col, path, ok := fieldPath(x, fields)
	if !ok || col < 0 || col >= len(fields) || fields[col] == nil {
		return "", false
	}
	f := fields[col]
	name := f.Name
	for _, k := range path {
		f = f.Children[k]
		name += "." + f.Name
	}
	return name, f.Kind == format.StructField
}
