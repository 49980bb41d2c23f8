package planner

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/pushdown"
	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
	"github.com/pqsql/pqsql/storage"
)

// A Catalog resolves view names to the SELECT text they stand for.
type Catalog interface {
	View(name string) (text string, ok bool)
}

// maxViewDepth bounds view expansion so a view defined on itself fails.
const maxViewDepth = 32

// Build plans a parsed SELECT; views are looked up in cat (which may be nil).
func Build(sel *sql.Select, cat Catalog) (*Plan, error) {
	st, ctx := storeOf(cat)
	return buildQuery(sel, buildCtx{cat: cat, store: st, ctx: ctx})
}

// A buildCtx is what planning a query needs besides its AST: the catalog,
// how deep in views and subqueries it is, and the common table
// expressions in scope.
type buildCtx struct {
	cat   Catalog
	store *storage.Store
	ctx   context.Context
	depth int
	env   *cteEnv
	// enclosing are the columns of the queries a subquery expression is
	// in, which a name inside it must not silently miss.
	enclosing []Column
	// scope is the rows of the queries a correlated subquery expression
	// is in (correlated_loop.go).
	scope *outerScope
}

// deeper is c one level of views, CTEs or subqueries further in.
func (c buildCtx) deeper() buildCtx {
	c.depth++
	return c
}

// enclosed is c for a subquery expression of a query with columns cols.
func (c buildCtx) enclosed(cols []Column) buildCtx {
	c = c.deeper()
	c.enclosing = append(append([]Column(nil), cols...), c.enclosing...)
	return c
}

// A cteEnv is one common table expression in scope; next links the ones
// defined before it and those of enclosing queries.
type cteEnv struct {
	cte *sql.CTE
	// def is the scope its body is planned in: the CTEs before it.
	def *cteEnv
	// work, when set, makes a name of the CTE read the rows its
	// recursive step works on.
	work *WorkTable
	// pending marks the CTE whose own body is being planned: naming it
	// there is a circular reference.
	pending   bool
	recursive bool
	next      *cteEnv
}

// lookup finds the CTE a FROM name refers to, innermost first.
func (e *cteEnv) lookup(name string) *cteEnv {
	for ; e != nil; e = e.next {
		if strings.EqualFold(e.cte.Name, name) {
			return e
		}
	}
	return nil
}

// buildQuery plans a query with its WITH clause: its CTEs come into scope
// for the query, each one for the CTEs after it too.
func buildQuery(sel *sql.Select, c buildCtx) (*Plan, error) {
	for _, cte := range sel.With {
		c.env = &cteEnv{cte: cte, def: c.env, recursive: sel.Recursive, next: c.env}
	}
	return build(sel, sel.AST, c)
}

// buildCTE plans a reference to a CTE: its body, in the scope it was
// defined in, with its column names.
func buildCTE(e *cteEnv, c buildCtx) (*Plan, error) {
	if e.recursive && !e.pending {
		if p, ok, err := buildRecursive(e, c); ok || err != nil {
			return p, err
		}
	}
	if e.pending {
		if e.recursive {
			return nil, fmt.Errorf("%w: recursive CTEs (%s refers to itself)", ErrNotImplemented, e.cte.Name)
		}
		return nil, binderError("Circular reference to CTE \"%s\", use WITH RECURSIVE to use recursive CTEs.", e.cte.Name)
	}
	c = c.deeper()
	// A CTE's body does not see the row of a query it is used in.
	c.scope = nil
	c.env = &cteEnv{cte: e.cte, pending: true, recursive: e.recursive, next: e.def}
	sub, err := buildQuery(e.cte.Query, c)
	if err != nil {
		return nil, err
	}
	// DuckDB renames as many columns as names are given, ignoring extra names.
	for i, name := range e.cte.Columns {
		if i < len(sub.Columns) {
			sub.Columns[i].Name = name
		}
	}
	return sub, nil
}

func build(sel *sql.Select, stmt ast.SelectStatement, c buildCtx) (*Plan, error) {
	if c.depth > maxViewDepth {
		return nil, fmt.Errorf("%w: views nested deeper than %d (a view that refers to itself?)", ErrBinder, maxViewDepth)
	}
	switch s := stmt.(type) {
	case *ast.ParenSelect:
		return build(sel, s.Select, c)
	case *ast.Union:
		return buildSetOp(sel, s, c)
	case *ast.Select:
		return buildSelect(sel, s, c)
	}
	return nil, fmt.Errorf("%w: statement %T", ErrNotImplemented, stmt)
}

