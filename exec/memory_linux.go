package exec

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// physicalMemory is the memory the process may use: the machine's RAM, or
// the cgroup's limit when a container sets a lower one (as DuckDB reads
// it), 0 when neither can be read.
func physicalMemory() int64 {
	var info syscall.Sysinfo_t
	var total int64
	if syscall.Sysinfo(&info) == nil {
		total = int64(info.Totalram) * int64(info.Unit)
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	return total
}
