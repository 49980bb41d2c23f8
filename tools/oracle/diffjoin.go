package main

// Random joins and uncorrelated subqueries (-kind join): two files (or a
// file with itself) joined INNER, LEFT, RIGHT, FULL or CROSS on keys of the
// same kind, with random predicates on both sides, in ON and in WHERE; and
// one file filtered by an IN, EXISTS or scalar subquery over another. Each
// query aggregates to one row, so a join's answer is compared whole without
// shipping its rows.

import (
	"context"
	"slices"
	"strconv"
	"strings"
)

// maxJoinRows bounds the rows a generated join may produce (DuckDB's
// count(*) decides), so one query cannot run for minutes in pqsql.
const maxJoinRows = 300_000

var joinKinds = []string{"INNER", "LEFT", "RIGHT", "FULL", "CROSS"}

// joinQuery is one generated join, kept in parts for shrinking.
type joinQuery struct {
	left, right string
	kind        string
	keys        []string // "a.x = b.y"; empty for CROSS
	extra       string   // a non-equality conjunct of ON, or ""
	onSide      *pred    // a one-side predicate in ON, or nil
	aggs        []string
	whereA      *pred // predicates on each side in WHERE, or nil
	whereB      *pred
	whereOp     string // "AND" or "OR" between them
}

func (q joinQuery) SQL() string {
	sel := append([]string{"count(*)"}, q.aggs...)
	var b strings.Builder
	b.WriteString("SELECT " + strings.Join(sel, ", ") + " FROM " + quoteStr(q.left) + " a ")
	if q.kind == "CROSS" {
		b.WriteString("CROSS JOIN " + quoteStr(q.right) + " b")
	} else {
		on := slices.Clone(q.keys)
		if q.extra != "" {
			on = append(on, q.extra)
		}
		if q.onSide != nil {
			on = append(on, q.onSide.String())
		}
		if len(on) == 0 {
			on = []string{"true"}
		}
		b.WriteString(q.kind + " JOIN " + quoteStr(q.right) + " b ON " + strings.Join(on, " AND "))
	}
	switch {
	case q.whereA != nil && q.whereB != nil:
		b.WriteString(" WHERE (" + q.whereA.String() + " " + q.whereOp + " " + q.whereB.String() + ")")
	case q.whereA != nil:
		b.WriteString(" WHERE " + q.whereA.String())
	case q.whereB != nil:
		b.WriteString(" WHERE " + q.whereB.String())
	}
	return b.String()
}

func (q joinQuery) smaller() []diffCase {
	var out []diffCase
	for i := range q.aggs {
		c := q
		c.aggs = slices.Delete(slices.Clone(q.aggs), i, i+1)
		out = append(out, c)
	}
	if q.extra != "" {
		c := q
		c.extra = ""
		out = append(out, c)
	}
	if len(q.keys) > 1 {
		for i := range q.keys {
			c := q
			c.keys = slices.Delete(slices.Clone(q.keys), i, i+1)
			out = append(out, c)
		}
	}
	for _, side := range []**pred{&q.onSide, &q.whereA, &q.whereB} {
		if *side == nil {
			continue
		}
		orig := *side
		*side = nil
		out = append(out, q)
		for _, s := range smallerPreds(orig) {
			*side = s
			out = append(out, q)
		}
		*side = orig
	}
	if q.kind != "INNER" && q.kind != "CROSS" {
		c := q
		c.kind = "INNER"
		out = append(out, c)
	}
	return out
}

// subQuery is one file filtered by an uncorrelated subquery over another.
type subQuery struct {
	outer, inner string
	aggs         []string
	where        *pred  // predicate on the outer file, or nil
	conj         string // "AND" or "OR" between where and the subquery
	form         string // "IN", "NOT IN", "EXISTS", "NOT EXISTS", a comparison, or "SELECT" (a scalar subquery in the select list)
	outerCol     string
	innerExpr    string // "b.x" for IN, "min(b.x)" for a comparison
	innerWhere   *pred
}

