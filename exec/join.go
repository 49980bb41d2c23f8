package exec

import (
	"context"
	"fmt"

	"github.com/pqsql/pqsql/optimizer"
	"github.com/pqsql/pqsql/planner"
)

// join runs both sides of a join and returns all its rows, for a caller
// that needs them at once (streamJoin passes them on as they are made).
func (x *executor) join(ctx context.Context, j *planner.Join) ([]*batch, error) {
	var out []*batch
	err := x.streamJoin(ctx, j, nil, func(b *batch) (bool, error) {
		out = append(out, b)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// streamJoin runs both sides of a join and pairs their rows: a hash join
// on the keys, building a table on one side and probing it with the
// other, or a nested loop when the condition has no equality. The build
// side is held whole; the probe side's batches are joined as its plan
// makes them and the joined rows handed to emit, so the probe side is
// never held. Rows come out in batches of the left columns then the right
// ones; a row without a match on a side that keeps all its rows gets NULLs
// for the other side (the build side's, after the last probe batch).
// reads, when not nil, says which of the joined row's columns the consumer
// reads; the others are left nil, as a file scan leaves the columns no
// one reads.
func (x *executor) streamJoin(ctx context.Context, j *planner.Join, reads []bool, emit emitFunc) error {
	jn := newJoiner(j, x.mem, emit)
	jn.setReads(reads)
	defer func() { jn.mem.release(jn.reserved) }()
	// The build side runs first, as one batch: its keys may rule out
	// probe rows before the probe side is read.
	buildPlan, probePlan := jn.plans()
	bs, err := x.run(ctx, buildPlan)
	if err != nil {
		return err
	}
	jn.setBuild(bs)
	// A semi join drops the probe rows without a match as an inner join
	// does; an anti join keeps them.
	if (j.Kind == planner.JoinInner || j.Kind == planner.JoinSemi) && x.settings.JoinFilters && !x.readsShared(probePlan) {
		if c := jn.joinFilter(); c != nil {
			j.Filter = c
			before := filesScans(probePlan, nil)
			optimizer.PushJoinFilter(j, c, !jn.buildLeft)
			x.noteJoinFiltered(before, j, jn.buildLeft)
		}
	}
	if err := jn.prepare(); err != nil {
		return err
	}
	// The join filter may have given the probe side a new plan.
	_, probePlan = jn.plans()
	stopped := false
	err = x.stream(ctx, probePlan, func(pb *batch) (bool, error) {
		if err := ctx.Err(); err != nil {
			return true, err
		}
		stop, err := jn.probeBatch(pb)
		// The joined rows are copies: the probe batch is done with.
		pb.release()
		stopped = stopped || stop
		return stop, err
	})
	if err != nil || stopped {
		return err
	}
	return jn.finish()
}

// readsShared reports whether p reads a CTE whose rows an earlier
// reference already produced: a join filter would make its plan differ
// and read the files again, where the rows at hand cost nothing.
func (x *executor) readsShared(p *planner.Plan) bool {
	s := p.Scan
	switch {
	case s == nil:
		return false
	case s.Subquery != nil:
		if s.CTE != nil {
			x.sharedMu.Lock()
			_, ok := x.shared[sharedKey{s.CTE, s.Subquery.Explain()}]
			x.sharedMu.Unlock()
			if ok {
				return true
			}
		}
		return x.readsShared(s.Subquery)
	case s.Join != nil:
		return x.readsShared(s.Join.Left) || x.readsShared(s.Join.Right)
	case s.SetOp != nil:
		return x.readsShared(s.SetOp.Left) || x.readsShared(s.SetOp.Right)
	}
	return false
}

// A joiner holds one join's build side and hash table while the probe
// side's batches pass through it.
type joiner struct {
	j        *planner.Join
	nl, nr   int
	build    *batch
	residual *filter
	// mem counts the hash table's bytes (reserved so far) against
	// memory_limit.
	mem      *memTracker
	reserved int64
	// buildLeft: the hash table holds the left side's rows.
	buildLeft bool
	// The hash table: ints when the one key is held as integers (all
	// integer, date, time, timestamp and narrow decimal types), strs when
	// it is a VARCHAR, keys (planner.AppendKey bytes) otherwise.
	ints *intJoinTable
	strs *strJoinTable
	keys map[string][]int32
	// keyer computes a probe batch's keys.
	keyer *projector
	// all is every build row, the candidates of a join without keys.
	all []int32
	// matchedBuild marks build rows that found a partner, for a join that
	// keeps the build side's unmatched rows.
	matchedBuild []bool
	// probe is the probe batch being joined.
	probe *batch
	// emit takes the joined rows.
	emit emitFunc
	// outCols says which of the joined row's columns are made (nil: all):
	// those the consumer or the residual condition reads.
	outCols []bool
	// Buffers reused from probe batch to probe batch.
	probeRows, buildRows []int32
	key                  []byte
}

// newJoiner sets up join j, whose rows go to emit.
func newJoiner(j *planner.Join, mem *memTracker, emit emitFunc) *joiner {
	jn := &joiner{j: j, nl: len(j.Left.Columns), nr: len(j.Right.Columns), mem: mem, buildLeft: j.BuildLeft, emit: emit}
	switch j.Kind {
	case planner.JoinLeft, planner.JoinFull:
		jn.buildLeft = false
	case planner.JoinRight:
		jn.buildLeft = true
	case planner.JoinSemi, planner.JoinAnti:
		// The hash table holds the right side; each left row is kept or
		// dropped once its probe ends.
		jn.buildLeft = false
	}
	return jn
}

// setReads makes, of the joined row, only the columns reads marks and
// those the residual condition reads; nil makes them all.
func (jn *joiner) setReads(reads []bool) {
	if reads == nil {
		jn.outCols = nil
		return
	}
	jn.outCols = make([]bool, jn.nl+jn.nr)
	copy(jn.outCols, reads)
	if jn.j.Residual != nil {
		planner.MarkColumns(jn.j.Residual, jn.outCols)
	}
}

// makes reports whether the joined rows get column c (of the joined row).
func (jn *joiner) makes(c int) bool { return jn.outCols == nil || jn.outCols[c] }

// joinReads is which columns of a join's rows plan p, which reads them,
// reads: those its expressions name (Plan.InputExprs), as a file scan's
// needed columns are.
func joinReads(p *planner.Plan) []bool {
	return p.InputColumns(len(p.Input))
}

// plans are the plans of the build and the probe side.
func (jn *joiner) plans() (build, probe *planner.Plan) {
	if jn.buildLeft {
		return jn.j.Left, jn.j.Right
	}
	return jn.j.Right, jn.j.Left
}

// setBuild takes the build side's rows.
func (jn *joiner) setBuild(bs []*batch) {
	buildPlan, _ := jn.plans()
	n := jn.nr
	if jn.buildLeft {
		n = jn.nl
	}
	jn.build = concatSide(bs, projTypes(buildPlan)[:n])
}

// prepare builds the hash table of the build side, once the join filter
// (which may read the build side) is made.
func (jn *joiner) prepare() error {
	if jn.j.Residual != nil {
		jn.residual = newFilter(jn.j.Residual, jn.nl+jn.nr)
	}
	build := jn.build
	if jn.keepsUnmatched(true) {
		jn.matchedBuild = make([]bool, build.n)
	}
	if len(jn.j.Keys) == 0 {
		jn.all = make([]int32, build.n)
		for i := range jn.all {
			jn.all[i] = int32(i)
		}
		return jn.account(batchBytes(build))
	}
	kb, err := jn.keyColumns(build, jn.buildLeft)
	if err != nil {
		return err
	}
	jn.keyer = jn.newKeyer(!jn.buildLeft)
	return jn.buildTable(kb)
}

// probeBatch joins one batch of the probe side and passes the joined rows
// on; stop says the consumer wants no more.
func (jn *joiner) probeBatch(pb *batch) (stop bool, err error) {
	jn.probe = pb
	defer func() { jn.probe = nil }()
	var kb *batch
	if jn.keyer != nil {
		if kb, err = jn.probeKeys(pb); err != nil {
			return false, err
		}
	}
	var ints []int64
	var strs []string
	switch {
	case jn.ints != nil:
		v := kb.cols[0]
		if ints = v.Int; ints == nil && v.Nulls == nil {
			return false, fmt.Errorf("exec: join key of type %s without integers", v.Type)
		}
	case jn.strs != nil:
		v := kb.cols[0]
		if strs = v.Str; strs == nil && v.Nulls == nil {
			return false, fmt.Errorf("exec: join key of type %s without strings", v.Type)
		}
	}
	// Pairs are gathered probe row by probe row and flushed in batches; a
	// probe row's candidates never straddle two flushes, so its match is
	// known when its flush ends.
	probeRows, buildRows := jn.probeRows[:0], jn.buildRows[:0]
	defer func() { jn.probeRows, jn.buildRows = probeRows[:0], buildRows[:0] }()
	start := 0
	for i := range pb.n {
		switch {
		case jn.ints != nil:
			if v := kb.cols[0]; !v.IsNull(i) {
				probeRows, buildRows = jn.ints.appendMatches(probeRows, buildRows, int32(i), ints[i])
			}
		case jn.strs != nil:
			if v := kb.cols[0]; !v.IsNull(i) {
				probeRows, buildRows = jn.strs.appendMatches(probeRows, buildRows, int32(i), strs[i])
			}
		case jn.keys != nil:
			k, ok := appendJoinKey(jn.key[:0], kb, i, jn.j.Keys)
			jn.key = k
			if ok {
				for _, b := range jn.keys[string(k)] {
					probeRows = append(probeRows, int32(i))
					buildRows = append(buildRows, b)
				}
			}
		default:
			for _, b := range jn.all {
				probeRows = append(probeRows, int32(i))
				buildRows = append(buildRows, b)
			}
		}
		if len(probeRows) >= BatchSize || i == pb.n-1 {
			if stop, err := jn.flush(start, i+1, probeRows, buildRows); stop || err != nil {
				return stop, err
			}
			probeRows, buildRows = probeRows[:0], buildRows[:0]
			start = i + 1
		}
	}
	return false, nil
}

// finish passes on the build rows that found no partner, for a join that
// keeps them.
func (jn *joiner) finish() error {
	if jn.matchedBuild == nil {
		return nil
	}
	var rest []int32
	for b, m := range jn.matchedBuild {
		if !m {
			rest = append(rest, int32(b))
		}
	}
	for len(rest) > 0 {
		n := min(len(rest), BatchSize)
		if stop, err := jn.emitUnmatched(rest[:n], true); stop || err != nil {
			return err
		}
		rest = rest[n:]
	}
	return nil
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
	case planner.JoinAnti:
		return !build
	}
	return false
}

// newKeyer makes the projector of one side's join keys over the joined
// row's width, the side's columns in their place.
func (jn *joiner) newKeyer(leftSide bool) *projector {
	exprs := make([]planner.Expr, len(jn.j.Keys))
	for i, k := range jn.j.Keys {
		if leftSide {
			exprs[i] = k.L
		} else {
			exprs[i] = k.R
		}
	}
	return newProjector(exprs, jn.nl+jn.nr)
}

// keyColumns computes the join keys of a batch of one side's rows, as
// columns.
func (jn *joiner) keyColumns(b *batch, leftSide bool) (*batch, error) {
	return jn.applyKeyer(jn.newKeyer(leftSide), b, leftSide)
}

// probeKeys is keyColumns of a probe batch, with the projector made once.
func (jn *joiner) probeKeys(b *batch) (*batch, error) {
	return jn.applyKeyer(jn.keyer, b, !jn.buildLeft)
}

func (jn *joiner) applyKeyer(pr *projector, b *batch, leftSide bool) (*batch, error) {
	padded := &batch{cols: make([]*Vector, jn.nl+jn.nr), n: b.n}
	if leftSide {
		copy(padded.cols, b.cols)
	} else {
		copy(padded.cols[jn.nl:], b.cols)
	}
	kb, err := pr.apply(padded)
	if err == nil && kb.n != b.n {
		err = fmt.Errorf("exec: join keys of %d rows for %d", kb.n, b.n)
	}
	return kb, err
}

// appendJoinKey appends row r's keys as bytes; ok is false when one is
// NULL, which matches nothing.
func appendJoinKey(dst []byte, kb *batch, r int, keys []planner.JoinKey) ([]byte, bool) {
	for c, v := range kb.cols {
		d := datumAt(v, r)
		if d.Null {
			return dst, false
		}
		dst = planner.AppendKey(dst, d, keys[c].L.Type())
	}
	return dst, true
}

// buildTable maps each build row's key to its rows, accounting the table's
// memory against the limit.
func (jn *joiner) buildTable(kb *batch) error {
	used := batchBytes(jn.build)
	if len(kb.cols) == 1 && kb.cols[0].Int != nil {
		jn.ints = newIntJoinTable(kb.cols[0])
		return jn.account(used + jn.ints.bytes())
	}
	if len(kb.cols) == 1 && kb.cols[0].Str != nil && kb.cols[0].Type.ID == TypeVarchar {
		jn.strs = newStrJoinTable(kb.cols[0])
		return jn.account(used + jn.strs.bytes())
	}
	jn.keys = make(map[string][]int32)
	var key []byte
	for r := range kb.n {
		k, ok := appendJoinKey(key[:0], kb, r, jn.j.Keys)
		key = k
		if !ok {
			continue
		}
		rows, ok := jn.keys[string(key)]
		if !ok {
			used += int64(len(key)) + 48
		}
		used += 4
		jn.keys[string(key)] = append(rows, int32(r))
		if r%4096 == 0 {
			if err := jn.account(used); err != nil {
				return err
			}
		}
	}
	return jn.account(used)
}

// account reserves the hash table's growth to used bytes, or fails with
// an Out of Memory error naming the limit.
func (jn *joiner) account(used int64) error {
	if used <= jn.reserved {
		return nil
	}
	if err := jn.mem.reserve(used - jn.reserved); err != nil {
		return fmt.Errorf("%w (the hash table of a join)", err)
	}
	jn.reserved = used
	return nil
}

// flush pairs the candidate rows, keeps those the residual accepts and,
// for a join keeping the probe side's unmatched rows, adds the rows among
// probe rows [from, to) left without a partner.
func (jn *joiner) flush(from, to int, probeRows, buildRows []int32) (stop bool, err error) {
	li, ri := probeRows, buildRows
	if jn.buildLeft {
		li, ri = buildRows, probeRows
	}
	var matched []int32 // positions of probeRows/buildRows kept
	var out *batch
	if len(li) > 0 {
		b := jn.pairs(li, ri)
		if jn.residual != nil {
			sel, err := jn.residual.apply(b)
			if err != nil {
				return false, err
			}
			b = b.take(sel)
			matched = sel
		} else {
			matched = make([]int32, len(li))
			for i := range matched {
				matched[i] = int32(i)
			}
		}
		if b.n > 0 && !jn.filtersOnly() {
			out = b
		}
	}
	semi := jn.j.Kind == planner.JoinSemi
	if jn.j.Single && len(matched) > 1 {
		// probeRows is sorted, so a row matching twice shows as a repeat.
		for k := 1; k < len(matched); k++ {
			if probeRows[matched[k]] == probeRows[matched[k-1]] {
				return false, optimizer.ErrSubqueryRows
			}
		}
	}
	if out != nil {
		if stop, err := jn.emit(out); stop || err != nil {
			return stop, err
		}
	}
	keepProbe := jn.keepsUnmatched(false)
	if semi {
		keepProbe = true
	}
	if jn.matchedBuild == nil && !keepProbe {
		return false, nil
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
			// A semi join keeps the rows that matched, an outer or anti
			// join adds those that did not.
			if f == semi {
				rest = append(rest, int32(from+i))
			}
		}
		if len(rest) > 0 {
			return jn.emitUnmatched(rest, false)
		}
	}
	return false, nil
}

// filtersOnly reports whether the join only keeps or drops left rows
// (semi and anti joins) rather than emitting pairs.
func (jn *joiner) filtersOnly() bool {
	return jn.j.Kind == planner.JoinSemi || jn.j.Kind == planner.JoinAnti
}

// sides are the batches of the left and the right rows being joined.
func (jn *joiner) sides() (left, right *batch) {
	if jn.buildLeft {
		return jn.build, jn.probe
	}
	return jn.probe, jn.build
}

// pairs is the batch of joined rows left[li[k]] ++ right[ri[k]].
func (jn *joiner) pairs(li, ri []int32) *batch {
	left, right := jn.sides()
	b := &batch{cols: make([]*Vector, jn.nl+jn.nr), n: len(li)}
	for c, v := range left.cols[:jn.nl] {
		if v != nil && jn.makes(c) {
			b.cols[c] = v.take(li)
		}
	}
	for c, v := range right.cols[:jn.nr] {
		if v != nil && jn.makes(jn.nl+c) {
			b.cols[jn.nl+c] = v.take(ri)
		}
	}
	return b
}

// emitUnmatched adds the given rows of the build side (build) or the probe
// side, with NULLs for the other side's columns; stop says the consumer
// wants no more.
func (jn *joiner) emitUnmatched(rows []int32, build bool) (stop bool, err error) {
	leftRows := build == jn.buildLeft
	left, right := jn.sides()
	b := &batch{cols: make([]*Vector, jn.nl+jn.nr), n: len(rows)}
	side := func(at int, src *batch, types []Type) {
		for c, t := range types {
			if !jn.makes(at + c) {
				continue
			}
			if src == nil {
				b.cols[at+c] = nullVector(t, len(rows))
			} else if v := src.cols[c]; v != nil {
				b.cols[at+c] = v.take(rows)
			}
		}
	}
	if leftRows {
		side(0, left, projTypes(jn.j.Left)[:jn.nl])
		side(jn.nl, nil, projTypes(jn.j.Right)[:jn.nr])
	} else {
		side(0, nil, projTypes(jn.j.Left)[:jn.nl])
		side(jn.nl, right, projTypes(jn.j.Right)[:jn.nr])
	}
	return jn.emit(b)
}

// nullVector is n NULLs of type t.
func nullVector(t Type, n int) *Vector {
	v := newResultVector(t, n)
	for range n {
		v.appendNull()
	}
	return v
}

// concatSide makes one batch of a side's batches, so that a row is an
// index into its vectors.
func concatSide(bs []*batch, types []Type) *batch {
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
