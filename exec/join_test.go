package exec

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// A joinSide is one side's rows for a join test: a key (int or varchar,
// NULL as nil) and an integer value per row.
type joinSide struct {
	keys []any
	vals []int64
}

// vectors makes the side's columns; str says the key is a varchar.
func (s joinSide) vectors(str bool) []*Vector {
	kt := Type{ID: TypeBigInt}
	if str {
		kt = Type{ID: TypeVarchar}
	}
	k, v := newResultVector(kt, len(s.keys)), newResultVector(Type{ID: TypeBigInt}, len(s.keys))
	for i, x := range s.keys {
		switch x := x.(type) {
		case nil:
			k.appendNull()
		case int64:
			k.Int = append(k.Int, x)
			k.markNotNull()
		case string:
			k.Str = append(k.Str, x)
			k.markNotNull()
		}
		v.Int = append(v.Int, s.vals[i])
		v.markNotNull()
	}
	return []*Vector{k, v}
}

// cut splits rows [0, n) of cols into batches of random sizes, some
// past BatchSize.
func cut(rng *rand.Rand, cols []*Vector, n int) []*batch {
	var out []*batch
	for from := 0; from < n; {
		to := min(n, from+1+rng.Intn(BatchSize+BatchSize/2))
		sel := make([]int32, 0, to-from)
		for i := from; i < to; i++ {
			sel = append(sel, int32(i))
		}
		b := &batch{n: to - from}
		for _, v := range cols {
			b.cols = append(b.cols, v.take(sel))
		}
		out = append(out, b)
		from = to
	}
	return out
}

// joinRowsText prints a batch's rows, one string each.
func joinRowsText(bs []*batch) []string {
	var rows []string
	for _, b := range bs {
		for r := range b.n {
			var cells []string
			for _, v := range b.cols {
				if v == nil {
					cells = append(cells, "-") // a column not made
				} else if v.IsNull(r) {
					cells = append(cells, "NULL")
				} else if v.Str != nil {
					cells = append(cells, v.Str[r])
				} else {
					cells = append(cells, fmt.Sprint(v.Int[r]))
				}
			}
			rows = append(rows, strings.Join(cells, "|"))
		}
	}
	return rows
}

// referenceJoin is a nested loop over the rows with SQL's semantics: keys
// match when both are non-NULL and equal, and residual (l.v < r.v) when
// asked.
func referenceJoin(kind planner.JoinKind, l, r joinSide, residual bool) []string {
	cell := func(x any) string {
		if x == nil {
			return "NULL"
		}
		return fmt.Sprint(x)
	}
	match := func(i, j int) bool {
		if l.keys[i] == nil || r.keys[j] == nil || l.keys[i] != r.keys[j] {
			return false
		}
		return !residual || l.vals[i] < r.vals[j]
	}
	var rows []string
	rightMatched := make([]bool, len(r.keys))
	for i := range l.keys {
		left := cell(l.keys[i]) + "|" + fmt.Sprint(l.vals[i])
		found := false
		for j := range r.keys {
			if !match(i, j) {
				continue
			}
			found, rightMatched[j] = true, true
			if kind != planner.JoinSemi && kind != planner.JoinAnti {
				rows = append(rows, left+"|"+cell(r.keys[j])+"|"+fmt.Sprint(r.vals[j]))
			}
		}
		switch {
		case kind == planner.JoinSemi && found,
			(kind == planner.JoinAnti || kind == planner.JoinLeft || kind == planner.JoinFull) && !found:
			rows = append(rows, left+"|NULL|NULL")
		}
	}
	if kind == planner.JoinRight || kind == planner.JoinFull {
		for j, m := range rightMatched {
			if !m {
				rows = append(rows, "NULL|NULL|"+cell(r.keys[j])+"|"+fmt.Sprint(r.vals[j]))
			}
		}
	}
	return rows
}