func (q subQuery) subSQL() string {
	sel := q.innerExpr
	if strings.HasSuffix(q.form, "EXISTS") {
		sel = "1"
	}
	s := "SELECT " + sel + " FROM " + quoteStr(q.inner) + " b"
	if q.innerWhere != nil {
		s += " WHERE " + q.innerWhere.String()
	}
	return "(" + s + ")"
}

func (q subQuery) SQL() string {
	sel := append([]string{"count(*)"}, q.aggs...)
	var cond string
	switch q.form {
	case "SELECT":
		sel = append(sel, q.subSQL())
	case "EXISTS", "NOT EXISTS":
		cond = q.form + " " + q.subSQL()
	default:
		cond = q.outerCol + " " + q.form + " " + q.subSQL()
	}
	where := ""
	switch {
	case cond != "" && q.where != nil:
		where = " WHERE (" + q.where.String() + " " + q.conj + " " + cond + ")"
	case cond != "":
		where = " WHERE " + cond
	case q.where != nil:
		where = " WHERE " + q.where.String()
	}
	return "SELECT " + strings.Join(sel, ", ") + " FROM " + quoteStr(q.outer) + " a" + where
}

func (q subQuery) smaller() []diffCase {
	var out []diffCase
	for i := range q.aggs {
		c := q
		c.aggs = slices.Delete(slices.Clone(q.aggs), i, i+1)
		out = append(out, c)
	}
	for _, side := range []**pred{&q.where, &q.innerWhere} {
		if *side == nil {
			continue
		}
		orig := *side
		*side = nil
		out = append(out, q)
		for _, s := range smallerPreds(orig) {
			*side = s
			out = append(out, q)
		}
		*side = orig
	}
	return out
}

// joinGen draws joins and subqueries over the loaded files.
type joinGen struct {
	g     *gen
	files []*diffFile
	d     *differ
	ctx   context.Context
	rows  map[string]int64 // row counts, by path, filled as needed
}

// rowCount is a file's row count (DuckDB's), or -1 when it cannot be read.
func (j *joinGen) rowCount(path string) int64 {
	if n, ok := j.rows[path]; ok {
		return n
	}
	n := int64(-1)
	if res, err := j.d.duck.Query(j.ctx, "SELECT count(*) FROM "+quoteStr(path), true); err == nil && len(res.Rows) == 1 {
		if v, err := strconv.ParseInt(res.Rows[0], 10, 64); err == nil {
			n = v
		}
	}
	j.rows[path] = n
	return n
}

// keyPairs are the column pairs of a and b that can be compared: same kind.
func keyPairs(a, b *diffFile) [][2]*diffCol {
	var out [][2]*diffCol
	for _, x := range a.cols {
		for _, y := range b.cols {
			if x.kind == y.kind && x.kind != kOther && x.kind != kBool && len(x.lits) > 0 {
				out = append(out, [2]*diffCol{x, y})
			}
		}
	}
	return out
}

// sideTree is a random predicate over one side, qualified with alias.
func (j *joinGen) sideTree(f *diffFile, alias string, depth int) *pred {
	j.g.qual = alias + "."
	defer func() { j.g.qual = "" }()
	return j.g.tree(f.cols, depth)
}

func (j *joinGen) sideAggs(f *diffFile, alias string) []string {
	j.g.qual = alias + "."
	defer func() { j.g.qual = "" }()
	return j.g.aggs(f.cols)
}

func (j *joinGen) maybeTree(f *diffFile, alias string, p int) *pred {
	if j.g.pick(p) == 0 {
		return nil
	}
	return j.sideTree(f, alias, 2)
}

func (j *joinGen) pair() (*diffFile, *diffFile) {
	a := j.files[j.g.pick(len(j.files))]
	if j.g.pick(3) == 0 {
		return a, a
	}
	return a, j.files[j.g.pick(len(j.files))]
}

