// Package craft assembles Parquet files byte by byte from a description of
// their schema, pages and metadata, so that tests can build files no real
// writer produces: metadata that contradicts itself, pages that expand a
// thousandfold, indexes that misplace rows. It checks nothing; what it is
// told to write, it writes.
package craft
