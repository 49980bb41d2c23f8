package format

import (
	"math"
	"slices"

	"github.com/pqsql/pqsql/format/meta"
)

// Values holds decoded values of one physical type, columnar: only the
// slice matching Type is used. Nulls are not stored here; definition levels
// say where they are.
type Values struct {
	Type   meta.Type
	Bool   []bool
	Int32  []int32
	Int64  []int64
	Int96  [][12]byte
	Float  []float32
	Double []float64
	// Bytes holds BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values; they may alias
	// page buffers and must not be modified.
	Bytes [][]byte
	// page, when not nil, is the pooled dictionary page the numbers are a
	// view of (dictpool.go).
	page []byte
}

// Len is the number of values.
func (v *Values) Len() int {
	switch v.Type {
	case meta.Boolean:
		return len(v.Bool)
	case meta.Int32:
		return len(v.Int32)
	case meta.Int64:
		return len(v.Int64)
	case meta.Int96:
		return len(v.Int96)
	case meta.Float:
		return len(v.Float)
	case meta.Double:
		return len(v.Double)
	default:
		return len(v.Bytes)
	}
}

// appendIndexed appends dict[idx] for every index, checking each index.
func (v *Values) appendIndexed(dict *Values, idx []int32) (bad int32, ok bool) {
	n := int32(dict.Len())
	for _, i := range idx {
		if i < 0 || i >= n {
			return i, false
		}
	}
	switch v.Type {
	case meta.Boolean:
		v.Bool = gatherInto(v.Bool, dict.Bool, idx)
	case meta.Int32:
		v.Int32 = gatherInto(v.Int32, dict.Int32, idx)
	case meta.Int64:
		v.Int64 = gatherInto(v.Int64, dict.Int64, idx)
	case meta.Int96:
		v.Int96 = gatherInto(v.Int96, dict.Int96, idx)
	case meta.Float:
		v.Float = gatherInto(v.Float, dict.Float, idx)
	case meta.Double:
		v.Double = gatherInto(v.Double, dict.Double, idx)
	default:
		v.Bytes = gatherInto(v.Bytes, dict.Bytes, idx)
	}
	return 0, true
}

// gatherInto appends dict[i] for each index, which the caller has checked:
// the slice grows once and the loop stores, rather than appending per value.
func gatherInto[T any](dst, dict []T, idx []int32) []T {
	n := len(dst)
	dst = slices.Grow(dst, len(idx))[:n+len(idx)]
	out := dst[n:]
	for k, i := range idx {
		out[k] = dict[i]
	}
	return dst
}

// PlainBytes returns value i in PLAIN physical form (little-endian numbers,
// raw bytes for byte arrays), as statistics and Bloom filters hold them.
func (v *Values) PlainBytes(i int, dst []byte) []byte {
	switch v.Type {
	case meta.Boolean:
		if v.Bool[i] {
			return append(dst, 1)
		}
		return append(dst, 0)
	case meta.Int32:
		x := uint32(v.Int32[i])
		return append(dst, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	case meta.Int64:
		x := uint64(v.Int64[i])
		return append(dst, byte(x), byte(x>>8), byte(x>>16), byte(x>>24), byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56))
	case meta.Int96:
		return append(dst, v.Int96[i][:]...)
	case meta.Float:
		x := math.Float32bits(v.Float[i])
		return append(dst, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	case meta.Double:
		x := math.Float64bits(v.Double[i])
		return append(dst, byte(x), byte(x>>8), byte(x>>16), byte(x>>24), byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56))
	default:
		return append(dst, v.Bytes[i]...)
	}
}
