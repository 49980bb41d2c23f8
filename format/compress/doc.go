// Package compress decompresses Parquet pages for every codec of
// parquet.thrift except LZO: UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD,
// LZ4_RAW and the deprecated Hadoop-framed LZ4.
//
// Decompress promises output of exactly the size the page header declares
// or an error; it never lets a codec write much beyond that size, so a
// corrupt or hostile page cannot make it allocate more than the caller has
// already agreed to. The caller is responsible for checking the declared
// size against its limits.
package compress
