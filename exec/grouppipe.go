package exec

import (
	"sync"
	"sync/atomic"
)

// A groupPipe aggregates the parts of a split groupCols in goroutines of
// their own, fed by queues: the consumer routes a batch's rows to their
// parts and goes on to the next batch while the parts aggregate it. Handing
// each batch's share to a goroutine and waiting for it costs a wake-up of an
// idle thread per batch, and on a virtual machine that wake-up takes about as
// long as the share's work, so the parts ran one after the other. A queue
// keeps each part's goroutine busy from batch to batch instead.
//
// A part's jobs run one at a time in the order they came, so each group
// meets its rows in input order, as without the pipe. A part's goroutine
// ends when its queue is empty, so an aggregation dropped on an error leaves
// nothing running once the queued jobs are done.
type groupPipe struct {
	mu   sync.Mutex
	cond sync.Cond
	q    []partQueue
	// pending counts the jobs queued or running; the parts' state may be
	// read once it is zero.
	pending atomic.Int64
	// published is each part's number of groups as of its last job, for
	// the memory accounting while jobs run.
	published []atomic.Int64
	// panicked is what a job panicked with; failed is set with it, for
	// settle's check without the lock.
	panicked any
	failed   atomic.Bool
	free     [][]int32
}

// A partQueue is one part's jobs, and whether its goroutine runs.
type partQueue struct {
	jobs    []partJob
	head    int
	running bool
}

// A partJob is a part's share of a batch: the rows sel of srcs.
type partJob struct {
	srcs []source
	sel  []int32
	hold *batchHold
}

// A batchHold releases a batch when the last part is done with it.
type batchHold struct {
	b    *batch
	refs atomic.Int32
}

func (h *batchHold) done() {
	if h.refs.Add(-1) == 0 {
		h.b.release()
	}
}

// pipeDepth is how many jobs per part may wait: enough that a part's
// goroutine does not run dry while the consumer waits to be woken.
const pipeDepth = 4

func newGroupPipe(parts int) *groupPipe {
	gp := &groupPipe{q: make([]partQueue, parts), published: make([]atomic.Int64, parts)}
	gp.cond.L = &gp.mu
	return gp
}

// pipeable reports whether the rows of b may be aggregated after b's turn:
// every source is a column of b itself, which the batch's hold keeps, and
// holds its values plainly (not as codes into a dictionary the scan hands
// back after the row group).
func pipeable(b *batch, srcs []source) bool {
	for _, s := range srcs {
		if s.ds != nil {
			return false
		}
		v := s.vec
		if v == nil {
			continue
		}
		if v.Codes != nil || v.Str != nil {
			return false
		}
		own := false
		for _, c := range b.cols {
			if c == v {
				own = true
				break
			}
		}
		if !own {
			return false
		}
	}
	return true
}

// send queues each part's rows of b (sels, by part) and returns once the
// queues are short enough; the batch is released when every part is done.
func (gc *groupCols) send(b *batch, srcs []source, sels [][]int32) {
	hold := &batchHold{b: b}
	n := int32(0)
	for _, s := range sels {
		if len(s) > 0 {
			n++
		}
	}
	if n == 0 {
		b.release()
		return
	}
	hold.refs.Store(n)
	gc.sendHeld(hold, srcs, sels)
}

// sendHeld queues the jobs of a batch whose hold counts its non-empty
// selections.
func (gc *groupCols) sendHeld(hold *batchHold, srcs []source, sels [][]int32) {
	gp := gc.pipe
	own := append([]source(nil), srcs...)
	gp.mu.Lock()
	defer gp.mu.Unlock()
	for p, s := range sels {
		if len(s) == 0 {
			continue
		}
		q := &gp.q[p]
		q.jobs = append(q.jobs, partJob{srcs: own, sel: s, hold: hold})
		gp.pending.Add(1)
		if !q.running {
			q.running = true
			go gc.drain(p)
		}
	}
	for gp.panicked == nil && gp.pending.Load() > int64(pipeDepth*len(gp.q)) {
		gp.cond.Wait()
	}
	if gp.panicked != nil {
		panic(gp.panicked)
	}
}

// selFor returns an empty selection vector for a part's share of a batch.
func (gp *groupPipe) selFor() []int32 {
	gp.mu.Lock()
	defer gp.mu.Unlock()
	if n := len(gp.free); n > 0 {
		s := gp.free[n-1]
		gp.free = gp.free[:n-1]
		return s[:0]
	}
	return make([]int32, 0, BatchSize)
}

// drain runs part p's jobs until its queue is empty.
func (gc *groupCols) drain(p int) {
	gp := gc.pipe
	c := gc.parts[p]
	gp.mu.Lock()
	for {
		q := &gp.q[p]
		if q.head == len(q.jobs) {
			q.jobs, q.head, q.running = q.jobs[:0], 0, false
			gp.cond.Broadcast()
			gp.mu.Unlock()
			return
		}
		j := q.jobs[q.head]
		q.jobs[q.head] = partJob{}
		q.head++
		failed := gp.panicked != nil
		gp.mu.Unlock()
		var r any
		if !failed {
			r = runPartJob(c, j)
			gp.published[p].Store(int64(c.n))
		}
		j.hold.done()
		gp.mu.Lock()
		if r != nil && gp.panicked == nil {
			gp.panicked = r
			gp.failed.Store(true)
		}
		gp.free = append(gp.free, j.sel)
		gp.pending.Add(-1)
		gp.cond.Broadcast()
	}
}

// runPartJob aggregates one job, returning what it panicked with: the
// consumer raises it again on its own goroutine, where the session turns it
// into an error.
func runPartJob(c *colPart, j partJob) (panicked any) {
	defer func() { panicked = recover() }()
	c.consumeRows(j.srcs, j.sel)
	return nil
}

// settle waits for every queued job, so that the parts may be read and
// changed on the caller's goroutine.
func (gc *groupCols) settle() {
	gp := gc.pipe
	if gp == nil || gp.pending.Load() == 0 && !gp.failed.Load() {
		return
	}
	gp.mu.Lock()
	for gp.pending.Load() > 0 {
		gp.cond.Wait()
	}
	r := gp.panicked
	gp.mu.Unlock()
	if r != nil {
		panic(r)
	}
}

// publish notes each part's groups after work done on the caller's
// goroutine.
func (gc *groupCols) publish() {
	if gp := gc.pipe; gp != nil {
		for p, c := range gc.parts {
			gp.published[p].Store(int64(c.n))
		}
	}
}

// groupsSoFar is the number of groups without waiting for the queued jobs:
// exact when none runs, else as of each part's last finished job.
func (gc *groupCols) groupsSoFar() int {
	gp := gc.pipe
	if gp == nil || gp.pending.Load() == 0 {
		return gc.countGroups()
	}
	n := 0
	for p := range gp.published {
		n += int(gp.published[p].Load())
	}
	return n
}
