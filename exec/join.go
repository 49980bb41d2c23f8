package exec

import (
	"context"
	"fmt"

	"github.com/pqsql/pqsql/optimizer"
	"github.com/pqsql/pqsql/planner"
)

// defaultMemoryLimit bounds a join's hash table when SET memory_limit was
// not used.
const defaultMemoryLimit = 4 << 30

// join runs both sides of a join and pairs their rows: a hash join on the
// keys, building a table on one side and probing it with the other, or a
// nested loop when the condition has no equality. Rows come out in
// batches of the left columns then the right ones; a row without a match
// on a side that keeps all its rows gets NULLs for the other side.
func (x *executor) join(ctx context.Context, j *planner.Join) ([]*batch, error) {
	nl, nr := len(j.Left.Columns), len(j.Right.Columns)
	jn := &joiner{j: j, nl: nl, nr: nr, limit: x.settings.MemoryLimit, buildLeft: j.BuildLeft}
	switch j.Kind {
	case planner.JoinLeft, planner.JoinFull:
		jn.buildLeft = false
	case planner.JoinRight:
		jn.buildLeft = true
	}
	if jn.limit <= 0 {
		jn.limit = defaultMemoryLimit
	}
	side := func(p *planner.Plan, n int) (*batch, error) {
		bs, err := x.run(ctx, p)
		if err != nil {
			return nil, err
		}
		return concatBatches(bs, projTypes(p)[:n]), nil
	}
	// The build side runs first: its keys may rule out probe rows before
	// the probe side is read.
	var err error
	if jn.buildLeft {
		jn.left, err = side(j.Left, nl)
	} else {
		jn.right, err = side(j.Right, nr)
	}
	if err != nil {
		return nil, err
	}
	if j.Kind == planner.JoinInner && x.settings.JoinFilters {
		if c := jn.joinFilter(); c != nil {
			optimizer.PushJoinFilter(j, c, !jn.buildLeft)
		}
	}
	if jn.buildLeft {
		jn.right, err = side(j.Right, nr)
	} else {
		jn.left, err = side(j.Left, nl)
	}
	if err != nil {
		return nil, err
	}
	if j.Residual != nil {
		jn.residual = newFilter(j.Residual, nl+nr)
	}
	return jn.run(ctx)
}

// A joiner holds one join's inputs, each side as one batch, while it pairs
// them.
type joiner struct {
	j           *planner.Join
	nl, nr      int
	left, right *batch
	residual    *filter
	limit       int64
	// buildLeft: the hash table holds the left side's rows.
	buildLeft bool
	table     map[string][]int32
	// matchedBuild marks build rows that found a partner, for a join that
	// keeps the build side's unmatched rows.
	matchedBuild []bool
	out          []*batch
}

func (jn *joiner) run(ctx context.Context) ([]*batch, error) {
	build, probe := jn.right, jn.left
	if jn.buildLeft {
		build, probe = jn.left, jn.right
	}
	if jn.keepsUnmatched(true) {
		jn.matchedBuild = make([]bool, build.n)
	}
	var probeKeys []string
	if len(jn.j.Keys) > 0 {
		buildKeys, err := jn.keys(jn.buildLeft)
		if err != nil {
			return nil, err
		}
		if probeKeys, err = jn.keys(!jn.buildLeft); err != nil {
			return nil, err
		}
		if err := jn.buildTable(build, buildKeys); err != nil {
			return nil, err
		}
	} else if err := jn.account(batchBytes(build)); err != nil {
		return nil, err
	}
	all := make([]int32, build.n)
	for i := range all {
		all[i] = int32(i)
	}
	// Pairs are gathered probe row by probe row and flushed in batches; a
	// probe row's candidates never straddle two flushes, so its match is
	// known when its flush ends.
	var probeRows, buildRows []int32
	start := 0
	for i := range probe.n {
		if i%BatchSize == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		cands := all
		if probeKeys != nil {
			if probeKeys[i] == "" {
				cands = nil // a NULL key matches nothing
			} else {
				cands = jn.table[probeKeys[i]]
			}
		}
		for _, b := range cands {
			probeRows = append(probeRows, int32(i))
			buildRows = append(buildRows, b)
		}
		if len(probeRows) >= BatchSize || i == probe.n-1 {
			if err := jn.flush(start, i+1, probeRows, buildRows); err != nil {
				return nil, err
			}
			probeRows, buildRows = probeRows[:0], buildRows[:0]
			start = i + 1
		}
	}
	if jn.matchedBuild != nil {
		var rest []int32
		for b, m := range jn.matchedBuild {
			if !m {
				rest = append(rest, int32(b))
			}
		}
		for len(rest) > 0 {
			n := min(len(rest), BatchSize)
			jn.emitUnmatched(rest[:n], true)
			rest = rest[n:]
		}
	}
	return jn.out, nil
}

