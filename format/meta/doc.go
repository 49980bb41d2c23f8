// Package meta holds the Parquet metadata structures of parquet.thrift as
// plain Go values: the footer, schema elements, column chunk metadata,
// statistics, page headers, the page index and Bloom filter headers.
//
// The structures mirror the thrift definitions field for field. Optional
// thrift scalars are pointers, so "absent" and "zero" stay distinct: a
// reader deciding whether to trust a statistic needs that difference.
// Decoding lives in format/internal/thrift; this package imports nothing.
package meta
