// Package thrift reads and writes Parquet's thrift metadata (parquet.thrift)
// in the compact protocol: the file footer, page headers, the page index and
// Bloom filter headers, decoded into the plain structures of format/meta.
//
// It is the only package of pqsql that imports github.com/apache/thrift.
// Decoders are written by hand against the field ids of parquet.thrift, with
// no reflection and no generated code. They treat their input as hostile:
// every length and count is checked against the bytes left before it sizes an
// allocation, struct nesting is limited, and malformed input returns an error
// wrapping ErrCorrupt that names the struct and field path, never a panic.
//
// Decoding is strict about what a correct writer always produces (required
// fields present, list elements of the declared type, unions with exactly one
// member) and lenient about what other writers do: unknown fields are
// skipped, a known field of another wire type is skipped as thrift's
// generated readers skip it, unknown union members are kept by field id,
// bytes after the struct are ignored, and enum values are passed through
// unchecked for the caller to judge.
//
// Field headers, lists, numbers and skipping go through the library's
// TCompactProtocol; string and binary payloads are read straight from the
// input, so their lengths are checked before anything is allocated.
//
// The encoders write whatever the Go value says, without validating it, so
// tests can build both well-formed and deliberately odd footers.
package thrift
