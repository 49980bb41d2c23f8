package exec

import "github.com/pqsql/pqsql/format"

// prunedField is struct field f reduced to the leaves of its fields at
// paths (child positions, as planner.Scan.Parts lists them): the scan reads
// and decodes only those. The other fields keep their names and types but
// no leaves, and assemble as NULL; the plan never reads them.
func prunedField(f *format.Field, paths [][]int) *format.Field {
	keep := map[int]bool{}
	for _, p := range paths {
		g := f
		for _, k := range p {
			if g.Kind != format.StructField || k < 0 || k >= len(g.Children) {
				return f // not a path of this file's field: read it whole
			}
			g = g.Children[k]
		}
		for _, l := range g.Leaves {
			keep[l.Index] = true
		}
	}
	if len(keep) == 0 {
		return f
	}
	return pruneLeaves(f, keep)
}

func pruneLeaves(f *format.Field, keep map[int]bool) *format.Field {
	var leaves []*format.Leaf
	for _, l := range f.Leaves {
		if keep[l.Index] {
			leaves = append(leaves, l)
		}
	}
	if len(leaves) == len(f.Leaves) {
		return f
	}
	c := *f
	c.Leaves = leaves
	if f.Kind == format.StructField {
		c.Children = make([]*format.Field, len(f.Children))
		for i, ch := range f.Children {
			c.Children[i] = pruneLeaves(ch, keep)
		}
	}
	return &c
}
