package planner

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// A JoinKind says which rows a join keeps besides the matching pairs.
type JoinKind int

const (
	// JoinInner keeps the pairs that match.
	JoinInner JoinKind = iota
	// JoinLeft also keeps each left row without a match, with NULLs.
	JoinLeft
	// JoinRight also keeps each right row without a match, with NULLs.
	JoinRight
	// JoinFull keeps the rows without a match of both sides.
	JoinFull
	// JoinCross pairs every left row with every right row.
	JoinCross
	// JoinSemi keeps each left row that has a match, once, with NULLs for
	// the right side's columns (EXISTS, IN).
	JoinSemi
	// JoinAnti keeps each left row without a match, with NULLs for the
	// right side's columns (NOT EXISTS).
	JoinAnti
)

var joinKindNames = [...]string{"INNER", "LEFT", "RIGHT", "FULL", "CROSS", "SEMI", "ANTI"}

func (k JoinKind) String() string { return joinKindNames[k] }

// A JoinKey is one equality of a join condition: L reads the left side's
// columns only, R the right side's only, both positions of the joined row
// (left columns first), both of one type. NULL keys match nothing.
type JoinKey struct{ L, R Expr }

// A Join is a join of two plans. Its rows are the left plan's columns then
// the right plan's; a pair matches when every key is equal and Residual is
// TRUE on the joined row.
type Join struct {
	Kind        JoinKind
	Left, Right *Plan
	Keys        []JoinKey
	// Residual is the rest of the condition (nil: none).
	Residual Expr
	// BuildLeft puts the hash table on the left side's rows, which must be
	// kept whole when unmatched for RIGHT; LEFT and FULL build on the
	// right. Rows is the planner's estimate of each side's rows, from the
	// files' footers (-1: unknown).
	BuildLeft           bool
	LeftRows, RightRows int64
	// Filter is the join filter the executor derived from the build
	// side's keys and pushed into the probe side, once it has run (nil
	// before, or when there was none); for EXPLAIN ANALYZE.
	Filter Expr
	// Single says a left row may match one right row at most, and the
	// query fails when one matches more: the join of a correlated scalar
	// subquery.
	Single bool
	// Order, on the last join of a chain the optimizer reordered, names
	// its inputs in the order chosen, with the estimated rows that chose
	// it, then in the written order; for EXPLAIN.
	Order string
}

func (j *Join) String() string {
	if j.Kind == JoinCross {
		return "CROSS_PRODUCT"
	}
	op := "HASH_JOIN"
	if len(j.Keys) == 0 {
		op = "NESTED_LOOP_JOIN"
	}
	var conds []string
	for _, k := range j.Keys {
		conds = append(conds, k.L.String()+" = "+k.R.String())
	}
	s := op + " " + j.Kind.String()
	if len(conds) > 0 {
		s += " ON " + strings.Join(conds, " AND ")
	}
	if j.Residual != nil {
		s += " RESIDUAL " + j.Residual.String()
	}
	if j.LeftRows >= 0 && j.RightRows >= 0 && (j.LeftRows > 0 || j.RightRows > 0) {
		side := "right"
		if j.BuildLeft {
			side = "left"
		}
		s += fmt.Sprintf(" (build %s; estimated rows %d left, %d right)", side, j.LeftRows, j.RightRows)
	}
	if j.Filter != nil {
		f := j.Filter.String()
		if len(f) > 200 {
			f = f[:200] + "..."
		}
		s += " JOIN_FILTER " + f
	}
	return s
}

// tableName is the name a FROM item without alias is known by, as in
// DuckDB: a view's or CTE's name, a file's name without its extension.
func tableName(sel *sql.Select, at *ast.AliasedTableExpr) string {
	t, ok := at.Expr.(ast.TableName)
	if !ok {
		return "unnamed_subquery"
	}
	src := t.Source
	if src == nil {
		return t.Name.String()
	}
	switch src.Kind {
	case sql.SourceFiles:
		if len(src.Paths) > 0 {
			base := filepath.Base(src.Paths[0])
			if i := strings.Index(base, "."); i > 0 {
				base = base[:i]
			}
			return base
		}
	case sql.SourceView:
		return src.Name
	}
	return t.Name.String()
}

