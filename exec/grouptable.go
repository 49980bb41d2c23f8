package exec

import "unsafe"

// An intGroups maps int64 keys to dense group ids: an open-addressing table
// with linear probing. A GROUP BY on one integer column looks every row up
// here; against a Go map it saves the map's per-entry overhead and its
// generic probing. A slot holds its key beside its id, so that a probe of a
// table far larger than the cache misses it once, not once per array.
type intGroups struct {
	slots []intSlot
	mask  uint64
	n     int
}

type intSlot struct {
	key int64
	id  int32 // id+1; 0 marks an empty slot
}

// hashInt spreads an integer key over the table (the 64-bit finalizer of
// MurmurHash3): customer ids and the like are dense, and their low bits
// alone would cluster.
func hashInt(k int64) uint64 {
	h := uint64(k)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// find returns k's id, or -1 when k has none.
func (t *intGroups) find(k int64) int32 {
	if t.n == 0 {
		return -1
	}
	for i := hashInt(k) & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.id == 0 {
			return -1
		}
		if s.key == k {
			return s.id - 1
		}
	}
}

// put gives k the id; k must not have one.
func (t *intGroups) put(k int64, id int32) {
	// At most half full, so that probes stay short.
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	i := hashInt(k) & t.mask
	for t.slots[i].id != 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = intSlot{key: k, id: id + 1}
	t.n++
}

// findOrPut returns k's id; when k has none, it gives it next and reports
// added. One probe does both, where find then put take two.
func (t *intGroups) findOrPut(k int64, next int32) (id int32, added bool) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	i := hashInt(k) & t.mask
	for ; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.id == 0 {
			break
		}
		if s.key == k {
			return s.id - 1, false
		}
	}
	t.slots[i] = intSlot{key: k, id: next + 1}
	t.n++
	return next, true
}

// grow doubles the table and places every key again.
func (t *intGroups) grow() {
	size := max(2*len(t.slots), 64)
	old := t.slots
	t.slots, t.mask, t.n = make([]intSlot, size), uint64(size-1), 0
	for _, s := range old {
		if s.id != 0 {
			t.put(s.key, s.id-1)
		}
	}
}

// reset removes every key, keeping the table.
func (t *intGroups) reset() {
	clear(t.slots)
	t.n = 0
}

// len is the number of keys.
func (t *intGroups) len() int { return t.n }

// bytes is the memory of the table.
func (t *intGroups) bytes() int64 { return int64(len(t.slots)) * int64(unsafe.Sizeof(intSlot{})) }
