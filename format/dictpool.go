package format

import (
	"sync"

	"github.com/pqsql/pqsql/format/meta"
)

// A dictionary of numbers is decoded into storage of its own, row group
// after row group: a chunk of unique int64s carries a dictionary of a
// megabyte before its writer falls back to plain pages. Readers whose
// caller says it is done with them (PageReader.Close) hand that storage
// back, and the next dictionary of the scan is decoded into it.
var (
	dictInt32s  sync.Pool // *[]int32
	dictInt64s  sync.Pool // *[]int64
	dictFloats  sync.Pool // *[]float32
	dictDoubles sync.Pool // *[]float64
)

// reserveDict gives v, an empty dictionary of numbers about to hold n
// values, pooled storage for them when a pooled slice is large enough.
func reserveDict(v *Values, n int) {
	switch v.Type {
	case meta.Int32:
		v.Int32 = pooledDict[int32](&dictInt32s, n)
	case meta.Int64:
		v.Int64 = pooledDict[int64](&dictInt64s, n)
	case meta.Float:
		v.Float = pooledDict[float32](&dictFloats, n)
	case meta.Double:
		v.Double = pooledDict[float64](&dictDoubles, n)
	}
}

func pooledDict[T any](p *sync.Pool, n int) []T {
	s, ok := p.Get().(*[]T)
	if !ok {
		return nil
	}
	if cap(*s) < n {
		p.Put(s) // it serves a smaller dictionary
		return nil
	}
	return (*s)[:0]
}

// releaseDict hands the storage of v, a dictionary of numbers no one uses
// any more, back for later dictionaries.
func releaseDict(v *Values) {
	switch v.Type {
	case meta.Int32:
		putDict(&dictInt32s, v.Int32)
	case meta.Int64:
		putDict(&dictInt64s, v.Int64)
	case meta.Float:
		putDict(&dictFloats, v.Float)
	case meta.Double:
		putDict(&dictDoubles, v.Double)
	}
	*v = Values{Type: v.Type}
}

func putDict[T any](p *sync.Pool, s []T) {
	if cap(s) > 0 {
		s = s[:0]
		p.Put(&s)
	}
}
