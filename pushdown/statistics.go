package pushdown

import (
	"slices"

	"github.com/pqsql/pqsql/format/stats"
)

// chunkBounds is the trusted summary of column c's chunk in this row group,
// as package stats decides it. Its caveats go to the trust report.
func (s *rgState) chunkBounds(c int) stats.Bounds {
	if b := s.bounds[c]; b != nil {
		return *b
	}
	md := s.p.f.Chunk(s.rg, c).MetaData
	b := stats.ChunkBounds(s.p.cols[c], md.Statistics, md.NumValues)
	leaf := s.p.f.Schema.Leaves[c]
	if why := stats.ChunkRowsContradiction(md.NumValues, s.rows, leaf.MaxRep > 0); why != "" {
		// Statistics of a chunk that miscounts its own values prove nothing:
		// keep what it holds as if it had none.
		b = stats.ChunkBounds(s.p.cols[c], nil, md.NumValues)
		b.Refused = why
	}
	s.makeMemos()
	s.bounds[c] = &b
	if b.Refused != "" || len(b.Notes) > 0 {
		lines := b.Report()
		if b.Refused == "" {
			lines = lines[1:] // the bounds themselves are no caveat
		}
		for _, line := range lines {
			if !slices.Contains(s.tally.trust, line) {
				s.tally.trust = append(s.tally.trust, line)
			}
		}
	}
	return b
}

// statsLeaf is the rows c allows by the row group's statistics: none when
// the chunk's bounds and null count prove no row satisfies it, else all.
func (s *rgState) statsLeaf(c *Cond) (RowRanges, string) {
	b := s.chunkBounds(c.Col.Leaf.Index)
	if out, why := c.excludedBy(b); out {
		return nil, "statistics: " + why
	}
	return s.all, ""
}
