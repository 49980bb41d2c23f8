package pushdown

import (
	"bytes"
	"math/rand"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pqsql/pqsql/format"
)

// streamAll takes every row group of a Stream and its final plan.
func streamAll(t *testing.T, f *format.File, pred Expr, columns []int, opt Options, ahead int, hold int64) ([]RowGroupPlan, *FilePlan, error) {
	t.Helper()
	s, err := NewStream(f, pred, columns, opt, ahead, hold)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	var rgs []RowGroupPlan
	for {
		rg, ok, err := s.Next()
		if err != nil {
			return rgs, nil, err
		}
		if !ok {
			break
		}
		if s.Plan() != nil && len(rgs)+1 < len(f.Meta.RowGroups) {
			t.Fatalf("the plan is complete after %d of %d row groups", len(rgs)+1, len(f.Meta.RowGroups))
		}
		rgs = append(rgs, rg)
	}
	if s.Plan() == nil {
		t.Fatalf("no plan after %d row groups", len(rgs))
	}
	return rgs, s.Plan(), nil
}

// sameAsPlan checks that streaming f's plan gives Plan's row groups, in
// order, and Plan's FilePlan, on any number of threads, any lookahead and
// whether or not dictionaries stop it.
func sameAsPlan(t *testing.T, f *format.File, trees int, seed int64) {
	d := decodeFile(t, f)
	if len(d.flat) == 0 {
		return
	}
	g := newTreeGen(d, seed)
	r := rand.New(rand.NewSource(seed + 1))
	all := allLeaves(f)
	for range trees {
		tree := g.tree(0)
		opt := randomOptions(r)
		opt.Threads = r.Intn(4)
		want, wantErr := Plan(f, tree, all, opt)
		ahead := r.Intn(4)
		hold := []int64{0, 1 << 10, 1 << 62}[r.Intn(3)]
		rgs, got, err := streamAll(t, f, tree, all, opt, ahead, hold)
		if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%s: Plan fails with %v, the stream with %v", describe(tree), wantErr, err)
		}
		if err != nil {
			continue
		}
		if !reflect.DeepEqual(rgs, want.RowGroups) {
			t.Fatalf("%s (threads %d, ahead %d): the streamed row groups differ from Plan's", describe(tree), opt.Threads, ahead)
		}
		var a, b bytes.Buffer
		if err := want.Explain(&a, ExplainOptions{Verbose: true}); err != nil {
			t.Fatal(err)
		}
		if err := got.Explain(&b, ExplainOptions{Verbose: true}); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Fatalf("%s: Plan explains\n%s\nthe stream explains\n%s", describe(tree), a.String(), b.String())
		}
		// A residual's function compares unequal to itself; the text
		// above compared the predicates.
		want.Predicate, got.Predicate = nil, nil
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%s (threads %d, ahead %d): the streamed plan differs from Plan's", describe(tree), opt.Threads, ahead)
		}
	}
}

// A streamed plan is Plan's, row group by row group and in its totals, on
// the fixtures and on the conformance corpus's files.
func TestStreamEqualsPlan(t *testing.T) {
	n := max(treesPerFixture()/5, 20)
	for i, name := range []string{"orders_sorted.parquet", "orders_shuffled.parquet", "statistics.parquet", "types.parquet", "nested.parquet", "structs.parquet"} {
		t.Run(name, func(t *testing.T) { sameAsPlan(t, openFixture(t, name), n, 31+int64(i)) })
	}
	t.Run("corpus", func(t *testing.T) {
		for i, path := range corpusFiles(t) {
			f, err := format.Open(path)
			if err != nil {
				continue
			}
			t.Run(filepath.Base(path), func(t *testing.T) { sameAsPlan(t, f, max(n/20, 10), 131+int64(i)) })
			f.Close()
		}
	})
}

// A row group that cannot be planned ends the stream with Plan's error,
// the first in row-group order, after the row groups before it.
func TestStreamFailsAsPlan(t *testing.T) {
	f := openFixture(t, "orders_shuffled.parquet")
	if len(f.Meta.RowGroups) < 4 {
		t.Fatalf("the test needs 4 row groups, the fixture has %d", len(f.Meta.RowGroups))
	}
	for _, rg := range []int{3, 1} {
		md := f.Chunk(rg, 0).MetaData
		md.DataPageOffset, md.DictionaryPageOffset = -int64(rg), nil
	}
	all := allLeaves(f)
	_, wantErr := Plan(f, nil, all, AllMechanisms())
	if wantErr == nil {
		t.Fatal("Plan does not fail on the broken chunks")
	}
	for threads := range 4 {
		for ahead := range 4 {
			opt := AllMechanisms()
			opt.Threads = threads
			rgs, _, err := streamAll(t, f, nil, all, opt, ahead, 1<<62)
			if err == nil || err.Error() != wantErr.Error() {
				t.Fatalf("threads %d, ahead %d: the stream fails with %v, Plan with %v", threads, ahead, err, wantErr)
			}
			if len(rgs) != 1 {
				t.Fatalf("threads %d, ahead %d: %d row groups before the error, want 1", threads, ahead, len(rgs))
			}
		}
	}
}

// A stream closed before its end stops judging, and Next then ends it.
func TestStreamClosedEarly(t *testing.T) {
	f := openFixture(t, "orders_shuffled.parquet")
	opt := AllMechanisms()
	opt.Threads = 2
	s, err := NewStream(f, nil, allLeaves(f), opt, 2, 1<<62)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Next(); !ok || err != nil {
		t.Fatalf("first row group: %v, %v", ok, err)
	}
	s.Close()
	if _, ok, err := s.Next(); ok || err != nil {
		t.Fatalf("after Close: %v, %v", ok, err)
	}
	if s.Plan() != nil {
		t.Fatal("a closed stream has a complete plan")
	}
	s.Close()
}

// Once a row group gives the scan more dictionary bytes than the stream may
// hold, no row group is judged before Next asks for it.
func TestStreamStopsAheadAtDictionaries(t *testing.T) {
	f := openFixture(t, "orders_shuffled.parquet")
	opt := AllMechanisms()
	opt.Threads = 2
	s, err := NewStream(f, eq("city", StringLiteral("Oslo")), allLeaves(f), opt, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	given := false
	for {
		rg, ok, err := s.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		for _, c := range rg.Columns {
			given = given || c.Dictionary != nil
		}
		// Time for a goroutine judging ahead to start.
		time.Sleep(5 * time.Millisecond)
		s.mu.Lock()
		// The first two row groups were started before any was judged.
		if s.taken >= 2 && s.next > s.taken {
			t.Errorf("row group %d was started after row group %d gave dictionaries", s.next-1, rg.Index)
		}
		s.mu.Unlock()
	}
	if !given {
		t.Fatal("no dictionary was given to the scan; the test needs one")
	}
}
