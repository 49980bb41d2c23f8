package main

import "errors"

var (
	// errUsage means the command line was wrong.
	errUsage = errors.New("bench: usage")
	// errGenerate means the fixture generator could not write the files.
	errGenerate = errors.New("bench: generating files")
	// errProc means a /proc file of this process could not be read or
	// parsed; the measurements need Linux.
	errProc = errors.New("bench: reading /proc")
	// errEngine means an engine failed to set up; a query that fails is
	// reported in its row instead.
	errEngine = errors.New("bench: engine")
)
