package pushdown

import (
	"sync"

	"github.com/pqsql/pqsql/format"
)

// A Stream is a file's plan made row group by row group, in order, for a
// scan that starts on the first row groups while later ones are judged. A
// row group's dictionary check decodes dictionaries that the scan is given
// (ColumnRead.Dictionary): judged shortly before the scan takes them, they
// are not all in memory at once, as they are when the whole file is
// planned first.
//
// Each RowGroupPlan, and the FilePlan that Plan returns once Next has
// returned every row group, equal Plan's for the same arguments.
type Stream struct {
	p     *planner
	n     int
	ahead int
	hold  int64

	mu   sync.Mutex
	cond sync.Cond
	// next is the row group to judge next, taken those Next returned.
	next, taken int
	judged      []judgedRowGroup
	ready       []bool
	// panics are the judges' panics, raised again by Next in the caller's
	// goroutine when it reaches their row group.
	panics []any
	// lazy stops judging ahead: a row group gave the scan more than hold
	// bytes of dictionaries.
	lazy bool
	// stop ends the judging: a row group failed, or the stream is closed.
	stop   bool
	closed bool
	wg     sync.WaitGroup
	done   *FilePlan
}

// NewStream starts planning f for pred and columns, as Plan does. With
// opt.Threads above 1, up to that many goroutines judge row groups ahead,
// none more than ahead row groups past the last one Next returned, until a
// row group gives the scan more than hold bytes of dictionary pages
// (ColumnRead.Given): from then on, as with ahead 0 or one thread, Next
// judges each row group not yet judged when asked for it, so that no more
// such dictionaries are decoded than the caller holds. NewStream fails as
// Plan does before any row group is judged. The caller must Close it.
func NewStream(f *format.File, pred Expr, columns []int, opt Options, ahead int, hold int64) (*Stream, error) {
	p, err := newPlanner(f, pred, columns, opt)
	if err != nil {
		return nil, err
	}
	n := len(f.Meta.RowGroups)
	s := &Stream{p: p, n: n, ahead: max(ahead, 0), hold: hold,
		judged: make([]judgedRowGroup, n), ready: make([]bool, n), panics: make([]any, n)}
	s.cond.L = &s.mu
	if opt.Threads > 1 && s.ahead > 0 {
		for range min(opt.Threads, s.ahead, n) {
			s.wg.Add(1)
			go s.work()
		}
	}
	return s, nil
}

// work judges row groups in order while the window allows.
func (s *Stream) work() {
	defer s.wg.Done()
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for !s.stop && !s.lazy && s.next < s.n && s.next >= s.taken+s.ahead {
			s.cond.Wait()
		}
		if s.stop || s.lazy || s.next >= s.n {
			return
		}
		s.judgeNext()
	}
}

// judgeNext judges row group next, unlocked meanwhile, and keeps its plan
// for Next.
func (s *Stream) judgeNext() {
	rg := s.next
	s.next++
	s.mu.Unlock()
	j, r := s.judge(rg)
	s.mu.Lock()
	s.judged[rg], s.ready[rg], s.panics[rg] = j, true, r
	if j.err != nil || r != nil {
		// No row group is started after a failure: Next returns the
		// first in row-group order, and the rest need not be read.
		s.stop = true
	}
	if j.tally.givenBytes > s.hold {
		s.lazy = true
	}
	s.cond.Broadcast()
}

// judge judges one row group, returning its panic rather than raising it.
func (s *Stream) judge(rg int) (j judgedRowGroup, panicked any) {
	defer func() { panicked = recover() }()
	s.p.judge(&j, rg)
	return j, nil
}

// Next returns the next row group's plan, in row-group order; ok is false
// once every row group was returned. A row group's planning error ends
// the stream with the error Plan would return. One goroutine calls Next.
func (s *Stream) Next() (rg RowGroupPlan, ok bool, err error) {
	s.mu.Lock()
	if s.taken >= s.n || s.closed {
		s.mu.Unlock()
		return RowGroupPlan{}, false, nil
	}
	k := s.taken
	if s.next == k {
		// No goroutine has started it.
		s.judgeNext()
	}
	for !s.ready[k] {
		s.cond.Wait()
	}
	j, r := s.judged[k], s.panics[k]
	s.judged[k] = judgedRowGroup{}
	s.taken++
	s.cond.Broadcast()
	s.mu.Unlock()
	if r != nil {
		s.Close()
		panic(r)
	}
	if j.err != nil {
		s.Close()
		return RowGroupPlan{}, false, j.err
	}
	s.p.fold(&j)
	if s.taken == s.n {
		s.done = s.p.finish()
	}
	return j.plan, true, nil
}

// Predicate is the WHERE as resolved for the file (FilePlan.Predicate).
func (s *Stream) Predicate() Expr { return s.p.plan.Predicate }

// Plan is the file's plan, complete once Next has returned every row
// group (nil before): the totals, notes and ranges Plan returns.
func (s *Stream) Plan() *FilePlan { return s.done }

// Close stops judging, waits for the row groups under way, and drops the
// dictionaries of those judged but not taken. It may be called more than
// once.
func (s *Stream) Close() {
	s.mu.Lock()
	s.stop, s.closed = true, true
	s.cond.Broadcast()
	s.mu.Unlock()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.judged {
		for i := range s.judged[k].plan.Columns {
			format.ReleaseDictionary(s.judged[k].plan.Columns[i].Dictionary)
		}
		s.judged[k] = judgedRowGroup{}
	}
}
