//go:build race

package format

// raceEnabled says the race detector is on: sync.Pool then drops what is
// put in it at random, so a pooled reader may be made again.
const raceEnabled = true
