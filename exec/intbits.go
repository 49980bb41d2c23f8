package exec

// An intBits is a set of int64 keys held as a bitmap over [lo, lo+span):
// x IN (constants) judged on a dictionary of a hundred thousand entries
// tests one bit an entry, where a hash set hashes each and probes a table
// whose empty and full slots alternate unpredictably.
type intBits struct {
	lo    int64
	span  uint64
	words []uint64
}

// A set of keys may take a bitmap of minBits, or of maxBitsPerKey a key,
// up to maxBits: a few keys far apart are left to the hash set.
const (
	minBits       = 1 << 16
	maxBitsPerKey = 1 << 14
	maxBits       = 1 << 24
)

// newIntBits returns the bitmap of keys, or nil when it would be too wide
// for them.
func newIntBits(keys []int64) *intBits {
	if len(keys) == 0 {
		return nil
	}
	lo, hi := keys[0], keys[0]
	for _, k := range keys {
		lo, hi = min(lo, k), max(hi, k)
	}
	span := uint64(hi-lo) + 1 // wraps to 0 only for the whole int64 range
	limit := min(maxBits, max(minBits, uint64(len(keys))*maxBitsPerKey))
	if span == 0 || span > limit {
		return nil
	}
	b := &intBits{lo: lo, span: span, words: make([]uint64, (span+63)/64)}
	for _, k := range keys {
		d := uint64(k - lo)
		b.words[d>>6] |= 1 << (d & 63)
	}
	return b
}

// has reports whether k is in the set. k - lo wraps below lo to at least
// 2^64 - 2^63 - (2^63 - span), which is never below span.
func (b *intBits) has(k int64) bool {
	d := uint64(k - b.lo)
	return d < b.span && b.words[d>>6]&(1<<(d&63)) != 0
}

// evalInts is inNode.eval for integer keys held in bits: a row's verdict
// is hit when its value is in the list, miss when not, NULL when it is.
func (n *inNode) evalInts(v *Vector, sel []int32, res []uint8) {
	hit, miss := tTrue, tFalse
	if n.hasNull {
		miss = tNull
	}
	if n.not {
		hit, miss = not3(hit), not3(miss)
	}
	xs := v.Int
	for _, i := range sel {
		r := miss
		if n.bits.has(xs[i]) {
			r = hit
		}
		res[i] = r
	}
	if v.Nulls != nil {
		for _, i := range sel {
			if v.Nulls[i] {
				res[i] = tNull
			}
		}
	}
}

// keysOf lists the keys of t.
func keysOf(t *intGroups) []int64 {
	keys := make([]int64, 0, t.n)
	for _, s := range t.slots {
		if s.id != 0 {
			keys = append(keys, s.key)
		}
	}
	return keys
}
