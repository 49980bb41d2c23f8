package sql

// lowerOrderByStar reads a query's ORDER BY * as ORDER BY ALL, as DuckDB
// does: the rows sort by every column of the select list, left to right,
// in the direction written after the star. A star in a call's ORDER BY
// (list(x ORDER BY *)) is left for lowerArgOrders to refuse.
func lowerOrderByStar(out []otok) []otok {
	for i := 2; i < len(out); i++ {
		if !isOpTok(out, i, "*") || out[i-1].kw != "by" || out[i-2].kw != "order" {
			continue
		}
		switch next := kwAt(out, i+1); {
		case i+1 == len(out), next == "asc", next == "desc", next == "nulls", next == "limit", next == "offset":
		case isOpTok(out, i+1, ")"):
			if o := matchOpen(out, i+1); o < 0 || !isQueryStart(kwAt(out, o+1)) {
				continue
			}
		default:
			continue
		}
		out[i] = keyword("all", out[i].orig)
	}
	return out
}