// columnName is an AST reference to c, qualified by its table.
func columnName(c Column) *ast.ColName {
	n := &ast.ColName{Name: ast.NewColIdent(c.Name)}
	if c.Table != "" {
		n.Qualifier = ast.TableName{Name: ast.NewTableIdent(c.Table)}
	}
	return n
}

// resolveColumn finds the column a name refers to: a qualified name in
// its table, an unqualified one among the columns * shows, which must not
// be two columns of different tables. -1 means no such column.
func (b *binder) resolveColumn(e *ast.ColName) (int, error) {
	if b.outer > 0 {
		return b.resolveScoped(e)
	}
	name := e.Name.String()
	if e.Qualifier.IsEmpty() {
		i := b.lookup(name)
		if i < 0 {
			return -1, nil
		}
		// The index answers in constant time: SELECT * over n columns
		// binds in O(n).
		if j := b.names.ambiguous(name, i); j >= 0 {
			c := b.cols[j]
			return -1, binderError("Ambiguous reference to column name \"%s\" (use: \"%s.%s\" or \"%s.%s\")",
				name, b.cols[i].Table, b.cols[i].Name, c.Table, c.Name)
		}
		return i, nil
	}
	table := e.Qualifier.Name.String()
	if b.names == nil {
		b.names = newColumnIndex(b.cols)
	}
	if i := b.names.findQualified(table, name); i >= 0 {
		return i, nil
	}
	found, tables := -1, map[string]bool{}
	for i, c := range b.cols {
		tables[strings.ToLower(c.Table)] = true
		if !strings.EqualFold(c.Table, table) {
			continue
		}
		if c.Name == name || found < 0 && strings.EqualFold(c.Name, name) {
			found = i
		}
	}
	if found >= 0 {
		return found, nil
	}
	if !tables[strings.ToLower(table)] {
		if hasTable(b.enclosing, table) {
			// A name of an enclosing query in a subquery form that did
			// not become a join.
			return -1, fmt.Errorf("%w: subquery reading the outer query's column %s.%s here", ErrNotImplemented, table, name)
		}
		if len(tables) <= 1 && tables[""] {
			// One source without a name (a subquery without alias):
			// nothing to check the qualifier against.
			return b.lookup(name), nil
		}
		return -1, unknownTable(b.cols, table)
	}
	var names []string
	for _, c := range b.cols {
		if strings.EqualFold(c.Table, table) {
			names = append(names, c.Name)
		}
	}
	// DuckDB's text, its blank line and doubled colon included.
	return -1, binderError("Table \"%s\" does not have a column named \"%s\"\n%s", table, name,
		candidatesLine("Candidate bindings: ", prefixNames(names, name)))
}

// fromItems plans a FROM list; items after the first are cross joined
// (comma joins), which the optimizer turns into inner joins on the WHERE's
// equalities.
func fromItems(sel *sql.Select, items ast.TableExprs, c buildCtx) (*Plan, error) {
	var p *Plan
	for _, te := range items {
		r, err := fromItem(sel, te, c)
		if err != nil {
			return nil, err
		}
		if p == nil {
			p = r
			continue
		}
		p = joinPlan(&Join{Kind: JoinCross, Left: p, Right: r}, concatColumns(p, r))
	}
	return p, nil
}

// fromItem plans one FROM item as a plan of its rows, its columns named
// with its table.
func fromItem(sel *sql.Select, te ast.TableExpr, c buildCtx) (*Plan, error) {
	switch t := te.(type) {
	case *ast.AliasedTableExpr:
		scan, cols, err := aliasedSource(sel, t, c)
		if err != nil {
			return nil, err
		}
		if scan.Needed != nil {
			// The plan reads every column; the optimizer prunes them.
			for i := range scan.Needed {
				scan.Needed[i] = true
			}
		}
		return passThrough(scan, cols), nil
	case *ast.ParenTableExpr:
		return fromItems(sel, t.Exprs, c)
	case *ast.JoinTableExpr:
		l, err := fromItem(sel, t.LeftExpr, c)
		if err != nil {
			return nil, err
		}
		r, err := fromItem(sel, t.RightExpr, c)
		if err != nil {
			return nil, err
		}
		return buildJoin(sel, t, l, r)
	}
	return nil, fmt.Errorf("%w: FROM %s", ErrNotImplemented, ast.String(te))
}

