//go:build !linux

package exec

// physicalMemory is 0 where pqsql does not read the machine's memory size;
// the default limit is then a fixed size.
func physicalMemory() int64 { return 0 }
