package thrift

import (
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestTmpCPU(t *testing.T) {
	footer, _ := EncodeFileMetaData(wideFooter(100, 100))
	for range 5 {
		DecodeFileMetaData(footer)
	}
	const n = 300
	start := cpuNow()
	for range n {
		DecodeFileMetaData(footer)
	}
	t.Logf("footer %d bytes: %v CPU per decode (incl. GC)", len(footer), (cpuNow()-start)/n)
}
