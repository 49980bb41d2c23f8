package storage

import (
	"sort"

	"github.com/pqsql/pqsql/format"
)

// overread bounds the bytes coalescing reads between ranges, as a share
// of the ranges' own bytes (a tenth: remote reads stay within 10% of a
// local read).
const overread = 10

// Coalesce merges ranges into the requests a prefetch sends: overlapping
// and touching ranges always, and ranges whose gap is at most gap bytes,
// smallest gaps first, while the bytes between them stay within a tenth of
// the ranges' own. The requests of a round run in parallel, so a merge
// saves a request, not a round trip; on files of small pages a gap alone
// would read most of the file to save requests that cost no time.
func Coalesce(ranges []format.Range, gap int64) []format.Range {
	exact := format.Coalesce(ranges, 0)
	if len(exact) < 2 || gap <= 0 {
		return exact
	}
	var total int64
	for _, r := range exact {
		total += r.Length
	}
	budget := total / overread
	var idx []int // gap i lies between exact[i] and exact[i+1]
	for i := range len(exact) - 1 {
		if exact[i+1].Offset-exact[i].End() <= gap {
			idx = append(idx, i)
		}
	}
	between := func(i int) int64 { return exact[i+1].Offset - exact[i].End() }
	sort.SliceStable(idx, func(a, b int) bool { return between(idx[a]) < between(idx[b]) })
	merge := make([]bool, len(exact)-1)
	for _, i := range idx {
		if between(i) > budget {
			break
		}
		budget -= between(i)
		merge[i] = true
	}
	out := exact[:1]
	for i, r := range exact[1:] {
		if merge[i] {
			out[len(out)-1].Length = r.End() - out[len(out)-1].Offset
			continue
		}
		out = append(out, r)
	}
	return out
}
