package pushdown

import (
	"errors"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/format/stats"
)

func eq(path string, l Literal) Expr { return cmpx(path, Eq, l) }

func allLeaves(f *format.File) []int {
	out := make([]int, len(f.Schema.Leaves))
	for i := range out {
		out[i] = i
	}
	return out
}

func only(m Mechanism) Options {
	return Options{Statistics: m == Statistics, PageIndex: m == PageIndex, Bloom: m == BloomFilter, Dictionary: m == Dictionary}
}

// rgWant is one row group's expected decision; rows is checked when set.
type rgWant struct {
	verdict Verdict
	mech    Mechanism
	rows    RowRanges
	reason  string // a substring of the reason, when set
}

func skipBy(m Mechanism, reason string) rgWant { return rgWant{verdict: Skip, mech: m, reason: reason} }

var scan = rgWant{verdict: Scan}

func sel(rows RowRanges) rgWant { return rgWant{verdict: Select, mech: PageIndex, rows: rows} }

func repeat(w rgWant, n int) []rgWant {
	out := make([]rgWant, n)
	for i := range out {
		out[i] = w
	}
	return out
}

// TestMechanisms checks each mechanism alone, and all together, against the
// fixtures' documented facts.
func TestMechanisms(t *testing.T) {
	absent := IntLiteral(424242)
	tests := []struct {
		name string
		file string
		pred Expr
		opt  Options
		want []rgWant
	}{
		{"statistics: order_id = 431", "orders_sorted.parquet", eq("order_id", IntLiteral(431)), only(Statistics),
			[]rgWant{scan, skipBy(Statistics, "statistics: order_id min 4001 > 431"), skipBy(Statistics, "min 8001 > 431"),
				skipBy(Statistics, ""), skipBy(Statistics, "min 16001 > 431")}},
		{"statistics: order_id > 19999", "orders_sorted.parquet", cmpx("order_id", Gt, IntLiteral(19999)), only(Statistics),
			append(repeat(skipBy(Statistics, "order_id max"), 4), scan)},
		{"statistics: BETWEEN across a boundary", "orders_sorted.parquet",
			&Between{Col: Column{Path: "order_id"}, Low: IntLiteral(3990), High: IntLiteral(4010)}, only(Statistics),
			[]rgWant{scan, scan, skipBy(Statistics, ""), skipBy(Statistics, ""), skipBy(Statistics, "")}},
		{"statistics: quantity above its maximum", "orders_sorted.parquet", cmpx("quantity", Gt, IntLiteral(32767)), only(Statistics),
			repeat(skipBy(Statistics, "quantity max"), 5)},
		{"statistics: NaN may lie beyond max 0.25", "orders_sorted.parquet", cmpx("discount", Gt, IntLiteral(1000)), AllMechanisms(),
			repeat(scan, 5)},
		{"statistics: != is never true when min = max", "statistics.parquet", cmpx("coupon", Ne, StringLiteral("x")), only(Statistics),
			[]rgWant{scan, skipBy(Statistics, "coupon holds only nulls"), scan}},
		{"statistics: a chunk without bounds or nan_count proves nothing", "statistics.parquet", cmpx("ratio", Lt, IntLiteral(0)), only(Statistics),
			[]rgWant{skipBy(Statistics, "ratio min 0.5 >= 0"), scan, skipBy(Statistics, "ratio min -0 >= 0")}},
		{"statistics: all-NaN chunk does hold NaN", "statistics.parquet", cmpx("ratio", Eq, FloatLiteral(nan())), only(Statistics),
			[]rgWant{scan, scan, scan}},
		{"statistics: unsigned bounds", "statistics.parquet", cmpx("customer_id", Gt, IntLiteral(3_999_999_999)), only(Statistics),
			[]rgWant{skipBy(Statistics, "customer_id max 3000000000 <= 3999999999"), scan, skipBy(Statistics, "")}},
		{"statistics: FLBA decimal", "statistics.parquet", cmpx("amount", Lt, dec(t, "-7.25")), only(Statistics),
			[]rgWant{skipBy(Statistics, "amount min -3.99 >= -7.25"), scan, skipBy(Statistics, "")}},
		{"statistics: minimal-length byte-array decimal", "statistics.parquet", cmpx("amount_ba", Gt, dec(t, "327.68")), only(Statistics),
			[]rgWant{scan, skipBy(Statistics, ""), skipBy(Statistics, "amount_ba max 327.68 <= 327.68")}},
		{"statistics: byte order of UTF-8", "statistics.parquet", cmpx("city", Lt, StringLiteral("Reykjavík")), only(Statistics),
			[]rgWant{scan, skipBy(Statistics, "city min 'Reykjavík' >= 'Reykjavík'"), scan}},
		{"predicate: FALSE by types", "orders_sorted.parquet", eq("order_id", dec(t, "1.5")), AllMechanisms(),
			repeat(skipBy(Constant, "FALSE"), 5)},
		{"predicate: required column IS NULL", "orders_sorted.parquet", &IsNull{Col: Column{Path: "order_id"}}, only(Statistics),
			repeat(skipBy(Constant, ""), 5)},
		{"page index: order_id = 431", "orders_sorted.parquet", eq("order_id", IntLiteral(431)), only(PageIndex),
			append([]rgWant{sel(rr(250, 500))}, repeat(skipBy(PageIndex, "page index: none of the 16 pages of order_id"), 4)...)},
		{"page index: IN across row groups", "orders_sorted.parquet",
			&InList{Col: Column{Path: "order_id"}, List: []Literal{IntLiteral(1), IntLiteral(4000), IntLiteral(4001)}}, AllMechanisms(),
			[]rgWant{sel(rr(0, 250, 3750, 4000)), sel(rr(0, 250)), skipBy(Statistics, ""), skipBy(Statistics, ""), skipBy(Statistics, "")}},
		{"page index: null pages", "orders_sorted.parquet", &IsNull{Col: Column{Path: "note"}, Not: true}, AllMechanisms(),
			repeat(sel(rr(0, 2000)), 5)},
		{"page index: AND of two columns", "orders_sorted.parquet",
			&And{Xs: []Expr{cmpx("order_id", Le, IntLiteral(600)), &IsNull{Col: Column{Path: "note"}, Not: true}}}, only(PageIndex),
			append([]rgWant{sel(rr(0, 750))}, repeat(skipBy(PageIndex, ""), 4)...)},
		{"page index: OR of two columns", "orders_sorted.parquet",
			&Or{Xs: []Expr{eq("order_id", IntLiteral(431)), cmpx("order_id", Gt, IntLiteral(19750))}}, AllMechanisms(),
			[]rgWant{sel(rr(250, 500)), skipBy(Statistics, ""), skipBy(Statistics, ""), skipBy(Statistics, ""), sel(rr(3750, 4000))}},
		{"page index: dates ascending", "orders_sorted.parquet", cmpx("order_date", Lt, DateLiteral(19724)), AllMechanisms(),
			append([]rgWant{sel(rr(0, 250))}, repeat(skipBy(Statistics, ""), 4)...)},
		{"bloom: absent customer", "orders_shuffled.parquet", eq("customer_id", absent), only(BloomFilter),
			repeat(skipBy(BloomFilter, "bloom: customer_id 424242 absent"), 5)},
		{"bloom: IN of absent customers", "orders_shuffled.parquet",
			&InList{Col: Column{Path: "customer_id"}, List: []Literal{IntLiteral(222222), IntLiteral(888888)}}, only(BloomFilter),
			repeat(skipBy(BloomFilter, "bloom: customer_id 222222, 888888 absent"), 5)},
		{"bloom: a present customer", "orders_shuffled.parquet", eq("customer_id", IntLiteral(314159)), AllMechanisms(),
			repeat(scan, 5)},
		{"bloom: false positive in row group 1", "orders_sorted.parquet", eq("customer_id", IntLiteral(403180)), only(BloomFilter),
			[]rgWant{skipBy(BloomFilter, ""), scan, skipBy(BloomFilter, ""), skipBy(BloomFilter, ""), skipBy(BloomFilter, "")}},
		{"dictionary resolves the false positive", "orders_sorted.parquet", eq("customer_id", IntLiteral(403180)), AllMechanisms(),
			[]rgWant{skipBy(BloomFilter, ""), skipBy(Dictionary, "dictionary: none of the"), skipBy(BloomFilter, ""), skipBy(BloomFilter, ""), skipBy(BloomFilter, "")}},
		{"bloom: a city only row group 3 holds", "orders_sorted.parquet", eq("city", StringLiteral("Reykjavík")), only(BloomFilter),
			[]rgWant{skipBy(BloomFilter, ""), skipBy(BloomFilter, ""), skipBy(BloomFilter, ""), scan, skipBy(BloomFilter, "")}},
		{"dictionary: absent status", "orders_sorted.parquet", eq("status", StringLiteral("lost")), only(Dictionary),
			repeat(skipBy(Dictionary, "dictionary: none of the 5 values of status satisfies status = 'lost'"), 5)},
		{"dictionary: NOT IN every status", "orders_shuffled.parquet",
			&InList{Col: Column{Path: "status"}, Not: true, List: []Literal{StringLiteral("pending"), StringLiteral("shipped"),
				StringLiteral("delivered"), StringLiteral("cancelled"), StringLiteral("returned")}}, only(Dictionary),
			repeat(skipBy(Dictionary, ""), 5)},
		{"dictionary: != a status not there", "orders_shuffled.parquet", cmpx("status", Ne, StringLiteral("lost")), AllMechanisms(),
			repeat(scan, 5)},
		{"dictionary: LIKE prefix", "orders_shuffled.parquet", &Like{Col: Column{Path: "status"}, Pattern: "zz%"}, only(Dictionary),
			repeat(skipBy(Dictionary, ""), 5)},
		{"dictionary: general LIKE", "orders_shuffled.parquet", &Like{Col: Column{Path: "status"}, Pattern: "%liv%"}, AllMechanisms(),
			repeat(scan, 5)},
		{"dictionary: general LIKE that nothing matches", "orders_shuffled.parquet", &Like{Col: Column{Path: "status"}, Pattern: "%q%"}, AllMechanisms(),
			repeat(skipBy(Dictionary, ""), 5)},
		{"nothing enabled", "orders_sorted.parquet", eq("order_id", IntLiteral(431)), Options{}, repeat(scan, 5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := openFixture(t, tt.file)
			p, err := Plan(f, tt.pred, allLeaves(f), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.RowGroups) != len(tt.want) {
				t.Fatalf("%d row groups, want %d", len(p.RowGroups), len(tt.want))
			}
			for i, w := range tt.want {
				g := p.RowGroups[i]
				if g.Verdict != w.verdict || (w.verdict != Scan && g.Mechanism != w.mech) {
					t.Errorf("row group %d: %s by %s (%s), want %s by %s", i, g.Verdict, g.Mechanism, g.Reason, w.verdict, w.mech)
				}
				if w.rows != nil && !g.Rows.Equal(w.rows) {
					t.Errorf("row group %d: rows %s, want %s", i, g.Rows, w.rows)
				}
				if !strings.Contains(g.Reason, w.reason) {
					t.Errorf("row group %d: reason %q does not say %q", i, g.Reason, w.reason)
				}
			}
			checkAccounting(t, f, p)
		})
	}
}

