package main

import (
	"fmt"
	"time"
)

// A timerStart is the wall clock and the process's CPU times when a
// statement began, for .timer on.
type timerStart struct {
	wall      time.Time
	user, sys time.Duration
}

func startTimer() timerStart {
	user, sys := cpuTimes()
	return timerStart{wall: time.Now(), user: user, sys: sys}
}

// report is the line .timer on prints, in DuckDB's format:
// "Run Time (s): real 0.012 user 0.010411 sys 0.001206".
func (t timerStart) report() string {
	user, sys := cpuTimes()
	return fmt.Sprintf("Run Time (s): real %.3f user %f sys %f\n",
		time.Since(t.wall).Seconds(), (user - t.user).Seconds(), (sys - t.sys).Seconds())
}
