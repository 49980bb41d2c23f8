package planner

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
)

// duckHash is DuckDB 1.5's hash of one non-NULL scalar value, the hash its
// approx_count_distinct feeds to HyperLogLog: an estimate equals DuckDB's
// only when every value hashes to the same 64 bits. Each value is hashed in
// DuckDB's physical form (DATE as int32 days, DECIMAL as its unscaled
// integer of the width its precision takes, BOOLEAN as int8). Nested and
// named binary types are refused: their hashes combine children's in ways
// pqsql does not reproduce.
func duckHash(d Datum, t Type) (uint64, error) {
	switch t.ID {
	case TypeBoolean:
		if d.B {
			return hashNarrow(1), nil
		}
		return hashNarrow(0), nil
	case TypeTinyInt, TypeSmallInt, TypeInteger, TypeDate:
		// Narrow signed integers are sign-extended to 32 bits, then hashed
		// as that unsigned 32-bit value.
		return hashNarrow(uint32(int32(d.I))), nil
	case TypeUTinyInt, TypeUSmallInt, TypeUInteger:
		return hashNarrow(uint32(d.I)), nil
	case TypeBigInt, TypeUBigInt, TypeTime, TypeTimeNS, TypeTimestamp, TypeTimestampNS, TypeTimestampTZ:
		return murmur64(uint64(d.I)), nil
	case TypeTimeTZ:
		// dtime_tz_t: microseconds above 24 bits of offset, stored as
		// 15:59:59 minus the offset in seconds; pqsql's offset is +00.
		return murmur64(uint64(d.I)<<24 | 57599), nil
	case TypeHugeInt:
		lo, hi := splitHuge(bigOf(d, t))
		return murmur64(lo) ^ murmur64(hi), nil
	case TypeDecimal:
		u := bigOf(d, t)
		switch {
		case t.Precision <= 4:
			return hashNarrow(uint32(int32(int16(u.Int64())))), nil
		case t.Precision <= 9:
			return hashNarrow(uint32(int32(u.Int64()))), nil
		case t.Precision <= 18:
			return murmur64(uint64(u.Int64())), nil
		}
		lo, hi := splitHuge(u)
		return murmur64(lo) ^ murmur64(hi), nil
	case TypeFloat:
		f := float32(d.F)
		bits := math.Float32bits(f)
		switch {
		case f == 0:
			bits = 0 // -0 hashes as 0, as they are equal
		case f != f:
			bits = 0x7fc00000 // every NaN as the one quiet NaN
		}
		return murmur64(uint64(bits)), nil
	case TypeDouble:
		bits := math.Float64bits(d.F)
		switch {
		case d.F == 0:
			bits = 0
		case math.IsNaN(d.F):
			bits = 0x7ff8000000000000
		}
		return murmur64(bits), nil
	case TypeVarchar:
		return hashBytes([]byte(d.S)), nil
	case TypeBlob:
		if isPlainBlob(t) {
			return hashBytes(d.Bytes), nil
		}
	case TypeUUID:
		if len(d.Bytes) == 16 {
			// A UUID is a HUGEINT whose top bit is flipped, so that
			// signed order is the textual order.
			hi := binary.BigEndian.Uint64(d.Bytes[:8]) ^ 1<<63
			lo := binary.BigEndian.Uint64(d.Bytes[8:])
			return murmur64(lo) ^ murmur64(hi), nil
		}
	case TypeInterval:
		months, days, micros := IntervalOf(d.Bytes).normalized()
		return murmur64(uint64(days)) ^ murmur64(uint64(months)) ^ murmur64(uint64(micros)), nil
	}
	return 0, fmt.Errorf("%w: hashing %s values as DuckDB does", ErrNotImplemented, t)
}

// isPlainBlob reports whether a binary type is BLOB itself, not GEOMETRY
// or another type stored as bytes, which DuckDB hashes in its own form.
func isPlainBlob(t Type) bool { return t.Name == "" || t.Name == "BLOB" }

// murmur64 is DuckDB's integer hash (a 64-bit finalizer).
func murmur64(x uint64) uint64 {
	x ^= x >> 32
	x *= 0xd6e8feb86659fd93
	x ^= x >> 32
	x *= 0xd6e8feb86659fd93
	x ^= x >> 32
	return x
}

// hashNarrow hashes a value of at most 32 bits, zero-extended.
func hashNarrow(v uint32) uint64 { return murmur64(uint64(v)) }

// hashBytes is DuckDB's hash of a string or blob: 8-byte little-endian
// words folded into a length-seeded state, the tail zero-padded, then
// finalized as an integer.
func hashBytes(b []byte) uint64 {
	h := uint64(0xe17a1465) ^ uint64(len(b))*0xc6a4a7935bd1e995
	for len(b) >= 8 {
		h ^= binary.LittleEndian.Uint64(b)
		h *= 0xd6e8feb86659fd93
		b = b[8:]
	}
	if len(b) > 0 {
		var tail [8]byte
		copy(tail[:], b)
		h ^= binary.LittleEndian.Uint64(tail[:])
		h *= 0xd6e8feb86659fd93
	}
	return murmur64(h)
}

// splitHuge is a 128-bit integer's two's-complement halves.
func splitHuge(v *big.Int) (lo, hi uint64) {
	m := new(big.Int).And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1)))
	lo = new(big.Int).And(m, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi = new(big.Int).Rsh(m, 64).Uint64()
	return lo, hi
}
