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
	farFuture := time.Now().Add(100 * 365 * 24 * time.Hour)
	rs := append([]Request(nil), reqs...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].At.Before(rs[j].At) })
	rounds := 0
	var end time.Time // the first answer of the current round
	for _, r := range rs {
		done := r.Done
		if done.IsZero() {
			// Not answered when counted (its client may have its bytes
			// before the server notes the answer sent): no later request
			// can have waited for it.
			done = farFuture
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
