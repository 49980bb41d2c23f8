package planner

import (
	"regexp"
	"strings"

	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// subquery prints a subquery as DuckDB names it: its SELECT re-printed
// (keywords upper case, a file source as a quoted name, conditions
// parenthesized) in parentheses. Shapes this printer does not know (joins,
// set operations) keep the tree's text (ast.String) with the sources as
// written.
func (n namer) subquery(s *ast.Subquery) string {
	return "(" + n.selectText(s.Select) + ")"
}

func (n namer) selectText(st ast.SelectStatement) string {
	s, ok := st.(*ast.Select)
	if !ok {
		return n.withSources(ast.String(st))
	}
	var b strings.Builder
	b.WriteString("SELECT ")
	if s.Distinct != "" {
		b.WriteString("DISTINCT ")
	}
	for i, item := range s.SelectExprs {
		if i > 0 {
			b.WriteString(", ")
		}
		switch it := item.(type) {
		case *ast.AliasedExpr:
			b.WriteString(n.expr(it.Expr))
			if !it.As.IsEmpty() {
				b.WriteString(" AS " + ident(it.As.String()))
			}
		case *ast.StarExpr:
			b.WriteString("*")
		default:
			return n.withSources(ast.String(s))
		}
	}
	if from, ok := n.fromText(s.From); ok {
		b.WriteString(from)
	} else {
		return n.withSources(ast.String(s))
	}
	if s.Where != nil {
		b.WriteString(" WHERE " + n.expr(s.Where.Expr))
	}
	if len(s.GroupBy) > 0 {
		parts := make([]string, len(s.GroupBy))
		for i, g := range s.GroupBy {
			parts[i] = n.expr(g)
		}
		b.WriteString(" GROUP BY " + strings.Join(parts, ", "))
	}
	if s.Having != nil {
		b.WriteString(" HAVING " + n.expr(s.Having.Expr))
	}
	if len(s.OrderBy) > 0 {
		parts := make([]string, len(s.OrderBy))
		for i, o := range s.OrderBy {
			parts[i] = n.expr(o.Expr)
			if o.Direction == ast.DescScr {
				parts[i] += " DESC"
			}
			if o.Nulls != sql.NullsDefault {
				return n.withSources(ast.String(s))
			}
		}
		b.WriteString(" ORDER BY " + strings.Join(parts, ", "))
	}
	if l := s.Limit; l != nil {
		if _, all := l.Rowcount.(*ast.NullVal); l.Rowcount != nil && !all {
			b.WriteString(" LIMIT " + n.expr(l.Rowcount))
		}
		if l.Offset != nil {
			b.WriteString(" OFFSET " + n.expr(l.Offset))
		}
	}
	return b.String()
}

// fromText prints a FROM clause of one source: a file as its quoted path,
// a function or view as written, a subquery re-printed; with its alias.
func (n namer) fromText(from ast.TableExprs) (string, bool) {
	if len(from) != 1 {
		return "", false
	}
	at, ok := from[0].(*ast.AliasedTableExpr)
	if !ok {
		return "", false
	}
	var src string
	switch t := at.Expr.(type) {
	case ast.TableName:
		if t.Name.String() == "dual" {
			return "", true // no FROM
		}
		s := t.Source
		switch {
		case s == nil:
			return "", false
		case s.Kind == sql.SourceFiles && len(s.Paths) == 1 && strings.HasPrefix(s.Text, "'"):
			src = `"` + strings.ReplaceAll(s.Paths[0], `"`, `""`) + `"`
		default:
			src = s.Text
		}
	case *ast.Subquery:
		src = "(" + n.selectText(t.Select) + ")"
	default:
		return "", false
	}
	if !at.As.IsEmpty() {
		src += " AS " + ident(at.As.String())
	}
	return " FROM " + src, true
}

var placeholder = regexp.MustCompile(regexp.QuoteMeta(sql.SourcePrefix) + `[0-9]+`)

// withSources puts each source placeholder of the tree's text back as the
// source was written.
func (n namer) withSources(text string) string {
	return placeholder.ReplaceAllStringFunc(text, func(p string) string {
		if s := n.sel.Sources[p]; s != nil {
			return s.Text
		}
		return p
	})
}