// The hash join probes the probe side batch by batch as it comes: for
// random sides with NULL keys and duplicate keys, integer keys (the typed
// table), varchar keys and no keys (the nested loop), every join kind, with
// and without a residual condition, and the probe side in batches of any
// size, the joined rows are those of a nested loop over the rows. Given the
// columns its consumer reads, the join makes only those (and the residual
// condition's): the others are nil.
func TestStreamedJoinMatchesNestedLoop(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	kinds := []planner.JoinKind{planner.JoinInner, planner.JoinLeft, planner.JoinRight, planner.JoinFull,
		planner.JoinSemi, planner.JoinAnti}
	side := func(n, distinct int, str bool) joinSide {
		var s joinSide
		for range n {
			var k any
			if rng.Intn(10) > 0 {
				if str {
					k = fmt.Sprintf("k%d", rng.Intn(distinct))
				} else {
					k = int64(rng.Intn(distinct) - distinct/2)
				}
			}
			s.keys = append(s.keys, k)
			s.vals = append(s.vals, int64(rng.Intn(100)))
		}
		return s
	}
	for iter := range 60 {
		kind := kinds[iter%len(kinds)]
		mode := iter / len(kinds) % 3 // 0: int key, 1: varchar key, 2: no key
		str := mode == 1
		residual := rng.Intn(2) == 0 || mode == 2
		nl, nr := 1+rng.Intn(5000), 1+rng.Intn(300)
		if mode == 2 {
			nl, nr = 1+rng.Intn(400), 1+rng.Intn(40)
		}
		buildLeft := rng.Intn(2) == 0
		if buildLeft {
			nl, nr = nr, nl
		}
		l, r := side(nl, 1+rng.Intn(200), str), side(nr, 1+rng.Intn(200), str)
		kt := Type{ID: TypeBigInt}
		if str {
			kt = Type{ID: TypeVarchar}
		}
		it := Type{ID: TypeBigInt}
		plan := func() *planner.Plan {
			return &planner.Plan{
				Columns: []planner.Column{{Name: "k", Type: kt}, {Name: "v", Type: it}},
				Project: []planner.Expr{&planner.ColRef{Index: 0, T: kt}, &planner.ColRef{Index: 1, T: it}},
			}
		}
		j := &planner.Join{Kind: kind, Left: plan(), Right: plan(), BuildLeft: buildLeft}
		if mode != 2 {
			j.Keys = []planner.JoinKey{{L: &planner.ColRef{Index: 0, T: kt}, R: &planner.ColRef{Index: 2, T: kt}}}
		}
		if residual {
			var cond planner.Expr = &planner.Binary{Op: "<", L: &planner.ColRef{Index: 1, T: it}, R: &planner.ColRef{Index: 3, T: it}, T: Type{ID: TypeBoolean}}
			if mode == 2 {
				// The nested loop's condition is the whole ON.
				eq := &planner.Binary{Op: "=", L: &planner.ColRef{Index: 0, T: kt}, R: &planner.ColRef{Index: 2, T: kt}, T: Type{ID: TypeBoolean}}
				cond = &planner.Logic{And: true, Xs: []planner.Expr{eq, cond}}
			}
			j.Residual = cond
		}
		var got []*batch
		jn := newJoiner(j, newMemTracker(0), func(b *batch) (bool, error) {
			got = append(got, b)
			return false, nil
		})
		// Every other iteration reads some of the columns, at random.
		var reads []bool
		if iter%2 == 1 {
			reads = make([]bool, 4)
			for c := range reads {
				reads[c] = rng.Intn(2) == 0
			}
		}
		jn.setReads(reads)
		made := slices.Repeat([]bool{true}, 4)
		if reads != nil {
			made = slices.Clone(reads)
			if residual {
				made[1], made[3] = true, true
				if mode == 2 {
					made[0], made[2] = true, true
				}
			}
		}
		lcols, rcols := l.vectors(str), r.vectors(str)
		buildCols, probeCols, buildN, probeN := rcols, lcols, nr, nl
		if jn.buildLeft {
			buildCols, probeCols, buildN, probeN = lcols, rcols, nl, nr
		}
		jn.setBuild(cut(rng, buildCols, buildN))
		if err := jn.prepare(); err != nil {
			t.Fatal(err)
		}
		if mode == 0 && jn.ints == nil {
			t.Fatal("an integer key is not joined through the typed table")
		}
		for _, pb := range cut(rng, probeCols, probeN) {
			if stop, err := jn.probeBatch(pb); stop || err != nil {
				t.Fatalf("stop %v, err %v", stop, err)
			}
		}
		if err := jn.finish(); err != nil {
			t.Fatal(err)
		}
		gotRows, want := joinRowsText(got), referenceJoin(kind, l, r, residual)
		for i, row := range want {
			cells := strings.Split(row, "|")
			for c, m := range made {
				if !m {
					cells[c] = "-"
				}
			}
			want[i] = strings.Join(cells, "|")
		}
		slices.Sort(gotRows)
		slices.Sort(want)
		if !slices.Equal(gotRows, want) {
			t.Fatalf("%v join (mode %d, residual %v, build left %v) of %d and %d rows: %d rows, want %d",
				kind, mode, residual, jn.buildLeft, nl, nr, len(gotRows), len(want))
		}
	}
}

