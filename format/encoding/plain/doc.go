// Package plain decodes the Parquet PLAIN encoding (= 0) of every physical
// type: booleans bit-packed LSB first, fixed-width little-endian numbers,
// length-prefixed byte arrays and fixed-length byte arrays.
//
// Each function appends n values to dst and fails, before growing dst, when
// the data cannot hold n values. Byte array values alias the input data
// (capacity-limited, so appending to one cannot overwrite its neighbour);
// callers that keep them past the page buffer's life must copy.
package plain
