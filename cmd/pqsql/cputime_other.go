//go:build !unix

package main

import "time"

// cpuTimes returns zero where the process's CPU times are not available.
func cpuTimes() (user, sys time.Duration) { return 0, 0 }
