// Package rle decodes the Parquet RLE/bit-packing hybrid encoding (RLE = 3),
// used for repetition and definition levels, dictionary indices and
// RLE-encoded booleans, and the deprecated BIT_PACKED encoding (= 4) of
// levels.
//
// The package knows nothing of pages or files: callers hand it the encoded
// bytes (without the 4-byte length prefix that some pages carry) and the bit
// width. Every count and length read from the input is checked before it is
// used, so corrupt input yields an error wrapping one of the sentinels in
// errors.go, never a panic or an allocation sized by the input.
package rle
