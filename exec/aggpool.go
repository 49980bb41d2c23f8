package exec

import (
	"sync"
	"unsafe"

	"github.com/pqsql/pqsql/planner"
)

// An aggPool holds a scan's partial aggregates between row groups. Each
// row group a worker aggregates takes one, and the merge that folds it into
// the query's aggregate hands it back: a GROUP BY of few groups over many
// row groups makes as many partial aggregates, with their slabs, tables and
// buffers, as are in flight at once, not one per row group. In a fresh
// process every byte allocated is a page made resident, as no collection
// runs before a few megabytes.
type aggPool struct {
	mu   sync.Mutex
	free []*aggregator
}

// take returns an empty aggregator of p: one handed back, reset, or a new
// one.
func (ap *aggPool) take(p *planner.Plan) *aggregator {
	ap.mu.Lock()
	var ag *aggregator
	if n := len(ap.free); n > 0 {
		ag = ap.free[n-1]
		ap.free[n-1] = nil
		ap.free = ap.free[:n-1]
	}
	ap.mu.Unlock()
	if ag == nil {
		ag = newAggregator(p)
		ag.pool = ap
		return ag
	}
	// Reset on the worker's goroutine, not the merging one's.
	ag.reset()
	return ag
}

// put hands back an aggregator taken from ap, merged and no longer used.
// One of more groups than partial aggregation is worth is let go: the scan
// stops aggregating its row groups (partialRowsPerGroup), and the pool
// would keep it, and its slabs, for nothing.
func (ap *aggPool) put(ag *aggregator) {
	if int64(ag.numGroups())*partialRowsPerGroup > ag.consumed {
		return
	}
	ap.mu.Lock()
	ap.free = append(ap.free, ag)
	ap.mu.Unlock()
}

// reset empties a partial aggregate for the next row group, keeping its
// memory. The query's aggregate has copied what it keeps of the groups
// (adopt, mergeState): states, keys and DISTINCT sets it took are no longer
// referenced here once cleared, and nothing here is written through a
// pointer the query's aggregate holds.
func (ag *aggregator) reset() {
	if len(ag.p.GroupBy) == 0 && len(ag.groups) == 1 {
		// The one group is made anew by single; its states are emptied in
		// place, as merging copies them rather than their extras.
		g := ag.groups[0]
		for i, a := range ag.p.Aggs {
			s := &g.aggs[i]
			ext := s.aggExtra
			*s = aggState{}
			if ext != nil && needsExtra(a) {
				*ext = aggExtra{}
				s.aggExtra = ext
			}
		}
		ag.spare = g
	}
	clear(ag.groups)
	ag.groups = ag.groups[:0]
	for _, s := range ag.slabs[:ag.slabNext] {
		clear(s.groups)
		clear(s.keys)
		clear(s.aggs)
		clear(s.extras)
	}
	ag.slab, ag.slabNext = groupSlab{}, 0
	ag.byInt.reset()
	clear(ag.byStr)
	clear(ag.byKey)
	ag.keys.reset()
	ag.nullGroup = -1
	ag.consumed = 0
	// The caches below find groups by the addresses of strings and by
	// dictionaries, which the next row group's may reuse for other values.
	if ag.strCache != nil {
		clear(ag.strCache[:])
	}
	if ag.strKeys != nil {
		clear(ag.strKeys[:])
	}
	cg := &ag.codeGroups
	clear(cg.dicts)
	cg.dicts = cg.dicts[:0]
	clear(cg.codes)
	cg.codes = cg.codes[:0]
	// updateFew counts a batch's rows once, for the batch whose consumed
	// count seq is; consumed starts again.
	ag.few.seq = 0
	clear(ag.srcs)
	clear(ag.stBuf)
	clear(ag.rb.row)
	if ag.cols != nil && !ag.cols.reset() {
		ag.cols = newGroupCols(ag.p)
	}
}

// recycle hands a merged partial aggregate back to its pool.
func (ag *aggregator) recycle() {
	if ag.pool != nil {
		ag.pool.put(ag)
	}
}

// A keyArena holds the strings a partial aggregate's tables are keyed by,
// in chunks reused after reset, where a string each would be allocated
// for each group of each row group. A chunk is never grown in place: the
// tables' keys point into it.
type keyArena struct {
	chunks [][]byte
	// at is the chunk being filled.
	at int
}

// keyChunk is the size of the first chunk; a later chunk doubles the one
// before, up to maxKeyChunk.
const (
	keyChunk    = 1 << 10
	maxKeyChunk = 64 << 10
)

// intern returns b as a string in the arena.
func (ka *keyArena) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	for ka.at < len(ka.chunks) && len(ka.chunks[ka.at])+len(b) > cap(ka.chunks[ka.at]) {
		ka.at++
	}
	if ka.at == len(ka.chunks) {
		size := keyChunk
		if n := len(ka.chunks); n > 0 {
			size = min(2*cap(ka.chunks[n-1]), maxKeyChunk)
		}
		ka.chunks = append(ka.chunks, make([]byte, 0, max(size, len(b))))
	}
	c := &ka.chunks[ka.at]
	start := len(*c)
	*c = append(*c, b...)
	return unsafe.String(&(*c)[start], len(b))
}

// reset empties the arena, keeping its chunks: no string it returned may
// be used after.
func (ka *keyArena) reset() {
	for i := range ka.chunks {
		ka.chunks[i] = ka.chunks[i][:0]
	}
	ka.at = 0
}

// keyString returns b as a string to key a table by: in the arena for a
// partial aggregate, which reset empties, else a string of its own.
func (ag *aggregator) keyString(b []byte) string {
	if ag.pool == nil {
		return string(b)
	}
	return ag.keys.intern(b)
}