// join draws a join, or nil for a cross product too large to run.
func (j *joinGen) join() diffCase {
	g := j.g
	a, b := j.pair()
	q := joinQuery{left: a.path, right: b.path, kind: joinKinds[g.pick(len(joinKinds))], whereOp: "AND"}
	pairs := keyPairs(a, b)
	if q.kind != "CROSS" && len(pairs) == 0 || q.kind == "CROSS" {
		// A cross product of two large files is all cost and no insight.
		if j.rowCount(a.path)*j.rowCount(b.path) > maxJoinRows {
			return nil
		}
	}
	if q.kind != "CROSS" {
		if len(pairs) == 0 {
			q.kind = "CROSS"
		} else {
			for range 1 + g.pick(2)*g.pick(2) {
				p := pairs[g.pick(len(pairs))]
				q.keys = append(q.keys, "a."+quoteIdent(p[0].name)+" = b."+quoteIdent(p[1].name))
			}
			if g.pick(5) == 0 {
				p := pairs[g.pick(len(pairs))]
				q.extra = "a." + quoteIdent(p[0].name) + " " + cmpOps[g.pick(len(cmpOps))] + " b." + quoteIdent(p[1].name)
			}
			if g.pick(3) == 0 {
				if g.pick(2) == 0 {
					q.onSide = j.sideTree(a, "a", 1)
				} else {
					q.onSide = j.sideTree(b, "b", 1)
				}
			}
		}
	}
	q.aggs = append(j.sideAggs(a, "a"), j.sideAggs(b, "b")...)
	if len(q.aggs) > 4 {
		q.aggs = q.aggs[:4]
	}
	q.whereA = j.maybeTree(a, "a", 3)
	q.whereB = j.maybeTree(b, "b", 3)
	if g.pick(4) == 0 {
		q.whereOp = "OR"
	}
	return q
}

func (j *joinGen) subquery() diffCase {
	g := j.g
	a, b := j.pair()
	q := subQuery{outer: a.path, inner: b.path, conj: "AND", aggs: j.sideAggs(a, "a")}
	q.where = j.maybeTree(a, "a", 2)
	if g.pick(4) == 0 {
		q.conj = "OR"
	}
	q.innerWhere = j.maybeTree(b, "b", 4)
	pairs := keyPairs(a, b)
	switch n := g.pick(10); {
	case n < 2 || len(pairs) == 0 && n < 8:
		q.form = []string{"EXISTS", "NOT EXISTS"}[g.pick(2)]
	case n < 8:
		p := pairs[g.pick(len(pairs))]
		q.outerCol = "a." + quoteIdent(p[0].name)
		if n < 5 {
			q.form = []string{"IN", "NOT IN"}[g.pick(2)]
			q.innerExpr = "b." + quoteIdent(p[1].name)
		} else {
			q.form = cmpOps[g.pick(len(cmpOps))]
			q.innerExpr = []string{"min(", "max("}[g.pick(2)] + "b." + quoteIdent(p[1].name) + ")"
		}
	default:
		q.form = "SELECT"
		c := b.cols[g.pick(len(b.cols))]
		q.innerExpr = "count(b." + quoteIdent(c.name) + ")"
		if c.kind != kOther {
			q.innerExpr = []string{"count(", "min(", "max("}[g.pick(3)] + "b." + quoteIdent(c.name) + ")"
		}
	}
	return q
}

// next draws a join (two in three) or a subquery whose answer DuckDB
// computes within maxJoinRows rows.
func (j *joinGen) next() diffCase {
	for {
		var q diffCase
		if j.g.pick(3) < 2 {
			q = j.join()
		} else {
			q = j.subquery()
		}
		if q != nil && !j.d.tooLarge(j.ctx, q.SQL()) {
			return q
		}
	}
}

// tooLarge says whether DuckDB counts more than maxJoinRows rows for a
// query whose first column is count(*).
func (d *differ) tooLarge(ctx context.Context, sql string) bool {
	a := d.duckAnswer(ctx, sql)
	if a.err != nil || strings.Contains(a.cells, "\n") {
		return false
	}
	first, _, _ := strings.Cut(a.cells, "\t")
	n, err := strconv.ParseInt(first, 10, 64)
	return err == nil && n > maxJoinRows
}
