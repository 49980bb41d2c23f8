// Package bytestreamsplit decodes the Parquet BYTE_STREAM_SPLIT encoding
// (= 9): K byte streams, one per byte of a K-byte value, concatenated. It
// gathers them back into the PLAIN little-endian layout, so the result can
// be read with package plain.
package bytestreamsplit
