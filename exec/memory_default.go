package exec

import "sync"

// defaultMemoryShare is the share of the machine's memory memory_limit
// defaults to, as in DuckDB: 80%.
const defaultMemoryShare = 0.8

// fallbackMemoryLimit is the default limit where the machine's memory
// cannot be read.
const fallbackMemoryLimit = 4 << 30

// defaultMemoryLimit is the limit a session starts with: 80% of the
// machine's memory (or of its cgroup's limit).
var defaultMemoryLimit = sync.OnceValue(func() int64 {
	if n := physicalMemory(); n > 0 {
		return int64(float64(n) * defaultMemoryShare)
	}
	return fallbackMemoryLimit
})
