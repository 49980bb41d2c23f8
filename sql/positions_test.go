package sql

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/xwb1989/sqlparser"
)

// dumpPositions lists the located nodes of a query as "L:C node", in text
// order, each node as sqlparser prints it after fixAST.
func dumpPositions(s *Select) string {
	type entry struct {
		pos  Position
		text string
	}
	var es []entry
	for n := range s.raw.pos {
		p, _ := s.raw.PosOf(n)
		es = append(es, entry{p, fmt.Sprintf("%d:%d %s", p.Line, p.Column, sqlparser.String(n))})
	}
	sort.Slice(es, func(i, j int) bool {
		if es[i].pos.Offset != es[j].pos.Offset {
			return es[i].pos.Offset < es[j].pos.Offset
		}
		return es[i].text < es[j].text
	})
	var b []string
	for _, e := range es {
		b = append(b, e.text)
	}
	return strings.Join(b, "; ")
}

func TestPositions(t *testing.T) {
	for _, tc := range []struct{ q, want string }{
		{"SELECT foo FROM 'x.parquet'", "1:8 foo"},
		{"SELECT o.foo, bar AS foo, foo FROM 'x.parquet' o",
			"1:8 o.foo; 1:15 bar; 1:27 foo"},
		{"SELECT lower(note) || 'x' FROM t WHERE a + 1 > -2 AND NOT b",
			"1:8 lower(note); 1:14 note; 1:20 lower(note) || 'x'; 1:23 'x'; 1:40 a; 1:42 a + 1; 1:44 1; 1:46 a + 1 > -2; 1:48 -2; 1:51 a + 1 > -2 and not b; 1:55 not b; 1:59 b"},
		{"SELECT CAST('x' AS INTEGER), 'y'::INTEGER, DATE '2024-01-01' FROM t",
			"1:8 convert('x', INTEGER); 1:13 'x'; 1:30 'y'; 1:33 convert('y', INTEGER); 1:49 '2024-01-01'"},
		{"SELECT *, t.* FROM t",
			"1:8 *; 1:11 t.*"},
		{"SELECT count(*) FILTER (WHERE x > 1) FROM t ORDER BY y NULLS FIRST LIMIT 3 OFFSET 4",
			"1:8 count(*); 1:14 *; 1:31 x; 1:33 x > 1; 1:35 1; 1:54 y; 1:74 3; 1:83 4"},
		{"FROM t SELECT zz",
			"1:15 zz"},
		{"SELECT\n  a,\n  nosuch(b)\nFROM t",
			"2:3 a; 3:3 nosuch(b); 3:10 b"},
		{"SELECT (SELECT max(x) FROM u) FROM t WHERE EXISTS (SELECT 1) AND y IS NULL",
			"1:8 (select max(x) from __pqsql_src_0); 1:16 max(x); 1:20 x; 1:44 exists (select 1 from dual); 1:59 1; 1:62 exists (select 1 from dual) and y is null; 1:66 y; 1:68 y is null"},
		{"SELECT CASE WHEN a BETWEEN 1 AND 2 THEN 'x' END FROM t",
			"1:8 case when a between 1 and 2 then 'x' end; 1:18 a; 1:20 a between 1 and 2; 1:28 1; 1:34 2; 1:41 'x'"},
		{"SELECT row_number() OVER (PARTITION BY p ORDER BY q) FROM t QUALIFY r > 1",
			"1:8 " + windowQualifier + ".row_number(); 1:40 p; 1:51 q; 1:69 r; 1:71 r > 1; 1:73 1"},
	} {
		st, err := Parse(tc.q)
		if err != nil {
			t.Errorf("%s: %v", tc.q, err)
			continue
		}
		if got := dumpPositions(st.(*Select)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.q, got, tc.want)
		}
	}
}

// TestPositionsInScript checks that a statement parsed from a script is
// located in the script's coordinates, and an EXPLAIN's query and a CTE's
// body in the whole statement's.
func TestPositionsInScript(t *testing.T) {
	pieces, err := SplitScript("SELECT 1;\n  -- note\n  SELECT\n\tfoo FROM t;\nEXPLAIN WITH c AS (SELECT bar FROM u) SELECT * FROM c")
	if err != nil {
		t.Fatal(err)
	}
	if len(pieces) != 3 {
		t.Fatalf("%d pieces, want 3", len(pieces))
	}
	st, err := pieces[1].Parse()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dumpPositions(st.(*Select)), "4:2 foo"; got != want {
		t.Errorf("script positions %s, want %s", got, want)
	}
	st, err = pieces[2].Parse()
	if err != nil {
		t.Fatal(err)
	}
	sel := st.(*Explain).Query
	bar := sel.With[0].Query.raw.AST.(*sqlparser.Select).SelectExprs[0].(*sqlparser.AliasedExpr).Expr
	if p, ok := sel.With[0].Query.raw.PosOf(bar); !ok || p.Line != 5 || p.Column != 27 {
		t.Errorf("CTE column at %v (%v), want line 5, column 27", p, ok)
	}
	if _, ok := sel.raw.PosOf(&sqlparser.ColName{}); ok {
		t.Error("a node of no statement has a position")
	}
}