// source plans the FROM clause: one source, or the joins of several (a
// comma join is a cross join the WHERE may turn into an inner one).
func source(sel *sql.Select, s *ast.Select, c buildCtx) (*Scan, []Column, error) {
	if len(s.From) == 1 {
		if at, ok := s.From[0].(*ast.AliasedTableExpr); ok {
			return aliasedSource(sel, at, c)
		}
	}
	p, err := fromItems(sel, s.From, c)
	if err != nil {
		return nil, nil, err
	}
	if p.Scan.Join == nil {
		// A join wrapped in a projection (RIGHT JOIN ... USING).
		return &Scan{Subquery: p, Source: "(join)"}, p.Columns, nil
	}
	return p.Scan, p.Columns, nil
}

// aliasedSource plans one FROM item that is not a join; its columns carry
// the name the item is known by.
func aliasedSource(sel *sql.Select, at *ast.AliasedTableExpr, c buildCtx) (*Scan, []Column, error) {
	scan, cols, err := aliasedSource1(sel, at, c)
	if err != nil {
		return nil, nil, err
	}
	table := at.As.String()
	if table == "" {
		table = tableName(sel, at)
	}
	// FROM src t(a, b) renames src's first columns; DuckDB ignores names
	// past its last column.
	names := at.Columns
	if t, ok := at.Expr.(ast.TableName); ok && t.Source != nil {
		names = t.Source.Columns
	}
	if _, ok := at.Expr.(*ast.Subquery); ok && len(names) > len(cols) {
		return nil, nil, binderError("table \"%s\" has %d columns available but %d columns specified", table, len(cols), len(names))
	}
	out := make([]Column, len(cols))
	for i, col := range cols {
		out[i] = Column{Name: col.Name, Type: col.Type, Table: table}
		if i < len(names) {
			out[i].Name = names[i]
		}
	}
	// A FROM item's columns are known by distinct names, as in DuckDB:
	// (SELECT 1 AS a, 2 AS a) t has columns a and a_1.
	dedupNames(out)
	return scan, out, nil
}

func aliasedSource1(sel *sql.Select, at *ast.AliasedTableExpr, c buildCtx) (*Scan, []Column, error) {
	switch t := at.Expr.(type) {
	case *ast.Subquery:
		// A subquery nests as deep as its text does; only views and CTEs
		// count towards maxViewDepth, as only they can refer to themselves.
		sub, err := build(sel, t.Select, c)
		if err != nil {
			return nil, nil, err
		}
		return &Scan{Subquery: sub, Source: "(subquery)"}, sub.Columns, nil
	case ast.TableName:
		src := t.Source
		if src == nil && strings.EqualFold(t.Name.String(), "dual") && t.Qualifier.IsEmpty() {
			// SELECT without FROM: one row of no columns.
			return &Scan{Subquery: &Plan{Scan: &Scan{Source: "(no source)"}, Limit: -1, Project: nil, Single: true}, Source: "(no source)"}, nil, nil
		}
		if src == nil {
			return nil, nil, fmt.Errorf("%w: Table with name %s does not exist!", ErrCatalog, t.Name.String())
		}
		switch src.Kind {
		case sql.SourceView:
			if e := c.env.lookup(src.Name); e != nil && e.work != nil {
				return &Scan{WorkTable: e.work, Source: src.Name}, e.work.Columns, nil
			} else if e != nil {
				sub, err := buildCTE(e, c)
				if err != nil {
					return nil, nil, err
				}
				return &Scan{Subquery: sub, Source: src.Name, CTE: e.cte}, sub.Columns, nil
			}
			text, ok := "", false
			if c.cat != nil {
				text, ok = c.cat.View(src.Name)
			}
			if !ok {
				return nil, nil, locateAt(fmt.Errorf("%w: Table with name %s does not exist!", ErrCatalog, src.Name), src.Pos, true)
			}
			st, err := sql.Parse(text)
			if err != nil {
				return nil, nil, fmt.Errorf("view %s: %w", src.Name, err)
			}
			vs, ok := st.(*sql.Select)
			if !ok {
				return nil, nil, fmt.Errorf("%w: view %s is not a query", ErrBinder, src.Name)
			}
			// A view's body sees the catalog only, not the CTEs around its use.
			vc := c.deeper()
			vc.enclosing = nil
			vc.scope = nil
			vc.env = nil
			sub, err := buildQuery(vs, vc)
			if err != nil {
				// Positions in the body are in the view's text, not the statement's.
				return nil, nil, unlocated(err)
			}
			return &Scan{Subquery: sub, Source: src.Name}, sub.Columns, nil
		case sql.SourceFiles:
			files, err := expandPaths(c.ctx, c.store, src.Paths)
			if err != nil {
				// DuckDB locates a missing file of read_parquet(...), not of a quoted path.
				if !strings.HasPrefix(src.Text, "'") {
					return nil, nil, locateAt(err, src.Pos, true)
				}
				return nil, nil, err
			}
			hive := false
			if on, off := hiveSetting(src); off || (!on && !hiveDetect(files)) {
				// Every file's footer in one round rather than the first
				// alone, then the rest. Hive partitions are pruned first:
				// a pruned file gets no request.
				c.store.OpenAhead(c.ctx, files, footersAhead)
			} else {
				hive = true
			}
			if src.UnionByName && len(files) > 1 {
				return unionByName(src, files, c)
			}
			if len(files) > 1 && !hive {
				// Comparing schemas opens every footer, which a file its
				// partition rules out must not cost; hive partitioned files
				// are read with the first file's schema as they are.
				return firstSchema(src, files, c)
			}
			return filesScan(src, files, c)
		}
		scan, cols, err := functionSource(src, c)
		return scan, cols, locate1(err, src.Pos)
	}
	return nil, nil, fmt.Errorf("%w: FROM %s", ErrNotImplemented, ast.String(at))
}

