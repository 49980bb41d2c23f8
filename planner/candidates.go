package planner

import (
	"fmt"
	"sort"
	"strings"
)

// The names DuckDB suggests when a column or table is not found
// ("Candidate bindings: ...", "Candidate tables: ..."), chosen as DuckDB
// chooses them, so the suggestions read the same in both engines.

// maxCandidates is how many names DuckDB suggests at most.
const maxCandidates = 5

// A scored name is a candidate with its similarity; higher is closer.
type scored struct {
	name  string
	score float64
}

// topScored returns the best names, best first (ties in case-insensitive
// name order): the best always, the others while their score is at least
// threshold.
func topScored(s []scored, threshold float64) []string {
	if len(s) == 0 {
		return nil
	}
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].score != s[j].score {
			return s[i].score > s[j].score
		}
		return strings.ToLower(s[i].name) < strings.ToLower(s[j].name)
	})
	out := []string{s[0].name}
	for _, c := range s[1:min(len(s), maxCandidates)] {
		if c.score < threshold {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// similarNames returns the names closest to target by Jaro-Winkler
// similarity, DuckDB's choice for unknown columns and tables. Each name
// is scored by its bare form (a column qualified as "table.column" by the
// column), bare[i], or by itself when bare is nil.
func similarNames(names, bare []string, target string) []string {
	s := make([]scored, len(names))
	for i, n := range names {
		b := n
		if bare != nil {
			b = bare[i]
		}
		s[i] = scored{n, similarity(b, target)}
	}
	return topScored(s, 0.5)
}

// prefixNames returns the names closest to target by an edit distance in
// which a substitution costs 3 and a longer name is cut to target's length,
// DuckDB's choice for a column missing from a named table.
func prefixNames(names []string, target string) []string {
	const threshold = 5
	dist := make([]int, len(names))
	worst := threshold
	for i, n := range names {
		if len(target) < len(n) {
			n = n[:len(target)]
		}
		dist[i] = editDistancePenalty(strings.ToLower(n), strings.ToLower(target), 3)
		worst = max(worst, dist[i])
	}
	norm := func(d int) float64 { return 1 - float64(d)/float64(worst) }
	s := make([]scored, len(names))
	for i, n := range names {
		s[i] = scored{n, norm(dist[i])}
	}
	return topScored(s, norm(threshold))
}

// candidatesLine formats names as `\n<label>: "a", "b"`, or "" for none.
func candidatesLine(label string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return "\n" + label + ": " + strings.Join(quoted, ", ")
}

// editDistancePenalty is the Levenshtein distance of a and b (bytes) with
// a substitution costing sub.
func editDistancePenalty(a, b string, sub int) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := sub
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// similarity is DuckDB's Jaro-Winkler similarity of a and b, byte by byte and
// case-sensitive: 0 for nothing in common, 1 for equal strings. The
// common prefix (up to 4 bytes) adds 0.1 per byte of the remaining
// distance, and only to a Jaro similarity above 0.7.
func similarity(a, b string) float64 {
	sim := jaroSimilarity(a, b)
	if sim <= 0.7 {
		return sim
	}
	prefix := 0
	for prefix < min(len(a), len(b), 4) && a[prefix] == b[prefix] {
		prefix++
	}
	return sim + float64(prefix)*0.1*(1-sim)
}

// jaroSimilarity is the Jaro similarity of a and b: characters match when equal and
// at most max(len)/2-1 apart; transpositions are matched characters out of
// order, counted in halves.
func jaroSimilarity(a, b string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if len(a) == 1 && len(b) == 1 {
		if a[0] == b[0] {
			return 1
		}
		return 0
	}
	bound := max(len(a), len(b))/2 - 1
	usedA := make([]bool, len(a))
	usedB := make([]bool, len(b))
	m := 0
	for j := 0; j < len(b); j++ {
		for i := max(0, j-bound); i < min(len(a), j+bound+1); i++ {
			if !usedA[i] && a[i] == b[j] {
				usedA[i], usedB[j] = true, true
				m++
				break
			}
		}
	}
	if m == 0 {
		return 0
	}
	t, i := 0, 0
	for j := 0; j < len(b); j++ {
		if !usedB[j] {
			continue
		}
		for !usedA[i] {
			i++
		}
		if a[i] != b[j] {
			t++
		}
		i++
	}
	fm := float64(m)
	return (fm/float64(len(a)) + fm/float64(len(b)) + (fm-float64(t/2))/fm) / 3
}
