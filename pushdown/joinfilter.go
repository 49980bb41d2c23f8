package pushdown

// CreditJoinFilter credits to the JoinFilter mechanism what p, the plan of
// a scan whose predicate holds a join filter, skips beyond what the scan's
// own predicate rules out. base is the plan of that predicate made with
// statistics alone, which fetch nothing (the footer holds them), or nil
// when the scan has no predicate of its own.
//
// Without a predicate of its own the scan would read everything, so every
// row group p skips or narrows is the join filter's doing. With one, a row
// group p skips by its statistics (or constants) while base keeps it is
// the join filter's doing too. A row group p skips by a costlier mechanism
// (Bloom filter, page index, dictionary) or narrows to pages might have
// been ruled out by the scan's predicate alone at that level, which base
// cannot tell without fetching the index data again, so it stays that
// mechanism's. The verdicts stay p's; only the mechanism, the reason and
// the bytes' account change.
func (p *FilePlan) CreditJoinFilter(base *FilePlan) {
	if base != nil && len(base.RowGroups) != len(p.RowGroups) {
		return
	}
	for i := range p.RowGroups {
		rg := &p.RowGroups[i]
		switch {
		case base == nil && rg.Verdict == Select,
			base == nil && rg.Verdict == Skip && rg.Mechanism != NoMechanism:
		case rg.Verdict == Skip && base.RowGroups[i].Verdict != Skip && (rg.Mechanism == Statistics || rg.Mechanism == Constant):
		default:
			continue
		}
		if rg.Verdict == Select {
			// Select row groups account their left-out pages to the page index.
			p.Skipped[PageIndex] -= rg.SkippedBytes
		} else {
			p.Skipped[rg.Mechanism] -= rg.SkippedBytes
		}
		p.Skipped[JoinFilter] += rg.SkippedBytes
		rg.Reason = "join filter (by " + rg.Mechanism.String() + "): " + rg.Reason
		rg.Mechanism = JoinFilter
	}
}
