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
// Decoding is strict about what a correct writer always produces (wire types
// that match parquet.thrift, required fields present, unions with exactly one
// member) and lenient about what a newer writer may add: unknown fields are
// skipped, unknown union members are kept by field id, and enum values are
// passed through unchecked for the caller to judge.
//
// The encoders write whatever the Go value says, without validating it, so
// tests can build both well-formed and deliberately odd footers.
package thrift