// keepsUnmatched reports whether the join keeps the rows without a match
// of its build side (build) or of its probe side (!build).
func (jn *joiner) keepsUnmatched(build bool) bool {
	leftSide := build == jn.buildLeft
	switch jn.j.Kind {
	case planner.JoinFull:
		return true
	case planner.JoinLeft:
		return leftSide
	case planner.JoinRight:
		return !leftSide
	}
	return false
}

// keys computes the join keys of one side's rows as bytes; "" marks a row
// with a NULL key.
func (jn *joiner) keys(leftSide bool) ([]string, error) {
	width := jn.nl + jn.nr
	padded := &batch{cols: make([]*Vector, width)}
	exprs := make([]planner.Expr, len(jn.j.Keys))
	if leftSide {
		copy(padded.cols, jn.left.cols)
		padded.n = jn.left.n
		for i, k := range jn.j.Keys {
			exprs[i] = k.L
		}
	} else {
		copy(padded.cols[jn.nl:], jn.right.cols)
		padded.n = jn.right.n
		for i, k := range jn.j.Keys {
			exprs[i] = k.R
		}
	}
	kb, err := newProjector(exprs, width).apply(padded)
	if err != nil {
		return nil, err
	}
	out := make([]string, padded.n)
	var key []byte
	for r := range padded.n {
		key = key[:0]
		null := false
		for c, v := range kb.cols {
			d := datumAt(v, r)
			if d.Null {
				null = true
				break
			}
			key = planner.AppendKey(key, d, exprs[c].Type())
		}
		if !null {
			out[r] = string(key)
		}
	}
	return out, nil
}

// buildTable maps each build row's key to its rows, accounting the table's
// memory against the limit.
func (jn *joiner) buildTable(build *batch, keys []string) error {
	jn.table = make(map[string][]int32)
	used := batchBytes(build)
	for r, k := range keys {
		if k == "" {
			continue
		}
		rows, ok := jn.table[k]
		if !ok {
			used += int64(len(k)) + 48
		}
		used += 4
		jn.table[k] = append(rows, int32(r))
		if r%4096 == 0 {
			if err := jn.account(used); err != nil {
				return err
			}
		}
	}
	return jn.account(used)
}

// account fails once the hash table's memory passes the limit.
func (jn *joiner) account(used int64) error {
	if used > jn.limit {
		return fmt.Errorf("%w: the hash table of a join needs more than memory_limit (%s); raise it with SET memory_limit = '...'",
			ErrOutOfMemory, formatBytes(jn.limit))
	}
	return nil
}

