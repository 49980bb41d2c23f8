package exec

import "github.com/pqsql/pqsql/format"

// EffectiveMemoryLimit is the session's memory_limit in bytes, its default
// when none was set.
func (s *Settings) EffectiveMemoryLimit() int64 {
	if s.MemoryLimit > 0 {
		return s.MemoryLimit
	}
	return defaultMemoryLimit()
}

// readLimits are the reader's limits under the session's memory limit: no
// one column read may decode more than a whole statement may hold.
func (s *Settings) readLimits() format.Limits {
	l := format.DefaultLimits
	l.MaxDecodedBytes = min(l.MaxDecodedBytes, s.EffectiveMemoryLimit())
	return l
}
