package sql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/sql/ast"
)

// findNode returns the first node of root, in the order written, whose type
// is kind (as %T prints it, without "*ast.") and that prints as text.
func findNode(root ast.Node, kind, text string) ast.Node {
	var found ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		k := strings.TrimPrefix(strings.TrimPrefix(fmt.Sprintf("%T", n), "*"), "ast.")
		if found == nil && k == kind && ast.String(n) == text {
			found = n
		}
		return found == nil
	})
	return found
}

// TestASTNodes parses a query for each construct of doc.go and checks the
// kind, the text and the position of some of its nodes, and the clauses
// the conversion moved into fields.
func TestASTNodes(t *testing.T) {
	type node struct{ kind, text, pos string }
	tests := []struct {
		sql   string
		nodes []node
		check func(s *ast.Select) string
	}{
		{sql: "SELECT a, \"My Col\" FROM 'f.parquet' WHERE x = 'it''s'",
			nodes: []node{{"ColName", "a", "1:8"}, {"ColName", "`My Col`", "1:11"},
				{"ComparisonExpr", "x = 'it\\'s'", "1:45"}, {"SQLVal", "'it\\'s'", "1:47"}},
			check: func(s *ast.Select) string {
				te := s.From[0].(*ast.AliasedTableExpr).Expr.(ast.TableName)
				if te.Source == nil || te.Source.Paths[0] != "f.parquet" || te.Source.Kind != SourceFiles {
					return "the FROM name does not carry its source"
				}
				return ""
			}},
		{sql: "SELECT x::INT, CAST(y AS DECIMAL(10, 2)), DATE '2020-01-01', TRY_CAST(z AS DOUBLE), z::char\nFROM t",
			nodes: []node{{"ConvertExpr", "convert(x, INTEGER)", "1:9"}, {"ConvertExpr", "convert(y, DECIMAL(10, 2))", "1:16"}},
			check: func(s *ast.Select) string {
				var texts []string
				var try []bool
				ast.Inspect(s, func(n ast.Node) bool {
					if c, ok := n.(*ast.ConvertExpr); ok {
						texts, try = append(texts, c.WrittenType()), append(try, c.Try)
					}
					return true
				})
				if got := fmt.Sprint(texts, try); got != `[INTEGER DECIMAL(10, 2) "DATE" "DOUBLE" VARCHAR(1)] [false false false true false]` {
					return "casts: " + got
				}
				return ""
			}},
		{sql: "SELECT a || b, a ^ 2, a // 2, a ILIKE 'x%', INTERVAL 1 DAY, EXTRACT(year FROM d), substring(s FROM 2 FOR 3) FROM t",
			nodes: []node{{"BinaryExpr", "a || b", "1:10"}, {"BinaryExpr", "a ^ 2", "1:18"}, {"BinaryExpr", "a div 2", "1:25"},
				{"ComparisonExpr", "a ilike 'x%'", "1:33"}, {"IntervalExpr", "interval 1 DAY", ""},
				{"FuncExpr", "main.date_part('year', d)", "1:61"}, {"FuncExpr", "substring(s, 2, 3)", "1:83"}}},
		{sql: "SELECT count(*) FILTER (WHERE y > 1), string_agg(s, ',' ORDER BY k DESC NULLS FIRST)\nFROM t ORDER BY 1 NULLS LAST",
			nodes: []node{{"FuncExpr", "count(*)", "1:8"}, {"ColName", "y", "1:31"}, {"ColName", "k", "1:66"}},
			check: func(s *ast.Select) string {
				c := findNode(s, "FuncExpr", "count(*)").(*ast.FuncExpr)
				agg := findNode(s, "FuncExpr", "string_agg(s, ',')").(*ast.FuncExpr)
				switch {
				case c.Filter == nil || ast.String(c.Filter) != "y > 1":
					return "FILTER not on the call"
				case len(agg.OrderBy) != 1 || !agg.OrderBy[0].Desc || agg.OrderBy[0].Nulls != NullsFirst:
					return "argument ORDER BY not on the call"
				case s.OrderBy[0].Nulls != NullsLast:
					return "NULLS LAST not on the ORDER BY item"
				}
				return ""
			}},
		{sql: "SELECT a,\n  row_number() OVER w AS rn\nFROM t\nWINDOW w AS (PARTITION BY a ORDER BY b ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)\nQUALIFY rn = 1",
			nodes: []node{{"FuncExpr", "row_number() OVER w", "2:3"}, {"ColName", "rn", "5:9"}},
			check: func(s *ast.Select) string {
				f := findNode(s, "FuncExpr", "row_number() OVER w").(*ast.FuncExpr)
				switch {
				case f.Over == nil || len(f.Over.PartitionBy) != 1 || f.Over.Frame == nil || !f.Over.Frame.Rows:
					return "OVER not on the call"
				case !f.Qualifier.IsEmpty():
					return "a window call keeps a qualifier"
				case s.Qualify == nil || ast.String(s.Qualify) != "rn = 1":
					return "QUALIFY not on the SELECT"
				}
				if p, _ := ast.PosOf(f.Over.PartitionBy[0]); p.Line != 4 || p.Column != 27 {
					return "PARTITION BY key at " + p.String()
				}
				return ""
			}},
		{sql: "SELECT DISTINCT ON (a) * EXCLUDE (b) FROM t USING SAMPLE 10% LIMIT 5%",
			nodes: []node{{"StarExpr", "*", "1:24"}},
			check: func(s *ast.Select) string {
				st := s.SelectExprs[0].(*ast.StarExpr)
				switch {
				case len(s.DistinctOn) != 1 || s.Distinct != "":
					return "DISTINCT ON not on the SELECT"
				case fmt.Sprint(st.Exclude) != "[b]":
					return "EXCLUDE not on the star"
				case s.Sample == nil || !s.Sample.Percent || s.Sample.Size != 10:
					return "USING SAMPLE not on the SELECT"
				case !s.LimitPercent:
					return "LIMIT % not on the SELECT"
				}
				return ""
			}},
		{sql: "SELECT * REPLACE (a + 1 AS a) FROM t GROUP BY GROUPING SETS ((a), ())",
			check: func(s *ast.Select) string {
				st := s.SelectExprs[0].(*ast.StarExpr)
				if len(st.Replace) != 1 || ast.String(st.Replace[0]) != "a + 1 as a" {
					return "REPLACE not on the star"
				}
				if fmt.Sprint(s.GroupingSets) != "[[0] []]" {
					return fmt.Sprint("grouping sets ", s.GroupingSets)
				}
				return ""
			}},
		{sql: "SELECT l[1], l[2:], l[1:3:2], (s).f, [1, 2], ARRAY[3], list_value(4)\nFROM t",
			nodes: []node{{"Subscript", "l[1]", "1:9"}, {"Slice", "l[2:]", "1:15"}, {"Slice", "l[1:3:2]", "1:22"},
				{"FieldAccess", "(s).f", "1:34"}, {"ListLiteral", "[1, 2]", "1:38"}, {"ListLiteral", "[3]", "1:51"},
				{"FuncExpr", "list_value(4)", "1:56"}},
			check: func(s *ast.Select) string {
				sl := findNode(s, "Slice", "l[2:]").(*ast.Slice)
				if sl.Hi != nil || sl.Stepped {
					return "open slice bound not nil"
				}
				return ""
			}},
		{sql: "SELECT {'k': 1, j: 2}, MAP {1: 'a'}, struct_pack(q := 1),\n  list_transform(l, x -> x + 1), list_reduce(l, (a, b) -> a + b), list_filter(l, lambda y: y > 0)\nFROM t",
			nodes: []node{{"StructLiteral", "{'k': 1, 'j': 2}", "1:8"}, {"MapLiteral", "map {1: 'a'}", "1:28"},
				{"StructLiteral", "{'q': 1}", "1:49"}, {"Lambda", "x -> x + 1", "2:23"}, {"Lambda", "(a, b) -> a + b", "2:56"},
				{"Lambda", "y -> y > 0", "2:82"}}},
		{sql: "SELECT a IS DISTINCT FROM b, a > ALL (SELECT 1), a && b FROM t WHERE EXISTS (SELECT 1) AND a IN (1, 2)",
			nodes: []node{{"ComparisonExpr", "a is distinct from b", "1:10"}, {"ExistsExpr", "exists (select 1 from dual)", "1:70"}}},
		{sql: "FROM t SELECT a ORDER BY ALL",
			nodes: []node{{"ColName", "a", "1:15"}}},
		{sql: "SELECT a FROM (SELECT 1 AS a) JOIN u USING (a) LIMIT ALL OFFSET 2",
			check: func(s *ast.Select) string {
				j, ok := s.From[0].(*ast.JoinTableExpr)
				if !ok || len(j.Condition.Using) != 1 || j.LeftExpr.(*ast.AliasedTableExpr).As.String() != "" {
					return "join: " + ast.String(s.From)
				}
				if _, ok := s.Limit.Rowcount.(*ast.NullVal); !ok || ast.String(s.Limit.Offset) != "2" {
					return "limit: " + ast.String(s.Limit)
				}
				return ""
			}},
	}
	for _, tt := range tests {
		st, err := Parse(tt.sql)
		if err != nil {
			t.Errorf("%s: %v", tt.sql, err)
			continue
		}
		sel, ok := st.(*Select).AST.(*ast.Select)
		if !ok {
			t.Errorf("%s: AST is %T", tt.sql, st.(*Select).AST)
			continue
		}
		for _, want := range tt.nodes {
			n := findNode(sel, want.kind, want.text)
			if n == nil {
				t.Errorf("%s: no %s %q in %s", tt.sql, want.kind, want.text, ast.String(sel))
				continue
			}
			got := ""
			if p, ok := ast.PosOf(n); ok {
				got = fmt.Sprintf("%d:%d", p.Line, p.Column)
			}
			if got != want.pos {
				t.Errorf("%s: %s %q at %q, want %q", tt.sql, want.kind, want.text, got, want.pos)
			}
		}
		if tt.check != nil {
			if msg := tt.check(sel); msg != "" {
				t.Errorf("%s: %s", tt.sql, msg)
			}
		}
	}
}

// TestASTSetOps checks the set operations and the CTEs, whose queries are
// converted on their own.
func TestASTSetOps(t *testing.T) {
	st, err := Parse("WITH c AS (\n  SELECT q FROM t)\nSELECT 1 UNION ALL BY NAME (SELECT 2 INTERSECT SELECT 3) ORDER BY 1 NULLS FIRST")
	if err != nil {
		t.Fatal(err)
	}
	sel := st.(*Select)
	u, ok := sel.AST.(*ast.Union)
	if !ok || len(u.OrderBy) != 1 || u.OrderBy[0].Nulls != NullsFirst || u.Type != UnionAllByNameStr {
		t.Fatalf("AST is %s", ast.String(sel.AST))
	}
	if in, ok := u.Right.(*ast.ParenSelect); !ok || in.Select.(*ast.Union).Type != IntersectStr {
		t.Errorf("right operand: %s", ast.String(u.Right))
	}
	q := findNode(sel.With[0].Query.AST, "ColName", "q")
	if p, ok := ast.PosOf(q); !ok || p.Line != 2 || p.Column != 10 {
		t.Errorf("CTE column at %v", p)
	}
}