// filesScan is the scan of files read with the first one's schema.
func filesScan(src *sql.Source, files []string, c buildCtx) (*Scan, []Column, error) {
	f, closeFile, err := openDeferred(c.ctx, c.store, files[0])
	if err != nil {
		return nil, nil, err
	}
	defer closeFile()
	scan, cols, err := schemaScan(src, files, f.Schema.Fields, c)
	if err == nil {
		scan.footers = &keptFooters{}
		scan.footers.keep(files[0], f)
	}
	return scan, cols, err
}

// schemaScan is the scan of files read with the given top-level fields.
func schemaScan(src *sql.Source, files []string, fields []*format.Field, c buildCtx) (*Scan, []Column, error) {
	scan := &Scan{Files: files, Fields: fields, Source: src.Text, store: c.store}
	cols := make([]Column, len(scan.Fields))
	for i, fl := range scan.Fields {
		cols[i] = Column{Name: fl.Name, Type: TypeOf(fl)}
	}
	dedupNames(cols)
	cols, err := addPartitions(src, scan, cols)
	if err != nil {
		return nil, nil, err
	}
	scan.Needed = make([]bool, len(cols))
	return scan, cols, nil
}

func buildSelect(sel *sql.Select, s *ast.Select, c buildCtx) (*Plan, error) {
	scan, cols, err := source(sel, s, c)
	if err != nil {
		return nil, err
	}
	if sample := s.Sample; sample != nil {
		scan = sampled(scan, cols, sample)
	}
	return finishSelect(sel, s, scan, cols, c)
}

