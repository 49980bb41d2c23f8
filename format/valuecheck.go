package format

import (
	"fmt"
	"unicode/utf8"

	"github.com/pqsql/pqsql/format/meta"
)

// valueCheck is what a leaf's decoded values must be checked or adjusted
// for, decided once per chunk from its logical type.
type valueCheck struct {
	// utf8: string values must be valid UTF-8; DuckDB fails the read of a
	// VARCHAR column holding other bytes rather than return them raw.
	utf8 bool
	// timeDay: TIME values are wrapped into [0, timeDay) ticks, as DuckDB
	// reads a negative TIME (-3:51:39 is 20:08:21); 0 when not a TIME.
	timeDay int64
}

func newValueCheck(l *Leaf) valueCheck {
	lg := LogicalOf(l)
	switch lg.Kind {
	case KindString:
		return valueCheck{utf8: true}
	case KindTime, KindTimeTZ:
		return valueCheck{timeDay: 86400 * unitsPerSecond(lg.Unit)}
	}
	return valueCheck{}
}

// apply checks and adjusts the values of v from index first on.
func (c valueCheck) apply(v *Values, first int) error {
	switch {
	case c.utf8:
		for i, b := range v.Bytes[first:] {
			if !utf8.Valid(b) {
				return fmt.Errorf("%w: value %d is not valid UTF-8: %q", ErrInvalidString, i, truncateForError(b))
			}
		}
	case c.timeDay > 0 && v.Type == meta.Int32:
		for i, t := range v.Int32[first:] {
			if t < 0 {
				v.Int32[first+i] = int32(int64(t)%c.timeDay + c.timeDay)
			}
		}
	case c.timeDay > 0 && v.Type == meta.Int64:
		for i, t := range v.Int64[first:] {
			if t < 0 {
				v.Int64[first+i] = t%c.timeDay + c.timeDay
			}
		}
	}
	return nil
}

// truncateForError shortens a value quoted in an error.
func truncateForError(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}
