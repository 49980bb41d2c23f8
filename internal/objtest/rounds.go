package objtest

import (
	"sort"
	"time"
)

// Rounds counts the sequential round trips among requests: a request
// that arrived before the first answer of the current round was sent
// could not have waited for it, so it belongs to that round; one that
// arrived later starts the next. Inject latency well above the client's
// scheduling delays: requests sent together then fall in one round even
// when a loaded machine sends them some milliseconds apart.
func Rounds(reqs []Request) int {
	rs := append([]Request(nil), reqs...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].At.Before(rs[j].At) })
	rounds := 0
	var end time.Time // the first answer of the current round
	for _, r := range rs {
		done := r.Done
		if done.IsZero() {
			done = r.At // not answered when counted: ends nothing later
		}
		if rounds == 0 || !r.At.Before(end) {
			rounds++
			end = done
			continue
		}
		if done.Before(end) {
			end = done
		}
	}
	return rounds
}
