// Package delta decodes the Parquet delta encodings: DELTA_BINARY_PACKED
// (= 5) for INT32 and INT64, DELTA_LENGTH_BYTE_ARRAY (= 6) for BYTE_ARRAY,
// and DELTA_BYTE_ARRAY (= 7) for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
//
// Decoding never allocates by a count read from the data beyond the n values
// the caller asks for, arithmetic wraps in two's complement as the spec
// requires, and malformed input yields an error wrapping a sentinel of
// errors.go. Byte arrays of DELTA_LENGTH_BYTE_ARRAY alias the input;
// DELTA_BYTE_ARRAY values share one new allocation per call.
package delta