// passThrough is the plan of scan's rows as they are.
func passThrough(scan *Scan, cols []Column) *Plan {
	p := &Plan{Scan: scan, Input: cols, Columns: cols, Limit: -1}
	for i, col := range cols {
		p.Project = append(p.Project, &ColRef{Index: i, Name: col.Name, T: col.Type})
	}
	return p
}

func joinPlan(j *Join, cols []Column) *Plan {
	return passThrough(&Scan{Join: j, Source: "(join)"}, cols)
}

// concatColumns are the columns of a join of l and r.
func concatColumns(l, r *Plan) []Column {
	cols := make([]Column, 0, len(l.Columns)+len(r.Columns))
	cols = append(cols, l.Columns...)
	return append(cols, r.Columns...)
}

var joinKinds = map[string]struct {
	kind    JoinKind
	natural bool
}{
	ast.JoinStr: {JoinInner, false}, sql.FullJoinStr: {JoinFull, false},
	ast.LeftJoinStr: {JoinLeft, false}, ast.RightJoinStr: {JoinRight, false},
	ast.NaturalJoinStr: {JoinInner, true}, ast.NaturalLeftJoinStr: {JoinLeft, true},
	ast.NaturalRightJoinStr: {JoinRight, true}, sql.NaturalFullJoinStr: {JoinFull, true},
}

// buildJoin plans l JOIN r with its condition: ON, USING or NATURAL.
func buildJoin(sel *sql.Select, je *ast.JoinTableExpr, l, r *Plan) (*Plan, error) {
	jk, ok := joinKinds[je.Join]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotImplemented, strings.ToUpper(je.Join))
	}
	cols := concatColumns(l, r)
	nl := len(l.Columns)
	j := &Join{Kind: jk.kind, Left: l, Right: r}
	var using []string
	for _, u := range je.Condition.Using {
		using = append(using, u.String())
	}
	if jk.natural {
		for _, lc := range l.Columns {
			if lc.Hidden {
				continue
			}
			for _, rc := range r.Columns {
				if !rc.Hidden && strings.EqualFold(lc.Name, rc.Name) {
					using = append(using, lc.Name)
					break
				}
			}
		}
		if len(using) == 0 {
			return nil, binderError("No columns found to join on in NATURAL JOIN.\nUse CROSS JOIN if you intended for this to be a cross-product.")
		}
	}
	var conds []Expr
	// merged maps the left position of a RIGHT or FULL join's USING column
	// to the value it shows: the right column's, or the first non-NULL of
	// the two.
	merged := map[int]Expr{}
	for _, name := range using {
		li, ri := visibleColumn(l.Columns, name), visibleColumn(r.Columns, name)
		if li < 0 {
			return nil, binderError("Column \"%s\" does not exist on left side of join!", name)
		}
		if ri < 0 {
			return nil, binderError("Column \"%s\" does not exist on right side of join!", name)
		}
		eq, err := equalColumns(cols, li, nl+ri)
		if err != nil {
			return nil, err
		}
		conds = append(conds, eq)
		// DuckDB shows a USING column once, where the left side has it,
		// with the value of the side that keeps all its rows.
		cols[nl+ri].Hidden = true
		switch jk.kind {
		case JoinRight:
			merged[li] = &ColRef{Index: nl + ri, Name: cols[nl+ri].Name, T: cols[nl+ri].Type}
		case JoinFull:
			x, err := coalesceColumns(cols, li, nl+ri)
			if err != nil {
				return nil, err
			}
			merged[li] = x
		}
	}
	if on := je.Condition.On; on != nil {
		if hasAgg(on) {
			return nil, binderError("JOIN clause cannot contain aggregates!")
		}
		x, err := (&binder{cols: cols, sel: sel}).boolean(on)
		if err != nil {
			return nil, err
		}
		conds = append(conds, x)
	}
	if len(conds) == 0 && j.Kind == JoinInner {
		j.Kind = JoinCross
	}
	SplitJoinCondition(j, conds, nl)
	p := joinPlan(j, cols)
	if len(merged) == 0 {
		return p, nil
	}
	// A projection puts the merged value in the left column's place; the
	// left column stays reachable by its qualified name.
	w := &Plan{Scan: &Scan{Subquery: p, Source: "(join)"}, Input: cols, Limit: -1}
	for i, c := range cols {
		if x, ok := merged[i]; ok {
			w.Project = append(w.Project, x)
			w.Columns = append(w.Columns, Column{Name: c.Name, Type: x.Type()})
			c.Hidden = true
		}
		w.Project = append(w.Project, &ColRef{Index: i, Name: c.Name, T: c.Type})
		w.Columns = append(w.Columns, c)
	}
	return w, nil
}

