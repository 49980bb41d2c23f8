package exec

import (
	"context"
	"time"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/pushdown"
)

// A file's scan may start on its first row groups while the later ones are
// still judged (pushdown.Stream): the dictionaries the plan decodes and
// gives the scan are then decoded shortly before their row group is read
// and dropped once it is, rather than all held from the plan to the end of
// the scan.

// A file's row groups are judged up to as many ahead of the dispatcher as
// there are threads, so that a plan costlier than the scan (page indexes
// and Bloom filters of many row groups) runs in parallel as it did before
// the scan, until a row group's plan gives the scan more than planHold
// bytes of dictionaries: from then on the dispatcher judges each row group
// when it takes it, while the workers read the ones before, and no more
// dictionaries are decoded than the workers and it hold.
const planHold = 64 << 10

// streams reports whether sf is planned while it is scanned. A sorted
// limit orders the row groups by their plans, a LIMIT often stops the scan
// before the plan's end, a join filter credits itself on the whole
// plan, and a remote file fetches what the whole plan reads ahead: those
// plan the whole file first.
func (s *scanner) streams(sf *scanFile) bool {
	if s.q.topk != nil || s.q.streamLimit || s.x.planOnly || sf.cs.remote != nil || len(sf.f.Meta.RowGroups) < 2 {
		return false
	}
	_, joined := s.x.joinFiltered.Load(s.q.p.Scan)
	return !joined
}

// dispatchStream plans one file row group by row group and hands each out
// as soon as it is judged; false stops the scan. It reads and decides as
// dispatchFile does, and leaves the meter the same complete plan.
func (s *scanner) dispatchStream(ctx context.Context, sf *scanFile, tokens chan struct{}, order, work chan *scanTask, pass func(scanMsg) bool) bool {
	q := s.q
	start := time.Now()
	st, err := pushdown.NewStream(sf.cs.planFile(), q.p.Scan.Pushdown, neededLeaves(sf.fields), s.x.settings.options(), s.x.settings.threads(), planHold)
	if err != nil {
		pass(scanMsg{err: err})
		return false
	}
	defer st.Close()
	sf.cs.phase.Store(phaseScan)
	fs := &fileStream{st: st, m: sf.cs, waited: time.Since(start)}
	var proof *pushdown.Prover
	if q.countProof {
		proof = pushdown.NewProver(sf.f)
	}
	stopped := func() bool {
		if s.x.keepMeters {
			fs.rest()
		}
		return false
	}
	if s.idle == nil {
		s.idle = make(chan struct{}, s.x.settings.threads())
		for range cap(s.idle) {
			s.idle <- struct{}{}
		}
	}
	slot := false
	for {
		// The token comes before the row group's plan, so that a plan
		// waits for its turn with its dictionaries not yet decoded; so
		// does an idle worker, so that no more row groups' dictionaries
		// are decoded than there are workers, none waiting in the
		// dispatcher for a worker while the others read theirs. A row
		// group that needs no worker leaves both for the next one.
		if !s.takeToken(ctx, tokens) {
			return stopped()
		}
		if !slot {
			select {
			case <-s.idle:
				slot = true
			case <-ctx.Done():
				return stopped()
			}
		}
		rg, ok, err := fs.next()
		if err != nil || !ok {
			s.holding = true
			if err != nil {
				pass(scanMsg{err: err})
				return false
			}
			if slot {
				s.idle <- struct{}{}
			}
			break
		}
		if rg.Verdict == pushdown.Skip {
			s.x.stats.RowGroupsSkipped++
			s.holding = true
			continue
		}
		if proof != nil && rg.Verdict == pushdown.Scan && proof.RowGroup(st.Predicate(), rg.Index) == pushdown.True {
			s.x.stats.RowGroupsFromMetadata++
			sf.cs.answered(rg)
			s.holding = true
			if !pass(scanMsg{count: rg.NumRows}) {
				return stopped()
			}
			continue
		}
		t := s.newTask(sf, rg)
		t.out, t.idle = s.taskOut(), s.idle
		slot = false
		sf.refs.Add(1)
		select {
		case order <- t:
		case <-ctx.Done():
			sf.release()
			return stopped()
		}
		select {
		case work <- t:
		case <-ctx.Done():
			close(t.out)
			sf.release()
			return stopped()
		}
	}
	fs.done()
	return true
}

// A fileStream is a file's plan as its scan takes it, row group by row group.
type fileStream struct {
	st *pushdown.Stream
	m  *fileMeter
	// waited is the plan's time: what the scan waited for it.
	waited time.Duration
	// bytes are the kept row groups' planned bytes so far.
	bytes int64
}

// next is the next row group's plan; its planned bytes count for the
// progress bar as soon as it is judged.
func (fs *fileStream) next() (pushdown.RowGroupPlan, bool, error) {
	at := time.Now()
	rg, ok, err := fs.st.Next()
	fs.waited += time.Since(at)
	if ok && rg.Verdict != pushdown.Skip {
		n := plannedBytes(rg)
		fs.bytes += n
		fs.m.progress.addPlannedBytes(n)
	}
	return rg, ok, err
}

// done records the complete plan in the meter: the same plan and totals
// as planned records, the progress bar's planned bytes made up to the
// merged ranges'.
func (fs *fileStream) done() {
	p := fs.st.Plan()
	m := fs.m
	m.plan = p
	m.progress.addPlannedBytes(p.ReadBytes - fs.bytes)
	m.progress.addPlannedFile()
	m.planTime = fs.waited
}

// rest judges the row groups a scan stopped before, for EXPLAIN ANALYZE,
// whose account holds the whole plan, as it does when the file is planned
// before it is scanned. Without EXPLAIN they are left unread: the query's
// answer is complete without them.
func (fs *fileStream) rest() {
	for {
		rg, ok, err := fs.next()
		if err != nil {
			return
		}
		if !ok {
			break
		}
		for i := range rg.Columns {
			format.ReleaseDictionary(rg.Columns[i].Dictionary)
		}
	}
	fs.done()
}

// planReads is a file's meter as its plan reads it while the file is
// scanned: every read counts as the plan's, for the structure it lands in,
// whichever the file's phase.
type planReads struct{ m *fileMeter }

func (r planReads) ReadAt(p []byte, off int64) (int, error) { return r.m.read(p, off, phasePlan) }
func (r planReads) Size() int64                             { return r.m.Size() }

// planFile is the meter's file reading through planReads.
func (m *fileMeter) planFile() *format.File {
	g := *m.f
	g.Source = planReads{m}
	return &g
}
