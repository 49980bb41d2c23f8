package exec

// An intJoinTable is the hash table of a join on one integer key: each
// distinct key has an id in an intGroups, and the build rows of an id form
// a chain, first[id] then next[row] until -1, in row order. Against a Go
// map of row slices it saves a slice per key and the map's generic
// hashing on every probe row.
type intJoinTable struct {
	ids   intGroups
	first []int32
	next  []int32
}

// newIntJoinTable indexes the non-NULL rows of the build side's key
// column v.
func newIntJoinTable(v *Vector) *intJoinTable {
	n := len(v.Int)
	t := &intJoinTable{next: make([]int32, n)}
	// Rows are chained backwards so that each chain lists its rows in
	// order: the joined rows come out as a row-at-a-time loop makes them.
	for r := n - 1; r >= 0; r-- {
		if v.IsNull(r) {
			t.next[r] = -1
			continue
		}
		k := v.Int[r]
		id := t.ids.find(k)
		if id < 0 {
			id = int32(len(t.first))
			t.ids.put(k, id)
			t.first = append(t.first, -1)
		}
		t.next[r], t.first[id] = t.first[id], int32(r)
	}
	return t
}

// appendMatches appends a pair (probe row p, build row) for each build row
// whose key is k.
func (t *intJoinTable) appendMatches(probeRows, buildRows []int32, p int32, k int64) ([]int32, []int32) {
	id := t.ids.find(k)
	if id < 0 {
		return probeRows, buildRows
	}
	for r := t.first[id]; r >= 0; r = t.next[r] {
		probeRows = append(probeRows, p)
		buildRows = append(buildRows, r)
	}
	return probeRows, buildRows
}

// bytes is the memory the table takes.
func (t *intJoinTable) bytes() int64 {
	return t.ids.bytes() + 4*int64(cap(t.first)+len(t.next))
}

// A strJoinTable is intJoinTable for one VARCHAR key: the build rows of a
// key form a chain, and a probe row looks its string up directly, where
// the generic table encodes every key of both sides as bytes first.
type strJoinTable struct {
	ids   map[string]int32
	first []int32
	next  []int32
	// keyBytes are the distinct keys' bytes, for accounting.
	keyBytes int64
}

// newStrJoinTable indexes the non-NULL rows of the build side's key
// column v.
func newStrJoinTable(v *Vector) *strJoinTable {
	n := len(v.Str)
	t := &strJoinTable{ids: map[string]int32{}, next: make([]int32, n)}
	// Chained backwards, as in newIntJoinTable, so each chain is in order.
	for r := n - 1; r >= 0; r-- {
		if v.IsNull(r) {
			t.next[r] = -1
			continue
		}
		k := v.Str[r]
		id, ok := t.ids[k]
		if !ok {
			id = int32(len(t.first))
			t.ids[k] = id
			t.first = append(t.first, -1)
			t.keyBytes += int64(len(k))
		}
		t.next[r], t.first[id] = t.first[id], int32(r)
	}
	return t
}

// appendMatches appends a pair (probe row p, build row) for each build row
// whose key is k.
func (t *strJoinTable) appendMatches(probeRows, buildRows []int32, p int32, k string) ([]int32, []int32) {
	id, ok := t.ids[k]
	if !ok {
		return probeRows, buildRows
	}
	for r := t.first[id]; r >= 0; r = t.next[r] {
		probeRows = append(probeRows, p)
		buildRows = append(buildRows, r)
	}
	return probeRows, buildRows
}

// bytes is the memory the table takes: a map entry (string header, id and
// the map's own overhead, as the generic table counts it) per key.
func (t *strJoinTable) bytes() int64 {
	return t.keyBytes + 48*int64(len(t.ids)) + 4*int64(cap(t.first)+len(t.next))
}
