package exec

// maxCodeGroups is the most combinations of dictionary entries a
// codeGroups holds; keys of larger dictionaries take the strings' way.
const maxCodeGroups = 1 << 14

// A codeGroups finds the group of a row of string keys by the entries of
// the keys' chunk dictionaries the scan read them from: a table of every
// combination of entries and NULL, so that a row costs a load, with no
// string hashed or compared. It serves one combination of dictionaries at a time
// (a row group's), made anew when a key's dictionary changes.
type codeGroups struct {
	dicts []*dictVector
	// gids holds the group of each combination (the first key's entry
	// varies fastest; NULL is the entry past a dictionary's last), -1 until
	// a row meets it.
	gids  []int32
	codes [][]int32
}

// table returns the table for keys, or nil when a key has no codes or its
// dictionaries' combinations are too many.
func (cg *codeGroups) table(keys []source) []int32 {
	cg.codes = cg.codes[:0]
	same := len(cg.dicts) == len(keys)
	size := 1
	for k, src := range keys {
		if src.vec == nil {
			return nil
		}
		c := src.vec.dictCodes()
		if c == nil {
			return nil
		}
		cg.codes = append(cg.codes, c)
		d := src.vec.Dict
		size *= len(d.strs) + 1
		if size > maxCodeGroups {
			return nil
		}
		same = same && cg.dicts[k] == d
	}
	if same {
		return cg.gids
	}
	cg.dicts = cg.dicts[:0]
	for _, src := range keys {
		cg.dicts = append(cg.dicts, src.vec.Dict)
	}
	if cap(cg.gids) < size {
		cg.gids = make([]int32, size)
	}
	cg.gids = cg.gids[:size]
	for i := range cg.gids {
		cg.gids[i] = -1
	}
	return cg.gids
}

// groupIDsCodes is groupIDs by dictionary codes and reports whether it
// could be: every key read from a dictionary (codeGroups). The first row
// of each combination finds its group as groupOf or encodedGroup would.
func (ag *aggregator) groupIDsCodes(keys []source, gids []int32) bool {
	if ag.kind == keyInt {
		return false
	}
	cg := &ag.codeGroups
	tab := cg.table(keys)
	if tab == nil {
		return false
	}
	codes := cg.codes
	find := ag.encodedGroup
	if ag.kind == keyStr {
		find = ag.groupOf
	}
	if len(codes) == 1 {
		null := int32(len(cg.dicts[0].strs))
		for i, c := range codes[0][:len(gids)] {
			if c < 0 {
				c = null
			}
			g := tab[c]
			if g < 0 {
				g = find(keys, i)
				tab[c] = g
			}
			gids[i] = g
		}
		return true
	}
	dicts := cg.dicts
	for i := range gids {
		at, stride := 0, 1
		for k, c := range codes {
			n := len(dicts[k].strs)
			x := int(c[i])
			if x < 0 {
				x = n
			}
			at += x * stride
			stride *= n + 1
		}
		g := tab[at]
		if g < 0 {
			g = find(keys, i)
			tab[at] = g
		}
		gids[i] = g
	}
	return true
}
