//go:build race

package thrift

// raceEnabled says the race detector is on: sync.Pool then drops what is
// put in it at random, so a pooled decoder may be allocated again.
const raceEnabled = true