// finishSelect plans everything of a SELECT after its FROM clause, whose
// rows have the layout cols.
func finishSelect(sel *sql.Select, s *ast.Select, scan *Scan, cols []Column, c buildCtx) (*Plan, error) {
	var where ast.Expr
	if s.Where != nil {
		var err error
		if scan, cols, where, err = decorrelate(sel, s.Where.Expr, scan, cols, c); err != nil {
			return nil, err
		}
	}
	// Correlated scalar subqueries of the WHERE, and of the select list
	// where it is over the FROM's rows, become joins too.
	scalarIn := []ast.Expr{where}
	aggregates := len(s.GroupBy) > 0 || s.Having != nil || s.GroupingSets != nil
	for _, se := range s.SelectExprs {
		if ae, ok := se.(*ast.AliasedExpr); ok {
			aggregates = aggregates || hasAgg(ae.Expr)
		}
	}
	for _, se := range s.SelectExprs {
		if ae, ok := se.(*ast.AliasedExpr); ok {
			if aggregates {
				// Only aggregates' arguments are over the FROM's rows.
				scalarIn = append(scalarIn, aggregateArgs(ae.Expr)...)
			} else {
				scalarIn = append(scalarIn, ae.Expr)
			}
		}
	}
	if where == nil {
		scalarIn = scalarIn[1:]
	}
	// Correlated EXISTS, IN, ANY and ALL that no semi join took, where
	// they are over the FROM's rows, become mark joins.
	scan, cols, marks, markScalars, err := decorrelateMarks(sel, scalarIn, scan, cols, c)
	if err != nil {
		return nil, err
	}
	scan, cols, scalars, err := decorrelateScalars(sel, scalarIn, scan, cols, c)
	if err != nil {
		return nil, err
	}
	for k, v := range markScalars {
		if scalars == nil {
			scalars = map[*ast.Subquery]Expr{}
		}
		scalars[k] = v
	}
	p := &Plan{Scan: scan, Input: cols, Limit: -1}
	needed := make([]bool, len(cols))
	// A subquery expression left after decorrelate sees the query's views
	// and CTEs, not its columns.
	sub := func(st ast.SelectStatement) (*Plan, error) { return build(sel, st, c.enclosed(cols)) }
	subs := c.subqueries(sel, cols)
	in := &binder{cols: cols, needed: needed, sel: sel, plan: sub, scalars: scalars, marks: marks, enclosing: c.enclosing, scope: c.scope, subquery: subs}
	in.rowsMayBeNone = scan.Source != "(no source)"

	if where != nil {
		where = substituteAliases(where, in, explicitAliases(s))
		if hasAgg(where) {
			if f, ok := firstAggregate(where).(*ast.FuncExpr); ok && aggregateFuncs[f.Name.Lowered()].Name == "grouping" {
				return nil, binderError("GROUPING function is not supported here")
			}
			return nil, locate(binderError("WHERE clause cannot contain aggregates!"), sel, firstAggregate(where))
		}
		w, err := in.boolean(where)
		if err != nil {
			return nil, err
		}
		p.Where = w
	}

	// Expand the select list: * becomes every input column.
	type item struct {
		expr ast.Expr
		name string
	}
	var items []item
	for _, se := range s.SelectExprs {
		switch se := se.(type) {
		case *ast.StarExpr:
			exprs, names, err := starColumns(sel, se, cols)
			if err != nil {
				return nil, err
			}
			for i, e := range exprs {
				items = append(items, item{e, names[i]})
			}
		case *ast.AliasedExpr:
			if exprs, names, ok, err := expandColumns(sel, se.Expr, cols); ok {
				if err != nil {
					return nil, err
				}
				for i, e := range exprs {
					if _, bare := unparen(e).(*ast.ColName); !bare {
						names[i] = nameOf(sel, e)
					}
					items = append(items, item{e, names[i]})
				}
				continue
			}
			name := se.As.String()
			if name == "" {
				name = nameOf(sel, se.Expr)
				// A bare column is named as the column is, whatever the case
				// or qualifier it was written with.
				if c, ok := unparen(se.Expr).(*ast.ColName); ok {
					if i := in.lookup(c.Name.String()); i >= 0 {
						name = cols[i].Name
					} else if !c.Qualifier.IsEmpty() {
						name = c.Name.String() // s.f on a STRUCT is named f
					}
				}
			}
			items = append(items, item{se.Expr, name})
		default:
			return nil, fmt.Errorf("%w: select item %s", ErrNotImplemented, ast.String(se))
		}
	}
	aliasOf := func(name string) int {
		for i, it := range items {
			if strings.EqualFold(it.name, name) {
				return i
			}
		}
		return -1
	}

	if len(s.GroupBy) == 1 && isAll(s.GroupBy[0]) {
		var exprs []ast.Expr
		for _, it := range items {
			exprs = append(exprs, it.expr)
		}
		s.GroupBy = groupByAll(exprs)
	}
	if len(s.OrderBy) == 1 && isAll(s.OrderBy[0].Expr) {
		s.OrderBy = orderByAll(sel, s.OrderBy[0], len(items))
	}
	if s.Having != nil {
		s.Having.Expr = substituteAliases(s.Having.Expr, in, explicitAliases(s))
	}
	sets := s.GroupingSets
	aggregate := len(s.GroupBy) > 0 || s.Having != nil || sets != nil
	for _, it := range items {
		aggregate = aggregate || hasAgg(it.expr)
	}
	for _, o := range s.OrderBy {
		aggregate = aggregate || hasAgg(o.Expr)
	}
	post := in
	var st *aggState
	if aggregate {
		p.Aggregate = true
		st = &aggState{aggStr: map[string]int{}, inputer: in}
		var itemKeys []int // the key of each GROUP BY item (grouping sets)
		for _, g := range s.GroupBy {
			ge := g
			// GROUP BY 1 and GROUP BY alias name select items.
			if v, ok := g.(*ast.SQLVal); ok && v.Type == ast.IntVal {
				n, _ := strconv.Atoi(string(v.Val))
				if n < 1 || n > len(items) {
					return nil, binderError("GROUP BY term out of range - should be between 1 and %d", len(items))
				}
				ge = items[n-1].expr
			} else if c, ok := g.(*ast.ColName); ok && in.lookup(c.Name.String()) < 0 {
				if i := aliasOf(c.Name.String()); i >= 0 {
					ge = items[i].expr
					st.alias(c.Name.String(), ge)
				}
			}
			if hasAgg(ge) {
				return nil, locate(binderError("GROUP BY clause cannot contain aggregates!"), sel, firstAggregate(ge))
			}
			k, err := in.bind(ge)
			if err != nil {
				return nil, err
			}
			if sets != nil {
				// Grouping sets name a key by any of its spellings.
				if i := slices.Index(st.keyStr, k.String()); i >= 0 {
					itemKeys = append(itemKeys, i)
					continue
				}
				itemKeys = append(itemKeys, len(st.keys))
			}
			st.keys = append(st.keys, k)
			st.keyStr = append(st.keyStr, k.String())
		}
		st.sets = groupingKeys(itemKeys, sets, len(st.keys))
		post = &binder{agg: st, sel: sel, plan: sub, enclosing: c.enclosing, scope: c.scope, subquery: subs}
	}
	// Window functions may appear in the select list, QUALIFY and ORDER BY.
	ws := &windowState{}
	post.win = ws

	for _, it := range items {
		x, err := post.bind(it.expr)
		if err != nil {
			return nil, err
		}
		p.Project = append(p.Project, x)
		p.Columns = append(p.Columns, Column{Name: it.name, Type: x.Type()})
	}
	if s.Having != nil {
		post.win = nil
		h, err := post.boolean(s.Having.Expr)
		post.win = ws
		if err != nil {
			return nil, err
		}
		p.Having = h
	}
	itemOf := func(name string) ast.Expr {
		if i := aliasOf(name); i >= 0 {
			return items[i].expr
		}
		return nil
	}
	if err := ws.qualify(p, s.Qualify, post, in, itemOf); err != nil {
		return nil, err
	}
	p.Distinct = s.Distinct != ""

	for _, o := range s.OrderBy {
		k := SortKey{Desc: o.Direction == ast.DescScr}
		switch o.Nulls {
		case sql.NullsFirst:
			k.NullsFirst = true
		case sql.NullsLast:
		default:
			k.NullsFirst = false // DuckDB's default_null_order is NULLS LAST
		}
		k.Index = -1
		if v, ok := o.Expr.(*ast.SQLVal); ok && v.Type == ast.IntVal {
			n, _ := strconv.Atoi(string(v.Val))
			if n < 1 || n > len(items) {
				return nil, locate(binderError("ORDER term out of range - should be between 1 and %d", len(items)), sel, v)
			}
			k.Index = n - 1
		} else if c, ok := o.Expr.(*ast.ColName); ok {
			if i := aliasOf(c.Name.String()); i >= 0 {
				k.Index = i
			}
		}
		if k.Index < 0 {
			x, err := post.bind(o.Expr)
			if err != nil {
				return nil, err
			}
			for i, pe := range p.Project {
				if pe.String() == x.String() {
					k.Index = i
					break
				}
			}
			if k.Index < 0 {
				if p.Distinct {
					return nil, binderError("For SELECT DISTINCT, ORDER BY expressions must appear in select list")
				}
				p.Project = append(p.Project, x)
				k.Index = len(p.Project) - 1
			}
		}
		p.Order = append(p.Order, k)
	}

	if st != nil {
		p.GroupBy, p.Aggs, p.GroupingSets = st.keys, st.aggs, st.sets
	}
	if keys := s.DistinctOn; keys != nil {
		if err := ws.distinctOn(p, keys, post); err != nil {
			return nil, err
		}
	}
	if err := ws.attach(p); err != nil {
		return nil, err
	}

	if s.Limit != nil {
		var err error
		// LIMIT NULL (and LIMIT ALL, which package sql writes so) is no limit.
		if pct, ok, err := limitPercent(sel, s); ok {
			if err != nil {
				return nil, err
			}
			p.LimitPercent, p.HasPercent = pct, true
		} else if _, null := s.Limit.Rowcount.(*ast.NullVal); s.Limit.Rowcount != nil && !null {
			if p.Limit, err = constInt(s.Limit.Rowcount, "LIMIT"); err != nil {
				return nil, locate(err, sel, s.Limit.Rowcount)
			}
		}
		if s.Limit.Offset != nil {
			if p.Offset, err = constInt(s.Limit.Offset, "OFFSET"); err != nil {
				return nil, locate(err, sel, s.Limit.Offset)
			}
		}
	}

	if !p.Aggregate {
		for _, x := range p.Project {
			MarkColumns(x, needed)
		}
	}
	if scan.Subquery == nil && scan.SetOp == nil && scan.Function == nil {
		copy(scan.Needed, needed)
		scan.Parts = structParts(p.InputExprs(), scan.Fields)
		if p.Where != nil {
			if len(scan.Partitions) > 0 {
				prunePartitions(scan, p.Where, len(cols))
			}
			scan.Pushdown = scan.pushdownOf(p.Where)
		}
		scan.CountOnly = p.Aggregate && p.Where == nil && len(p.GroupBy) == 0 && p.GroupingSets == nil
		for _, a := range p.Aggs {
			scan.CountOnly = scan.CountOnly && a.Func == "count_star"
		}
		if scan.CountOnly {
			clear(scan.Needed)
		}
	}
	return p, nil
}

