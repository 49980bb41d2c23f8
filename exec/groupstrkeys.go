package exec

import "unsafe"

// maxCachedKeys is the most string keys whose rows strKeysCache finds.
const maxCachedKeys = 4

// A strKeysCache finds the group of a row of several string keys by the
// addresses of its strings: the scan makes each dictionary entry's string
// once, so the rows of one combination of entries share their addresses,
// and most rows find their group without encoding or hashing their keys.
// A slot holds its strings, so that their bytes cannot be freed and their
// addresses reused for other bytes while it names them.
type strKeysCache [1 << strKeysBits]struct {
	s [maxCachedKeys]string
	g int32
}

const strKeysBits = 10

// lookup returns the group slot j holds for row i's keys, if it does.
func (c *strKeysCache) lookup(j uint64, keys []source, i int) (int32, bool) {
	slot := &c[j]
	for k := range keys {
		x, y := keys[k].vec.Str[i], slot.s[k]
		if len(x) != len(y) || unsafe.StringData(x) != unsafe.StringData(y) {
			return 0, false
		}
	}
	return slot.g, true
}

// cachedStrKeys reports whether groupIDsStrKeys finds the groups of keys:
// two to maxCachedKeys string vectors.
func cachedStrKeys(keys []source) bool {
	if len(keys) < 2 || len(keys) > maxCachedKeys {
		return false
	}
	for _, k := range keys {
		if k.vec == nil || k.vec.Str == nil {
			return false
		}
	}
	return true
}

// groupIDsStrKeys is groupIDs for keys cachedStrKeys accepts. Rows with a
// NULL or an empty string (whose address says nothing) take the encoded
// keys' way.
func (ag *aggregator) groupIDsStrKeys(keys []source, gids []int32) {
	if ag.strKeys == nil {
		ag.strKeys = new(strKeysCache)
	}
	cache := ag.strKeys
	nk := len(keys)
rows:
	for i := range gids {
		h := uint64(0)
		for _, k := range keys {
			x := k.vec.Str[i]
			if x == "" || k.vec.IsNull(i) {
				gids[i] = ag.encodedGroup(keys, i)
				continue rows
			}
			h = (h ^ uint64(uintptr(unsafe.Pointer(unsafe.StringData(x))))) * 0x9E3779B97F4A7C15
		}
		// Two ways: the home slot and its pair, so that two combinations
		// of one slot do not keep turning each other out.
		home := h >> (64 - strKeysBits)
		if g, ok := cache.lookup(home, keys, i); ok {
			gids[i] = g
			continue
		}
		if g, ok := cache.lookup(home^1, keys, i); ok {
			gids[i] = g
			continue
		}
		cache[home^1] = cache[home]
		slot := &cache[home]
		g := ag.encodedGroup(keys, i)
		for k := range nk {
			slot.s[k] = keys[k].vec.Str[i]
		}
		slot.g = g
		gids[i] = g
	}
}
