package planner

import (
	"fmt"
	"slices"

	"github.com/pqsql/pqsql/format"
)

// histogram(x) counts each distinct non-NULL value: a MAP from the value to
// its count (UBIGINT), keys in ascending order as DuckDB's are; NULL when
// there is no value.
func init() {
	registerAggregate(&AggregateFunc{Name: "histogram", Result: func(at Type) (Type, error) {
		if at.ID == TypeNull {
			at = Type{ID: TypeInteger}
		}
		return mapOf(at, Type{ID: TypeUBigInt}), nil
	}, New: func(a *AggCall) Accumulator { return &histogramAcc{a: a, counts: map[string]*modeEntry{}} }})
}

type histogramAcc struct {
	a      *AggCall
	counts map[string]*modeEntry
	order  []*modeEntry
}

func (h *histogramAcc) Add(d Datum) {
	h.addN(d, 1)
}

func (h *histogramAcc) addN(d Datum, n int64) {
	k := string(AppendKey(nil, d, h.a.Arg.Type()))
	e := h.counts[k]
	if e == nil {
		e = &modeEntry{v: d}
		h.counts[k] = e
		h.order = append(h.order, e)
	}
	e.n += n
}

func (h *histogramAcc) Merge(later Accumulator) {
	for _, e := range later.(*histogramAcc).order {
		h.addN(e.v, e.n)
	}
}

func (h *histogramAcc) Result() (Datum, error) {
	if len(h.order) == 0 {
		return NullDatum, nil
	}
	at := h.a.Arg.Type()
	sorted := slices.Clone(h.order)
	slices.SortStableFunc(sorted, func(x, y *modeEntry) int { return Compare(x.v, y.v, at) })
	kt, vt, _ := mapTypes(h.a.T)
	m := &format.Map{}
	for _, e := range sorted {
		k, err := valueOf(e.v, kt)
		if err != nil {
			return Datum{}, fmt.Errorf("histogram: %w", err)
		}
		v, err := valueOf(Datum{I: e.n}, vt)
		if err != nil {
			return Datum{}, fmt.Errorf("histogram: %w", err)
		}
		m.Keys, m.Values = append(m.Keys, k), append(m.Values, v)
	}
	return Datum{N: m}, nil
}
