package stats

import (
	"encoding/binary"

	"github.com/pqsql/pqsql/format/meta"
)

// timeOutsideDay refuses bounds of a TIME column that fall outside a day.
// The reader wraps a negative TIME into the day (DuckDB reads -3:51:39 as
// 20:08:21), so bounds on the stored ticks no longer bound the values read.
func timeOutsideDay(e *meta.SchemaElement, p pair) string {
	day, ok := timeTicksPerDay(e)
	if !ok {
		return ""
	}
	for _, b := range []struct {
		has bool
		v   []byte
	}{{p.hasMin, p.min}, {p.hasMax, p.max}} {
		if !b.has {
			continue
		}
		var t int64
		switch len(b.v) {
		case 4:
			t = int64(int32(binary.LittleEndian.Uint32(b.v)))
		case 8:
			t = int64(binary.LittleEndian.Uint64(b.v))
		default:
			continue
		}
		if t < 0 || t > day {
			return "a TIME bound lies outside the day, and values read are wrapped into it"
		}
	}
	return ""
}

// timeTicksPerDay is the ticks in a day of a TIME leaf's unit.
func timeTicksPerDay(e *meta.SchemaElement) (int64, bool) {
	if e == nil || e.Type == nil {
		return 0, false
	}
	unit := meta.TimeUnit(0)
	switch {
	case e.LogicalType != nil && e.LogicalType.Time != nil:
		unit = e.LogicalType.Time.Unit
	case e.LogicalType == nil && e.ConvertedType != nil && *e.ConvertedType == meta.ConvTimeMillis:
		unit = meta.Millis
	case e.LogicalType == nil && e.ConvertedType != nil && *e.ConvertedType == meta.ConvTimeMicros:
		unit = meta.Micros
	}
	switch unit {
	case meta.Millis:
		return 86400e3, true
	case meta.Micros:
		return 86400e6, true
	case meta.Nanos:
		return 86400e9, true
	}
	return 0, false
}
