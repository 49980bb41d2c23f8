package exec

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
	if 4*(c.used+1) > 3*len(c.slots) {
		c.growSlots()
	}
	h := hashInt(k)
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
	c.slots, c.mask = make([]uint64, size), uint64(size-1)
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
}
