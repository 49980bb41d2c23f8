package format

import (
	"sync"

	"github.com/pqsql/pqsql/format/internal/thrift"
)

// The files of a glob almost always repeat one schema, and a footer
// decodes to schema elements and a Schema tree of its own for each. The
// last few footers opened keep theirs here, with what their decoding made
// of them: a footer whose schema list repeats one's bytes decodes to that
// one's elements, and shares its Schema rather than build one a file.
// Schemas are read-only once built, so files opened at once share them.
const maxRecentSchemas = 4

var recentSchemas struct {
	mu sync.Mutex
	// known and schemas are replaced, never changed, so that a footer
	// decodes with known as it was without holding mu; newest first.
	known   []*thrift.Known
	schemas []*Schema
}

// recentKnown returns the footers' schemas a footer may repeat.
func recentKnown() []*thrift.Known {
	rs := &recentSchemas
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.known
}

// sharedSchema returns the Schema built of k's elements, nil when it is no
// longer kept.
func sharedSchema(k *thrift.Known) *Schema {
	rs := &recentSchemas
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for i, x := range rs.known {
		if x == k {
			return rs.schemas[i]
		}
	}
	return nil
}

// keepSchema keeps s, built of k's elements, for the footers after it.
func keepSchema(k *thrift.Known, s *Schema) {
	rs := &recentSchemas
	rs.mu.Lock()
	defer rs.mu.Unlock()
	n := min(len(rs.known), maxRecentSchemas-1)
	known := make([]*thrift.Known, 0, n+1)
	schemas := make([]*Schema, 0, n+1)
	known = append(append(known, k), rs.known[:n]...)
	schemas = append(append(schemas, s), rs.schemas[:n]...)
	rs.known, rs.schemas = known, schemas
}