// SplitJoinCondition adds the conjuncts of conds to j: an equality of an
// expression of the left columns (positions below nl) and one of the right
// columns becomes a key, anything else the residual.
func SplitJoinCondition(j *Join, conds []Expr, nl int) {
	for _, c := range conds {
		for _, x := range conjunctsOf(c) {
			if k, ok := joinKey(x, nl); ok {
				j.Keys = append(j.Keys, k)
				continue
			}
			if j.Residual == nil {
				j.Residual = x
			} else {
				j.Residual = &Logic{And: true, Xs: append(conjunctsOf(j.Residual), x)}
			}
		}
	}
}

// joinKey reads x as a key when it is left = right (either way round).
func joinKey(x Expr, nl int) (JoinKey, bool) {
	b, ok := x.(*Binary)
	if !ok || b.Op != "=" || b.L.Type() != b.R.Type() {
		return JoinKey{}, false
	}
	side := func(e Expr) int {
		set := map[int]bool{}
		Columns(e, set)
		s := 0
		for i := range set {
			switch {
			case i < nl && s != 2:
				s = 1
			case i >= nl && s != 1:
				s = 2
			default:
				return 3
			}
		}
		return s
	}
	switch l, r := side(b.L), side(b.R); {
	case l == 1 && r == 2:
		return JoinKey{L: b.L, R: b.R}, true
	case l == 2 && r == 1:
		return JoinKey{L: b.R, R: b.L}, true
	}
	return JoinKey{}, false
}

// conjunctsOf splits x into its AND-ed terms.
func conjunctsOf(x Expr) []Expr {
	if l, ok := x.(*Logic); ok && l.And {
		var out []Expr
		for _, y := range l.Xs {
			out = append(out, conjunctsOf(y)...)
		}
		return out
	}
	return []Expr{x}
}

// visibleColumn finds a column that an unqualified name reaches.
func visibleColumn(cols []Column, name string) int {
	for i, c := range cols {
		if !c.Hidden && strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// equalColumns binds cols[a] = cols[b], cast to a common type as a written
// comparison would be.
func equalColumns(cols []Column, a, b int) (Expr, error) {
	tmp := make([]Column, len(cols))
	for i, c := range cols {
		tmp[i] = Column{Name: "", Type: c.Type, Hidden: true}
	}
	tmp[a] = Column{Name: "\x00l", Type: cols[a].Type}
	tmp[b] = Column{Name: "\x00r", Type: cols[b].Type}
	x, err := (&binder{cols: tmp}).bind(&ast.ComparisonExpr{Operator: "=",
		Left: &ast.ColName{Name: ast.NewColIdent("\x00l")}, Right: &ast.ColName{Name: ast.NewColIdent("\x00r")}})
	if err != nil {
		return nil, err
	}
	nameColumns(x, cols)
	return x, nil
}

// nameColumns gives x's column references the names of cols.
func nameColumns(x Expr, cols []Column) {
	if r, ok := x.(*ColRef); ok {
		r.Name = cols[r.Index].Name
		return
	}
	for _, y := range Children(x) {
		nameColumns(y, cols)
	}
}

// coalesceColumns is COALESCE(cols[a], cols[b]), in their common type: the
// column a FULL join's USING shows.
func coalesceColumns(cols []Column, a, b int) (Expr, error) {
	tmp := make([]Column, len(cols))
	for i, c := range cols {
		tmp[i] = Column{Name: "", Type: c.Type, Hidden: true}
	}
	tmp[a] = Column{Name: "\x00l", Type: cols[a].Type}
	tmp[b] = Column{Name: "\x00r", Type: cols[b].Type}
	arg := func(name string) ast.SelectExpr {
		return &ast.AliasedExpr{Expr: &ast.ColName{Name: ast.NewColIdent(name)}}
	}
	x, err := (&binder{cols: tmp}).bind(&ast.FuncExpr{Name: ast.NewColIdent("coalesce"), Exprs: ast.SelectExprs{arg("\x00l"), arg("\x00r")}})
	if err != nil {
		return nil, err
	}
	nameColumns(x, cols)
	return x, nil
}