// fileFields are the fields pushdown may prune on: the file's, less those
// a hive partition replaces and those whose leaf paths repeat (nil).
func (s *Scan) fileFields() []*format.Field {
	fields := s.Fields
	copied := false
	drop := func(i int) {
		if !copied {
			fields, copied = append([]*format.Field(nil), s.Fields...), true
		}
		fields[i] = nil
	}
	for _, p := range s.Partitions {
		if p.Index < len(s.Fields) {
			drop(p.Index)
		}
	}
	for _, i := range sharedLeafPaths(s.Fields) {
		drop(i)
	}
	return fields
}

// PrepareScan sets what a files scan reads from the plan's expressions as
// they stand: the needed columns, the pruning predicate of the WHERE, the
// hive partitions it rules out and whether metadata alone counts the rows.
// The optimizer calls it after rewriting a plan; other scans are left as
// they are.
func (p *Plan) PrepareScan() {
	scan := p.Scan
	if scan == nil || scan.Subquery != nil || scan.SetOp != nil || scan.Function != nil || scan.Needed == nil {
		return
	}
	copy(scan.Needed, p.InputColumns(len(scan.Needed)))
	scan.Parts = structParts(p.InputExprs(), scan.Fields)
	scan.Pushdown = nil
	if p.Where != nil {
		if len(scan.Partitions) > 0 {
			prunePartitions(scan, p.Where, len(p.Input))
		}
		scan.Pushdown = scan.pushdownOf(p.Where)
	}
	scan.CountOnly = p.Aggregate && p.Where == nil && len(p.GroupBy) == 0
	for _, a := range p.Aggs {
		scan.CountOnly = scan.CountOnly && a.Func == "count_star"
	}
	if scan.CountOnly {
		clear(scan.Needed)
	}
}

