//go:build !linux

package exec

// mapTable maps nothing here: the tables live in the Go heap.
func mapTable(size int) []byte { return nil }

func unmapTable(b []byte) {}
