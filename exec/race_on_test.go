//go:build race

package exec

// raceEnabled says the race detector is on: it slows the client by up to
// ten times, so that requests sent together can reach the server hundreds
// of milliseconds apart and round trips cannot be told from arrival times.
const raceEnabled = true