// InputExprs returns the expressions of p over its input rows: the WHERE,
// the group keys and aggregate arguments, and for a plan without
// aggregates the projection (hidden sort keys included).
func (p *Plan) InputExprs() []Expr {
	var xs []Expr
	if p.Where != nil {
		xs = append(xs, p.Where)
	}
	xs = append(xs, p.GroupBy...)
	for _, a := range p.Aggs {
		if a.Arg != nil {
			xs = append(xs, a.Arg)
		}
	}
	if !p.Aggregate {
		xs = append(xs, p.Project...)
		for _, w := range p.Windows {
			xs = append(xs, w.Exprs()...)
		}
		if p.Qualify != nil {
			xs = append(xs, p.Qualify)
		}
	}
	return xs
}

// InputColumns is which of the n columns of p's input its expressions
// (InputExprs) read.
func (p *Plan) InputColumns(n int) []bool {
	needed := make([]bool, n)
	for _, x := range p.InputExprs() {
		MarkColumns(x, needed)
	}
	return needed
}

// MarkColumns marks the input columns x reads, of those needed has room
// for.
func MarkColumns(x Expr, needed []bool) {
	set := map[int]bool{}
	Columns(x, set)
	for i := range set {
		if i >= 0 && i < len(needed) {
			needed[i] = true
		}
	}
}

// constInt reads a LIMIT or OFFSET constant.
func constInt(e ast.Expr, what string) (int64, error) {
	v, ok := e.(*ast.SQLVal)
	if !ok || v.Type != ast.IntVal {
		return 0, fmt.Errorf("%w: %s must be an integer constant", ErrNotImplemented, what)
	}
	n, err := strconv.ParseInt(string(v.Val), 10, 64)
	if err == nil && n < 0 {
		return 0, binderError("LIMIT/OFFSET cannot be negative")
	}
	if err != nil {
		return 0, binderError("%s must be a non-negative integer, found %s", what, v.Val)
	}
	return n, nil
}

// Pushdown builds the pruning predicate of a WHERE bound to fields.
func Pushdown(where Expr, fields []*format.Field) pushdown.Expr {
	return pushExpr(where, fields, -1)
}

// residual is x as a condition pushdown does not judge; its columns are
// the leaves x reads (of a struct read through its fields, theirs alone).
func residual(x Expr, fields []*format.Field) pushdown.Expr {
	set := map[int]bool{}
	Columns(x, set)
	parts := structParts([]Expr{x}, fields)
	var paths []string
	for i := range fields {
		if !set[i] || fields[i] == nil {
			continue
		}
		if ps, ok := parts[i]; ok {
			paths = append(paths, leafPathsUnder(fields[i], ps)...)
			continue
		}
		for _, l := range fields[i].Leaves {
			paths = append(paths, l.Path)
		}
	}
	return &pushdown.Residual{Text: x.String(), Columns: paths}
}

// column returns the pushdown column x reads, when x is a scalar column or
// a scalar field of a struct column at any depth (possibly under a cast that
// keeps its values apart and in order).
func column(x Expr, fields []*format.Field) (pushdown.Column, bool) {
	if c, ok := x.(*Cast); ok {
		if !keepsOrder(c.X.Type(), c.T) {
			return pushdown.Column{}, false
		}
		x = c.X
	}
	f := fieldOf(x, fields)
	if f == nil || f.Kind != format.ScalarField || f.Leaf == nil {
		return pushdown.Column{}, false
	}
	return pushdown.Column{Path: f.Leaf.Path}, true
}