// A join holds its build side only: the probe side's rows pass through as
// they are read, so a join whose probe side is far larger than
// memory_limit runs under it, with the answer it has without a limit.
func TestJoinProbeSideNotHeld(t *testing.T) {
	t.Chdir(moduleRoot(t))
	q := "SELECT count(*), sum(b.amount), count(b.note) FROM (SELECT DISTINCT customer_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id <= 400) a JOIN " +
		ordersTimes5 + " b ON a.customer_id = b.customer_id"
	want := resultText(t, NewSession(), q)
	if strings.HasPrefix(want, "0\t") {
		t.Fatalf("the join matches nothing: %s", want)
	}
	s := NewSession()
	mustExec(t, s, "SET memory_limit = '1MB'")
	mustExec(t, s, "SET join_filters = false") // every probe row is read
	if got := resultText(t, s, q); got != want {
		t.Fatalf("under memory_limit 1MB: %s, want %s", got, want)
	}
}

// A join makes only the columns of its rows that the plan over it reads:
// for count(*) and sum(o.amount), the amounts, and not the customer ids
// nor the NULLs standing for the columns the optimizer pruned.
func TestJoinMakesOnlyColumnsRead(t *testing.T) {
	t.Chdir(moduleRoot(t))
	ctx := context.Background()
	s := NewSession()
	st, err := planner.Parse("SELECT count(*), sum(o.amount) FROM (SELECT DISTINCT customer_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id <= 400) AS c " +
		"JOIN 'fixtures/orders_shuffled.parquet' AS o ON o.customer_id = c.customer_id")
	if err != nil {
		t.Fatal(err)
	}
	x := newExecutor(ctx, s.Settings, s.store)
	defer x.close()
	p, err := s.plan(ctx, st.(*planner.Select), x)
	if err != nil {
		t.Fatal(err)
	}
	for p.Scan.Join == nil {
		if p.Scan.Subquery == nil {
			t.Fatal("no join in the plan")
		}
		p = p.Scan.Subquery
	}
	amount := slices.IndexFunc(p.Input, func(c planner.Column) bool { return c.Name == "amount" })
	if amount < 0 || len(p.Input) < 3 {
		t.Fatalf("the join's columns are %v", p.Input)
	}
	rows := 0
	err = x.input(ctx, p, func(m scanMsg) (bool, error) {
		if m.b == nil {
			return false, m.err
		}
		rows += m.b.n
		for c, v := range m.b.cols {
			if (v != nil) != (c == amount) {
				return true, fmt.Errorf("column %d (%s) made: %v", c, p.Input[c].Name, v != nil)
			}
		}
		return false, m.err
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows == 0 {
		t.Fatal("the join matches nothing")
	}
}
