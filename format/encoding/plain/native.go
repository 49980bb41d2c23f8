package plain

import (
	"encoding/binary"
	"unsafe"
)

// littleEndian: the machine stores numbers as PLAIN does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// copyNative fills out with the fixed-width values at the front of data,
// byte for byte, when the machine stores them as PLAIN does; it reports
// whether it did. The caller has checked that data holds them.
func copyNative[T int32 | int64 | float32 | float64](out []T, data []byte) bool {
	if !littleEndian || len(out) == 0 {
		return false
	}
	size := int(unsafe.Sizeof(out[0]))
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), len(out)*size), data)
	return true
}