// fieldOf returns the field of the file x reads as it is: a column, or a
// struct's field reached by struct_extract from one (s.f, s['f'], s.f.g).
// Through a list or a map there is no such field: their elements are not
// rows. The field's leaf is NULL exactly when the struct or the field is,
// as struct_extract's value is.
func fieldOf(x Expr, fields []*format.Field) *format.Field {
	switch e := x.(type) {
	case *ColRef:
		if e.Index < 0 || e.Index >= len(fields) {
			return nil
		}
		return fields[e.Index]
	case *Call:
		if e.Name != "struct_extract" || len(e.Args) != 2 {
			return nil
		}
		k, ok := e.Args[1].(*Const)
		s := fieldOf(e.Args[0], fields)
		// Binding turned the key into the field's position.
		if !ok || !k.T.IsInteger() || k.Value.Null || s == nil || s.Kind != format.StructField ||
			k.Value.I < 0 || k.Value.I >= int64(len(s.Children)) {
			return nil
		}
		return s.Children[k.Value.I]
	}
	return nil
}

// keepsOrder reports whether a cast from ft to tt maps the values it
// converts to distinct values in the same order, so the column's own
// statistics judge a comparison of the cast value. A cast that rounds
// (DOUBLE or DECIMAL(9,2) to INTEGER: 99.99 becomes 100) does not: a row
// group whose max is 99.99 holds a value equal to 100 after the cast.
func keepsOrder(ft, tt Type) bool {
	switch {
	case ft.ID == TypeDate && isTimestamp(tt):
		return true
	case !ft.IsNumeric() || !tt.IsNumeric():
		return false
	case tt.ID == TypeDouble:
		return true
	case ft.ID == TypeFloat || ft.ID == TypeDouble:
		return false
	case ft.ID == TypeDecimal:
		return tt.ID == TypeDecimal && tt.Scale >= ft.Scale || tt.IsInteger() && ft.Scale == 0
	}
	return tt.ID == TypeDecimal || tt.IsInteger()
}

// LiteralOf converts a constant to a pushdown literal.
func LiteralOf(c *Const) (pushdown.Literal, bool) {
	d, t := c.Value, c.T
	if d.Null {
		return pushdown.NullLiteral(), true
	}
	switch {
	case t.ID == TypeBoolean:
		return pushdown.BoolLiteral(d.B), true
	case t.IsInteger():
		return pushdown.BigIntLiteral(bigOf(d, t)), true
	case t.ID == TypeDecimal:
		return pushdown.DecimalLiteral(bigOf(d, t), int32(t.Scale)), true
	case t.ID == TypeFloat || t.ID == TypeDouble:
		return pushdown.FloatLiteral(d.F), true
	case t.ID == TypeVarchar:
		return pushdown.StringLiteral(d.S), true
	case t.ID == TypeBlob:
		return pushdown.BytesLiteral(d.Bytes), true
	case t.ID == TypeDate:
		return pushdown.DateLiteral(d.I), true
	case t.ID == TypeTimestamp || t.ID == TypeTimestampTZ:
		return pushdown.TimestampLiteral(d.I, metaMicros), true
	case t.ID == TypeTimestampNS:
		return pushdown.TimestampLiteral(d.I, metaNanos), true
	}
	return pushdown.Literal{}, false
}

var pushOps = map[string]pushdown.Op{"=": pushdown.Eq, "!=": pushdown.Ne, "<": pushdown.Lt, "<=": pushdown.Le, ">": pushdown.Gt, ">=": pushdown.Ge}

// maxPushList is the longest IN list pushdown judges value by value (an IN
// (subquery) can bring millions); a longer one is judged by its range.
const maxPushList = 1024

// pushRange is what pushdown judges of a long x [NOT] IN (list): the
// list itself as a residual (it never prunes, and it keeps a metadata
// answer from counting a row group as matching), and for IN also its
// range, x BETWEEN least AND greatest, which x IN (list) implies. The AND
// of the two is exactly the IN.
func pushRange(e *InList, col pushdown.Column, fields []*format.Field) pushdown.Expr {
	op := "IN"
	if e.Not {
		op = "NOT IN"
	}
	res := residual(e.X, fields).(*pushdown.Residual)
	res.Text = fmt.Sprintf("(%s %s (%d values))", e.X, op, len(e.List))
	var lo, hi *Const
	for _, y := range e.List {
		c, ok := y.(*Const)
		if !ok {
			return res
		}
		if c.Value.Null {
			continue
		}
		if lo == nil || Compare(c.Value, lo.Value, c.T) < 0 {
			lo = c
		}
		if hi == nil || Compare(c.Value, hi.Value, c.T) > 0 {
			hi = c
		}
	}
	if e.Not || lo == nil {
		return res
	}
	l1, ok1 := LiteralOf(lo)
	l2, ok2 := LiteralOf(hi)
	if !ok1 || !ok2 {
		return res
	}
	return &pushdown.And{Xs: []pushdown.Expr{&pushdown.Between{Col: col, Low: l1, High: l2}, res}}
}