// flush pairs the candidate rows, keeps those the residual accepts and,
// for a join keeping the probe side's unmatched rows, adds the rows among
// probe rows [from, to) left without a partner.
func (jn *joiner) flush(from, to int, probeRows, buildRows []int32) error {
	li, ri := probeRows, buildRows
	if jn.buildLeft {
		li, ri = buildRows, probeRows
	}
	var matched []int32 // positions of probeRows/buildRows kept
	if len(li) > 0 {
		b := jn.pairs(li, ri)
		if jn.residual != nil {
			sel, err := jn.residual.apply(b)
			if err != nil {
				return err
			}
			b = b.take(sel)
			matched = sel
		} else {
			matched = make([]int32, len(li))
			for i := range matched {
				matched[i] = int32(i)
			}
		}
		if b.n > 0 {
			jn.out = append(jn.out, b)
		}
	}
	keepProbe := jn.keepsUnmatched(false)
	if jn.matchedBuild == nil && !keepProbe {
		return nil
	}
	found := make([]bool, to-from)
	for _, m := range matched {
		found[int(probeRows[m])-from] = true
		if jn.matchedBuild != nil {
			jn.matchedBuild[buildRows[m]] = true
		}
	}
	if keepProbe {
		var rest []int32
		for i, f := range found {
			if !f {
				rest = append(rest, int32(from+i))
			}
		}
		if len(rest) > 0 {
			jn.emitUnmatched(rest, false)
		}
	}
	return nil
}

// pairs is the batch of joined rows left[li[k]] ++ right[ri[k]].
func (jn *joiner) pairs(li, ri []int32) *batch {
	b := &batch{cols: make([]*Vector, 0, jn.nl+jn.nr), n: len(li)}
	for _, v := range jn.left.cols {
		b.cols = append(b.cols, v.take(li))
	}
	for _, v := range jn.right.cols {
		b.cols = append(b.cols, v.take(ri))
	}
	return b
}

// emitUnmatched adds the given rows of the build side (build) or the probe
// side, with NULLs for the other side's columns.
func (jn *joiner) emitUnmatched(rows []int32, build bool) {
	leftRows := build == jn.buildLeft
	b := &batch{cols: make([]*Vector, 0, jn.nl+jn.nr), n: len(rows)}
	nulls := func(side *batch, types []Type) {
		for _, t := range types {
			b.cols = append(b.cols, nullVector(t, len(rows)))
		}
	}
	if leftRows {
		for _, v := range jn.left.cols {
			b.cols = append(b.cols, v.take(rows))
		}
		nulls(jn.right, projTypes(jn.j.Right)[:jn.nr])
	} else {
		nulls(jn.left, projTypes(jn.j.Left)[:jn.nl])
		for _, v := range jn.right.cols {
			b.cols = append(b.cols, v.take(rows))
		}
	}
	jn.out = append(jn.out, b)
}

// nullVector is n NULLs of type t.
func nullVector(t Type, n int) *Vector {
	v := newResultVector(t, n)
	for range n {
		v.appendNull()
	}
	return v
}

// concatBatches makes one batch of a side's batches, so that a row is an
// index into its vectors.
func concatBatches(bs []*batch, types []Type) *batch {
	out := &batch{cols: make([]*Vector, len(types))}
	total := 0
	for _, b := range bs {
		total += b.n
	}
	if len(bs) == 1 {
		return bs[0]
	}
	for c, t := range types {
		var v *Vector
		for _, b := range bs {
			if b.n > 0 && b.cols[c] != nil {
				v = emptyLike(b.cols[c], total)
				break
			}
		}
		if v == nil {
			v = newResultVector(t, total)
		}
		for _, b := range bs {
			src := b.cols[c]
			for i := range b.n {
				if src == nil {
					v.appendNull()
				} else {
					v.appendRow(src, i)
				}
			}
		}
		out.cols[c] = v
	}
	out.n = total
	return out
}

// batchBytes estimates the memory b's values take.
func batchBytes(b *batch) int64 {
	var n int64
	for _, v := range b.cols {
		if v == nil {
			continue
		}
		n += int64(len(v.Nulls))
		n += 8 * int64(len(v.Int)+len(v.Float)+len(v.Big))
		n += int64(len(v.Bool))
		for _, s := range v.Str {
			n += 16 + int64(len(s))
		}
		for _, s := range v.Bytes {
			n += 24 + int64(len(s))
		}
		n += 64 * int64(len(v.Nested))
	}
	return n
}

// formatBytes writes n as DuckDB writes memory sizes.
func formatBytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f %s", f, units[u])
}
