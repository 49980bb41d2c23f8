package exec

import "unsafe"

// The hash table of a colPart: open addressing with linear probing over
// 8-byte slots, each the top half of the key's hash (a tag) beside the
// group's id. The key itself is the first word of the group's row, so a
// probe that finds its group has already brought in the states it is
// about to update; a tag that differs rules a slot out without reading
// the row. Slots of key and id side by side take twice the memory, and
// states in arrays of their own cost a cache miss each.
//
// A key's home slot is the top bits of its hash, which the tag holds: the
// table doubles without reading a row, and, walking the old slots in
// order, fills the new one front to back.

// slotIDMask takes a slot's id+1 (0 marks an empty slot).
const slotIDMask = 1<<32 - 1

// findKey returns the group of a non-NULL key, or -1.
func (c *colPart) findKey(k int64) int32 {
	if c.used == 0 {
		return -1
	}
	h := hashInt(k)
	tag := h &^ slotIDMask
	for i := h >> c.shift; ; i = (i + 1) & c.mask {
		s := c.slots[i]
		if s == 0 {
			return -1
		}
		if s&^slotIDMask == tag {
			if id := int32(s&slotIDMask) - 1; *c.word(id, keyWord) == k {
				return id
			}
		}
	}
}

// groupOf returns the group of a non-NULL key, adding it (its row: the key,
// zero states) when new. One probe finds it or the slot it takes.
func (c *colPart) groupOf(k int64) int32 {
	return c.groupOfHash(k, hashInt(k))
}

// groupsOf sets gids[j] to the group of keys[sel[j]] (every key, with sel
// nil), adding the new ones, and counts a row in each. A table far larger
// than the cache costs a miss for a key's slot and another for its row;
// probed one key after another, each waits for its misses in turn. So the
// slots of the batch's keys are read first, then (from the cache) the ids
// they name, then those rows: loads independent of each other and of any
// probe, whose misses overlap; and the probes find both in the cache.
func (c *colPart) groupsOf(keys []int64, sel []int32, gids []int32) {
	n := len(gids)
	if cap(c.hashes) < n {
		c.hashes = make([]uint64, n)
	}
	hs := c.hashes[:n]
	if sel == nil {
		for j, k := range keys[:n] {
			hs[j] = hashInt(k)
		}
	} else {
		for j, i := range sel {
			hs[j] = hashInt(keys[i])
		}
	}
	if c.used > touchGroups {
		var sink uint64
		for _, h := range hs {
			sink += c.slots[h>>c.shift]
		}
		if cap(c.near) < n {
			c.near = make([]int32, n)
		}
		near := c.near[:n]
		for j, h := range hs {
			tag := h &^ slotIDMask
			near[j] = 0
			for i := h >> c.shift; ; i = (i + 1) & c.mask {
				s := c.slots[i]
				if s == 0 {
					break
				}
				if s&^slotIDMask == tag {
					near[j] = int32(s & slotIDMask)
					break
				}
			}
		}
		for _, id := range near {
			if id > 0 {
				sink += uint64(*c.word(id-1, keyWord))
			}
		}
		c.sink = sink
	}
	for j, h := range hs {
		var k int64
		if sel == nil {
			k = keys[j]
		} else {
			k = keys[sel[j]]
		}
		g := c.groupOfHash(k, h)
		gids[j] = g
		// The row was just read to compare its key.
		*c.word(g, countWord)++
	}
}

// touchGroups is how many groups a part holds before groupsOf reads the
// slots and rows of a batch ahead: fewer stay in the cache.
const touchGroups = 1 << 15

// groupOfHash is groupOf of a key whose hash is h.
func (c *colPart) groupOfHash(k int64, h uint64) int32 {
	if 4*(c.used+1) > 3*len(c.slots) {
		c.growSlots()
	}
	tag := h &^ slotIDMask
	for i := h >> c.shift; ; i = (i + 1) & c.mask {
		s := c.slots[i]
		if s == 0 {
			id := int32(c.n)
			c.slots[i] = tag | uint64(id+1)
			c.used++
			c.addRow(k)
			return id
		}
		if s&^slotIDMask == tag {
			if id := int32(s&slotIDMask) - 1; *c.word(id, keyWord) == k {
				return id
			}
		}
	}
}

// growSlots doubles the table, kept at most three quarters full: the tags
// keep the longer probes of a fuller table cheap, as a run of slots shares
// a cache line and a slot of another key is passed without reading its
// row.
func (c *colPart) growSlots() {
	old := c.slots
	size := max(2*len(old), 64)
	if size*8 >= ownMapping {
		w := c.tableMem().words(size)
		c.slots = unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(w))), size)
	} else {
		c.slots = make([]uint64, size)
	}
	c.mask = uint64(size - 1)
	c.shift = uint(64)
	for 1<<(64-c.shift) < size {
		c.shift--
	}
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := s >> c.shift
		for c.slots[i] != 0 {
			i = (i + 1) & c.mask
		}
		c.slots[i] = s
	}
	c.freeSlots(old)
}

// freeSlots unmaps a slot table no longer used, when it has a mapping.
func (c *colPart) freeSlots(s []uint64) {
	if c.mem != nil && len(s) > 0 {
		c.mem.drop(unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(s))), len(s)))
	}
}

// dropSlots lets go of the slot table once no key is looked up any more.
func (c *colPart) dropSlots() {
	old := c.slots
	c.slots = nil
	c.freeSlots(old)
}