// pushExpr converts one bound predicate to a pushdown tree; what it cannot
// express becomes a Residual.
func pushExpr(x Expr, fields []*format.Field, rowNumber int) pushdown.Expr {
	if r := rowNumberPush(x, rowNumber); r != nil {
		return r
	}
	switch e := x.(type) {
	case *Const:
		if e.T.ID == TypeBoolean || e.T.ID == TypeNull {
			switch {
			case e.Value.Null:
				return &pushdown.Const{Value: pushdown.Unknown}
			case e.Value.B:
				return &pushdown.Const{Value: pushdown.True}
			}
			return &pushdown.Const{Value: pushdown.False}
		}
	case *Logic:
		xs := make([]pushdown.Expr, len(e.Xs))
		for i, y := range e.Xs {
			xs[i] = pushExpr(y, fields, rowNumber)
		}
		if e.And {
			return &pushdown.And{Xs: xs}
		}
		return &pushdown.Or{Xs: xs}
	case *Not:
		return &pushdown.Not{X: pushExpr(e.X, fields, rowNumber)}
	case *Binary:
		op, ok := pushOps[e.Op]
		if !ok {
			break
		}
		if v := variantPush(e, fields); v != nil {
			return v
		}
		if col, ok := column(e.L, fields); ok {
			if c, ok := e.R.(*Const); ok {
				if lit, ok := LiteralOf(c); ok {
					return &pushdown.Compare{Col: col, Op: op, Lit: lit}
				}
			}
		}
		if col, ok := column(e.R, fields); ok {
			if c, ok := e.L.(*Const); ok {
				if lit, ok := LiteralOf(c); ok {
					return &pushdown.Compare{Col: col, Op: op, Lit: lit, LiteralFirst: true}
				}
			}
		}
	case *IsNull:
		if col, ok := column(e.X, fields); ok {
			return &pushdown.IsNull{Col: col, Not: e.Not}
		}
		if path, ok := structPath(e.X, fields); ok {
			return &pushdown.StructIsNull{Path: path, Not: e.Not, Text: x.String()}
		}
		if f := fieldOf(e.X, fields); f != nil && f.IsNested() {
			r := residual(x, fields).(*pushdown.Residual)
			r.Why = "the NULL of a struct, list or map itself is in no statistics: its leaves' null counts also count NULL fields and elements"
			return r
		}
	case *InList:
		col, ok := column(e.X, fields)
		if !ok {
			break
		}
		if len(e.List) > maxPushList || e.JoinKeys {
			return pushRange(e, col, fields)
		}
		var lits []pushdown.Literal
		for _, y := range e.List {
			c, ok := y.(*Const)
			if !ok {
				return residual(x, fields)
			}
			lit, ok := LiteralOf(c)
			if !ok {
				return residual(x, fields)
			}
			lits = append(lits, lit)
		}
		return &pushdown.InList{Col: col, List: lits, Not: e.Not}
	case *Between:
		col, ok := column(e.X, fields)
		lo, ok1 := e.Lo.(*Const)
		hi, ok2 := e.Hi.(*Const)
		if !ok || !ok1 || !ok2 {
			break
		}
		l1, ok1 := LiteralOf(lo)
		l2, ok2 := LiteralOf(hi)
		if ok1 && ok2 {
			return &pushdown.Between{Col: col, Low: l1, High: l2, Not: e.Not}
		}
	case *Like:
		col, ok := column(e.X, fields)
		p, ok1 := e.Pattern.(*Const)
		esc, ok2 := LikeEscape(e)
		if ok && ok1 && ok2 && !e.Fold && !p.Value.Null && e.X.Type().ID == TypeVarchar {
			return &pushdown.Like{Col: col, Pattern: p.Value.S, Escape: esc, Not: e.Not}
		}
	case *Call:
		if sp := spatialPush(e, fields); sp != nil {
			return sp
		}
		if e.Name == "starts_with" {
			col, ok := column(e.Args[0], fields)
			p, ok1 := e.Args[1].(*Const)
			if ok && ok1 && !p.Value.Null && e.Args[0].Type().ID == TypeVarchar {
				return &pushdown.StartsWith{Col: col, Prefix: p.Value.S}
			}
		}
	}
	return residual(x, fields)
}
