package planner

import "strings"

// alignByName lines up the columns of UNION [ALL] BY NAME's two sides, as
// DuckDB does: the left side's columns, then the right side's columns the
// left lacks, in their order; names match case-insensitively and the left
// side's spelling is kept. A side lacking a column gives NULL of the
// other side's type, so the usual set-operation types apply.
func alignByName(left, right *Plan) (*Plan, *Plan, error) {
	for _, p := range []*Plan{left, right} {
		seen := map[string]bool{}
		for _, c := range p.Columns {
			k := strings.ToLower(c.Name)
			if seen[k] {
				return nil, nil, binderError("UNION (ALL) BY NAME operation doesn't support duplicate names in the SELECT list - the name \"%s\" occurs multiple times", c.Name)
			}
			seen[k] = true
		}
	}
	type slot struct {
		name        string
		left, right int // column of each side, -1 when it lacks it
		t           Type
	}
	var slots []slot
	at := map[string]int{}
	for i, c := range left.Columns {
		at[strings.ToLower(c.Name)] = len(slots)
		slots = append(slots, slot{name: c.Name, left: i, right: -1, t: c.Type})
	}
	for i, c := range right.Columns {
		if k, ok := at[strings.ToLower(c.Name)]; ok {
			slots[k].right = i
			continue
		}
		slots = append(slots, slot{name: c.Name, left: -1, right: i, t: c.Type})
	}
	side := func(p *Plan, col func(slot) int) *Plan {
		w := &Plan{Scan: &Scan{Subquery: p, Source: "(subquery)"}, Input: p.Columns, Limit: -1}
		for _, s := range slots {
			if i := col(s); i >= 0 {
				w.Project = append(w.Project, &ColRef{Index: i, Name: p.Columns[i].Name, T: p.Columns[i].Type})
				w.Columns = append(w.Columns, Column{Name: s.name, Type: p.Columns[i].Type})
				continue
			}
			w.Project = append(w.Project, &Const{Value: NullDatum, T: s.t})
			w.Columns = append(w.Columns, Column{Name: s.name, Type: s.t})
		}
		return w
	}
	return side(left, func(s slot) int { return s.left }), side(right, func(s slot) int { return s.right }), nil
}
