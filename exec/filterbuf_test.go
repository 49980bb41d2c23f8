package exec

import (
	"slices"
	"sync"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// A filter shared by several workers, each passing back its previous
// batch's rows as the buffer for the next, selects exactly the rows
// three-valued logic selects, batch after batch.
func TestFilterReusesBuffersAcrossBatches(t *testing.T) {
	bigint, double := Type{ID: TypeBigInt}, Type{ID: TypeDouble}
	a := &planner.ColRef{Index: 0, Name: "a", T: bigint}
	bcol := &planner.ColRef{Index: 1, Name: "b", T: double}
	// (a BETWEEN 10 AND 20 OR b > 0.5) AND NOT a IS NULL
	where := &planner.Logic{And: true, Xs: []planner.Expr{
		&planner.Logic{Xs: []planner.Expr{
			&planner.Between{X: a, Lo: &planner.Const{Value: planner.Datum{I: 10}, T: bigint}, Hi: &planner.Const{Value: planner.Datum{I: 20}, T: bigint}},
			&planner.Binary{Op: ">", L: bcol, R: &planner.Const{Value: planner.Datum{F: 0.5}, T: double}, T: Type{ID: TypeBoolean}},
		}},
		&planner.Not{X: &planner.IsNull{X: a}},
	}}
	f := newFilter(where, 2)
	if _, ok := f.root.(*logicNode); !ok {
		t.Fatalf("the WHERE compiled to %T, not a vectorized AND", f.root)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seed := uint64(w + 1)
			next := func() uint64 {
				seed = seed*6364136223846793005 + 1442695040888963407
				return seed >> 33
			}
			var buf []int32
			for batchNo := range 50 {
				// Sizes go up and down, so a reused buffer is
				// sometimes longer than the batch.
				n := int(next()%BatchSize) + 1
				av, bv := newVector(bigint, n), newVector(double, n)
				var want []int32
				for i := range n {
					aNull, bNull := next()%5 == 0, next()%4 == 0
					x, y := int64(next()%40), float64(next()%100)/100
					if aNull {
						av.appendNull()
					} else {
						av.Int = append(av.Int, x)
						av.markNotNull()
					}
					if bNull {
						bv.appendNull()
					} else {
						bv.Float = append(bv.Float, y)
						bv.markNotNull()
					}
					if !aNull && ((x >= 10 && x <= 20) || (!bNull && y > 0.5)) {
						want = append(want, int32(i))
					}
				}
				b := &batch{cols: []*Vector{av, bv}, n: n}
				got, err := f.applyInto(b, buf)
				if err != nil {
					errs <- err.Error()
					return
				}
				if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
					t.Errorf("worker %d, batch %d (%d rows): got %v, want %v", w, batchNo, n, got, want)
					return
				}
				buf = got
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// NULL flags a released batch gives back come out of appendNull cleared:
// only the rows appended as NULL read as NULL.
func TestReleasedNullFlagsComeBackCleared(t *testing.T) {
	for range 4 {
		v := scanVector(Type{ID: TypeBigInt}, 8)
		v.appendNulls(8)
		(&batch{cols: []*Vector{v}, n: 8, pooled: true}).release()
	}
	v := newVector(Type{ID: TypeBigInt}, 8)
	v.Int = append(v.Int, 1, 2)
	v.appendNull()
	v.Int = append(v.Int, 3)
	v.markNotNull()
	if want := []bool{false, false, true, false}; !slices.Equal(v.Nulls, want) {
		t.Fatalf("NULL flags %v, want %v", v.Nulls, want)
	}
}

// TestSelectionServesTheNextRowGroup: the buffer a row group's scan wrote
// its batches' survivors to serves the next row group's scan, rather than
// each allocating its own (the race detector drops pooled items at random).
func TestSelectionServesTheNextRowGroup(t *testing.T) {
	s := borrowSelection()
	sel := fillRows(s.buf(), BatchSize)
	s.keep(sel[:7])
	first := &sel[0]
	s.done()
	next := borrowSelection()
	defer next.done()
	if raceEnabled {
		return
	}
	if b := next.buf(); cap(b) < BatchSize || len(b) != 0 || &b[:1][0] != first {
		t.Errorf("the next scan's buffer holds %d of room %d, not the last one's", len(b), cap(b))
	}
}
