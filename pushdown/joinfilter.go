package pushdown

import "github.com/pqsql/pqsql/format"

// CreditJoinFilter credits to the JoinFilter mechanism what p, the plan of
// a scan of f whose predicate holds a join filter, skips beyond what the
// scan's own predicate would have read: what would have been read without
// the join filter, less what is read. base is the plan of that predicate
// made with statistics alone, which fetch nothing (the footer holds them),
// or nil when the scan has no predicate of its own.
//
// The footer tells what the own predicate would read of a row group in
// three cases, and there every skip and every page left out is the join
// filter's: the scan has no predicate of its own, or the statistics prove
// every row of the row group satisfies it (so nothing of it would be left
// out), or p skips by statistics (or constants) a row group base keeps.
// Elsewhere a row group p skips by a costlier mechanism (Bloom filter,
// page index, dictionary) or narrows to pages might have been ruled out by
// the own predicate alone at that level, which only fetching the index
// data again could tell, so it stays that mechanism's. The verdicts stay
// p's; only the mechanism, the reason and the bytes' account change.
func (p *FilePlan) CreditJoinFilter(f *format.File, base *FilePlan) {
	if base != nil && len(base.RowGroups) != len(p.RowGroups) {
		return
	}
	var prover *Prover
	if base != nil {
		prover = NewProver(f)
	}
	for i := range p.RowGroups {
		rg := &p.RowGroups[i]
		whole := base == nil || prover.RowGroup(base.Predicate, rg.Index) == True
		switch {
		case rg.Mechanism == JoinFilter:
			continue
		case whole && (rg.Verdict == Select || rg.Verdict == Skip && rg.Mechanism != NoMechanism):
		case !whole && rg.Verdict == Skip && base.RowGroups[i].Verdict != Skip && (rg.Mechanism == Statistics || rg.Mechanism == Constant):
		default:
			continue
		}
		if rg.Verdict == Select {
			// Select row groups account their left-out pages to the page
			// index (or the spatial mechanism, pageMechanism).
			p.Skipped[pageMechanism(*rg)] -= rg.SkippedBytes
		} else {
			p.Skipped[rg.Mechanism] -= rg.SkippedBytes
		}
		p.Skipped[JoinFilter] += rg.SkippedBytes
		rg.Reason = "join filter (by " + rg.Mechanism.String() + "): " + rg.Reason
		rg.Mechanism = JoinFilter
	}
}