func nan() float64 { var z float64; return z / z }

// checkAccounting checks the plan's byte counts add up.
func checkAccounting(t *testing.T, f *format.File, p *FilePlan) {
	t.Helper()
	var skipped, read, given int64
	for _, n := range p.Skipped {
		skipped += n
	}
	for _, g := range p.RowGroups {
		for _, c := range g.Columns {
			read += c.Bytes
			given += c.Given
		}
	}
	if skipped+read+given != p.ChunkBytes {
		t.Errorf("skipped %d + read %d + dictionaries given %d != chunk bytes %d", skipped, read, given, p.ChunkBytes)
	}
	var ranges int64
	for i, r := range p.ReadRanges {
		ranges += r.Length
		if i > 0 && r.Offset <= p.ReadRanges[i-1].End() {
			t.Errorf("read ranges %d and %d overlap or touch", i-1, i)
		}
	}
	if ranges != p.ReadBytes || p.ReadBytes > read {
		t.Errorf("read ranges hold %d bytes, ReadBytes %d, columns %d", ranges, p.ReadBytes, read)
	}
}

// TestCompleteness is the second requirement, on its examples.
func TestCompleteness(t *testing.T) {
	sorted := openFixture(t, "orders_sorted.parquet")
	shuffled := openFixture(t, "orders_shuffled.parquet")
	orderID := sorted.Schema.LeafByPath("order_id").Index

	// order_id = 431 keeps one row group and one page of order_id.
	p431, err := Plan(sorted, eq("order_id", IntLiteral(431)), allLeaves(sorted), AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, g := range p431.RowGroups {
		if g.Verdict == Skip {
			continue
		}
		kept++
		for _, c := range g.Columns {
			if c.Leaf == orderID && (c.Whole || len(c.PageIndexes) != 1 || c.PageIndexes[0] != 1) {
				t.Errorf("order_id = 431 reads order_id %s, want page 1 only", c)
			}
			if c.Whole || len(c.PageIndexes) != 1 {
				t.Errorf("order_id = 431 reads %s, want one page", c)
			}
		}
	}
	if kept != 1 {
		t.Errorf("order_id = 431 keeps %d row groups, want 1", kept)
	}

	// Every absent customer_id is ruled out by the Bloom filter of every row
	// group of the shuffled file, although inside every min/max.
	for _, id := range []int64{123456, 222222, 424242, 500000, 555555, 654321, 777777, 888888} {
		p, err := Plan(shuffled, eq("customer_id", IntLiteral(id)), allLeaves(shuffled), AllMechanisms())
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range p.RowGroups {
			if g.Verdict != Skip || g.Mechanism != BloomFilter {
				t.Errorf("customer_id = %d: row group %d %s by %s (%s), want skipped by bloom", id, g.Index, g.Verdict, g.Mechanism, g.Reason)
			}
		}
		if p.ReadBytes != 0 || p.IndexBytes != 0 || p.DictionaryBytes != 0 || p.FilterBytes == 0 {
			t.Errorf("customer_id = %d: read %d, index %d, dictionary %d, filter %d bytes", id, p.ReadBytes, p.IndexBytes, p.DictionaryBytes, p.FilterBytes)
		}
	}

	// order_id = 431 OR customer_id = <absent> keeps exactly what order_id = 431 keeps.
	or := &Or{Xs: []Expr{eq("order_id", IntLiteral(431)), eq("customer_id", IntLiteral(424242))}}
	pOr, err := Plan(sorted, or, allLeaves(sorted), AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	for i := range pOr.RowGroups {
		a, b := p431.RowGroups[i], pOr.RowGroups[i]
		if a.Verdict != b.Verdict || !a.Rows.Equal(b.Rows) || len(a.Columns) != len(b.Columns) {
			t.Fatalf("row group %d: %s %s vs %s %s", i, a.Verdict, a.Rows, b.Verdict, b.Rows)
		}
		for j := range a.Columns {
			if a.Columns[j].String() != b.Columns[j].String() {
				t.Errorf("row group %d: %s vs %s", i, a.Columns[j], b.Columns[j])
			}
		}
	}
	if pOr.ReadBytes != p431.ReadBytes {
		t.Errorf("OR reads %d bytes, order_id = 431 alone %d", pOr.ReadBytes, p431.ReadBytes)
	}
}

// TestCompletenessProperty checks, for random one- and two-leaf predicates
// with every mechanism on, that every page the column index rules out is
// left out and every row group a mechanism rules out is skipped: the plan's
// rows are exactly what the leaves' verdicts combine to.
func TestCompletenessProperty(t *testing.T) {
	for _, name := range []string{"orders_sorted.parquet", "orders_shuffled.parquet", "statistics.parquet"} {
		f := openFixture(t, name)
		d := decodeFile(t, f)
		g := newTreeGen(d, 99)
		for k := 0; k < 300; k++ {
			var tree Expr
			switch k % 3 {
			case 0:
				tree = g.leaf()
			case 1:
				tree = &And{Xs: []Expr{g.leaf(), g.leaf()}}
			default:
				tree = &Or{Xs: []Expr{g.leaf(), g.leaf()}}
			}
			p, err := Plan(f, tree, nil, AllMechanisms())
			if err != nil {
				t.Fatal(err)
			}
			for rg := range f.Meta.RowGroups {
				want := expectedRows(t, f, rg, p.Predicate)
				got := p.RowGroups[rg].Rows
				if !got.Equal(want) {
					t.Fatalf("%s: %s: row group %d keeps %s (%s), the leaves' verdicts give %s", name, p.Predicate, rg, got, p.RowGroups[rg].Reason, want)
				}
			}
		}
	}
}

// expectedRows combines each leaf's verdicts, computed directly from the
// metadata: a leaf allows no rows when the chunk's statistics, its Bloom
// filter or its dictionary rule it out, else the rows of the pages the
// column index does not rule out.
func expectedRows(t *testing.T, f *format.File, rg int, e Expr) RowRanges {
	rows := f.Meta.RowGroups[rg].NumRows
	all := AllRows(rows)
	switch n := e.(type) {
	case *Const:
		if n.Value == True {
			return all
		}
		return nil
	case *Residual:
		return all
	case *And:
		r := all
		for _, x := range n.Xs {
			r = r.Intersect(expectedRows(t, f, rg, x))
		}
		return r
	case *Or:
		var r RowRanges
		for _, x := range n.Xs {
			r = r.Union(expectedRows(t, f, rg, x))
		}
		return r
	}
	c := e.(*Cond)
	s := newTestState(t, f, rg)
	col := c.Col.Leaf.Index
	md := f.Chunk(rg, col).MetaData
	if out, _ := c.excludedBy(s.chunkBounds(col)); out {
		return nil
	}
	if r, _ := s.bloomLeaf(c); r.Empty() {
		return nil
	}
	if ok, _ := allDictionary(md); ok && c.dictionaryTest() {
		vals, _, err := f.ReadDictionary(rg, col, nil)
		if err == nil && vals != nil {
			any := false
			for i := 0; i < vals.Len(); i++ {
				if c.test(vals.PlainBytes(i, []byte{}), true) == True {
					any = true
				}
			}
			if !any {
				return nil
			}
		}
	}
	ci, _ := f.ReadColumnIndex(rg, col)
	oi, _ := f.ReadOffsetIndex(rg, col)
	if ci == nil || oi == nil || stats.NullPagesContradiction(ci, c.Col.Leaf.MaxDef) != "" {
		return all
	}
	var kept []RowRange
	for i := range ci.NullPages {
		b := stats.PageBounds(s.p.cols[col], ci, i)
		if out, _ := c.excludedBy(b); !out {
			first, end := format.PageRows(oi, i, rows)
			kept = append(kept, RowRange{first, end})
		}
	}
	return NewRowRanges(kept...)
}

// TestBinarySearchMatchesLinear checks that searching a trusted boundary
// order keeps exactly the pages that judging every page keeps.
func TestBinarySearchMatchesLinear(t *testing.T) {
	files := []*format.File{openFixture(t, "orders_sorted.parquet"), openFixture(t, "orders_shuffled.parquet")}
	corpus, err := corpusPaths(t)
	if err != nil {
		t.Logf("the conformance corpus is not present (%v); searching the fixtures only", err)
	}
	for _, path := range corpus {
		f, err := format.Open(path)
		if err == nil {
			defer f.Close()
			files = append(files, f)
		}
	}
	searched := map[meta.BoundaryOrder]int{}
	for _, f := range files {
		d := decodeFile(t, f)
		g := newTreeGen(d, 5)
		for k := 0; k < 200; k++ {
			resolved, _, err := Resolve(f.Schema, g.leaf())
			if err != nil {
				t.Fatal(err)
			}
			var conds []*Cond
			collectConds(resolved, &conds)
			for _, c := range conds {
				for rg := range f.Meta.RowGroups {
					s := newTestState(t, f, rg)
					ix := s.chunkIndex(c.Col.Leaf.Index)
					if ix.why != "" {
						continue
					}
					if ix.span(c) != nil {
						searched[ix.order]++
					}
					a, _ := ix.decide(c, true)
					b, _ := ix.decide(c, false)
					for i := range a {
						if a[i] != b[i] {
							t.Fatalf("%s: row group %d, %s, page %d (%s): search keeps %v, linear %v", f.Name, rg, c, i, ix.order, a[i], b[i])
						}
					}
				}
			}
		}
	}
	if searched[meta.Ascending] == 0 || (corpus != nil && searched[meta.Descending] == 0) {
		t.Errorf("binary searches run: %v; want both orders", searched)
	}
	t.Logf("binary searches that agreed with linear scans: %v", searched)
}

func collectConds(e Expr, out *[]*Cond) {
	switch n := e.(type) {
	case *And:
		for _, x := range n.Xs {
			collectConds(x, out)
		}
	case *Or:
		for _, x := range n.Xs {
			collectConds(x, out)
		}
	case *Cond:
		*out = append(*out, n)
	}
}

// newTestState is a row group's evaluation state for white-box tests.
func newTestState(t testing.TB, f *format.File, rg int) *rgState {
	t.Helper()
	p := &planner{f: f, opt: AllMechanisms(), plan: &FilePlan{Skipped: map[Mechanism]int64{}}}
	var err error
	if p.cols, err = stats.Columns(f.Meta); err != nil {
		t.Fatal(err)
	}
	return p.newRGState(rg, &rgTally{rg: rg})
}

func TestPlanErrors(t *testing.T) {
	f := openFixture(t, "orders_sorted.parquet")
	tests := []struct {
		pred Expr
		cols []int
		want error
	}{
		{eq("nope", IntLiteral(1)), nil, ErrUnknownColumn},
		{eq("status", IntLiteral(1)), nil, ErrType},
		{&Residual{Text: "f(x)", Columns: []string{"x"}}, nil, ErrUnknownColumn},
		{nil, []int{11}, ErrBadColumn},
		{nil, []int{-1}, ErrBadColumn},
	}
	for _, tt := range tests {
		_, err := Plan(f, tt.pred, tt.cols, AllMechanisms())
		if !errors.Is(err, tt.want) {
			t.Errorf("Plan(%v, %v) error = %v, want %v", tt.pred, tt.cols, err, tt.want)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "pushdown: file orders_sorted.parquet: ") {
			t.Errorf("error %q does not say where", err)
		}
	}
	// No WHERE: every row group is scanned, and only the projection is read.
	p, err := Plan(f, nil, []int{0}, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range p.RowGroups {
		if g.Verdict != Scan || g.Reason != "no predicate" || len(g.Columns) != 1 || !g.Columns[0].Whole {
			t.Errorf("row group %d: %s, %q, %v", g.Index, g.Verdict, g.Reason, g.Columns)
		}
	}
	if p.IndexBytes+p.FilterBytes+p.DictionaryBytes != 0 {
		t.Errorf("a plan without WHERE fetched %d index, %d filter, %d dictionary bytes", p.IndexBytes, p.FilterBytes, p.DictionaryBytes)
	}
}
