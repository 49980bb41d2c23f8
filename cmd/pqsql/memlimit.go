package main

import "runtime/debug"

// applyMemoryLimit keeps the Go runtime's soft memory limit at the
// session's memory_limit, so that near it the collector works harder
// rather than the process growing past what the statement was allowed.
func (sh *shell) applyMemoryLimit() {
	n := sh.session.Settings.EffectiveMemoryLimit()
	if n != sh.gcLimit {
		debug.SetMemoryLimit(n)
		sh.gcLimit = n
	}
}
