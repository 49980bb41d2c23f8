package bytestreamsplit

import (
	"fmt"
	"slices"
)

// Decode gathers the first n values of width bytes each from data and
// appends them to dst in PLAIN layout. The streams span all of data, whose
// length must be a multiple of width: the spec ends them with the page, so
// the stream length is len(data)/width, which may exceed n.
func Decode(dst []byte, data []byte, width, n int) ([]byte, error) {
	return DecodeFrom(dst, data, width, 0, n)
}

// DecodeFrom is Decode of the n values from value first on, so that a page
// decodes a part at a time.
func DecodeFrom(dst []byte, data []byte, width, first, n int) ([]byte, error) {
	if width < 1 || n < 0 || first < 0 {
		return dst, fmt.Errorf("%w: width %d, first %d, count %d", ErrInvalid, width, first, n)
	}
	if len(data)%width != 0 {
		return dst, fmt.Errorf("%w: %d bytes are not a whole number of %d-byte values", ErrCorrupt, len(data), width)
	}
	stride := len(data) / width
	if n > stride-min(first, stride) {
		return dst, fmt.Errorf("%w: values %d to %d of %d bytes, have %d bytes", ErrTruncated, first, first+n, width, len(data))
	}
	// Each stream is read from value first on; data is advanced so the
	// loops below index from 0 and the k-th stream still starts at
	// k*stride.
	data = data[first:]
	start := len(dst)
	dst = slices.Grow(dst, n*width)[:start+n*width]
	out := dst[start:]
	switch width {
	case 4:
		s0, s1, s2, s3 := data[:n], data[stride:stride+n], data[2*stride:2*stride+n], data[3*stride:3*stride+n]
		for i := range n {
			o := out[4*i : 4*i+4 : 4*i+4]
			o[0], o[1], o[2], o[3] = s0[i], s1[i], s2[i], s3[i]
		}
	case 8:
		var s [8][]byte
		for k := range s {
			s[k] = data[k*stride : k*stride+n]
		}
		for i := range n {
			o := out[8*i : 8*i+8 : 8*i+8]
			o[0], o[1], o[2], o[3] = s[0][i], s[1][i], s[2][i], s[3][i]
			o[4], o[5], o[6], o[7] = s[4][i], s[5][i], s[6][i], s[7][i]
		}
	default:
		for k := range width {
			for i, b := range data[k*stride : k*stride+n] {
				out[i*width+k] = b
			}
		}
	}
	return dst, nil
}
