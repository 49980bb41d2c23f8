package planner

// A RANGE frame over a DATE or TIMESTAMP key with an INTERVAL offset
// (RANGE BETWEEN INTERVAL 7 DAY PRECEDING AND CURRENT ROW) cannot add the
// offset to the key in DOUBLE: a month is not a fixed number of
// microseconds. Its bounds are computed per row instead, as DuckDB does:
// the key moved by the interval with calendar arithmetic, then compared as
// microseconds since the epoch, the unit of its RangeKey.

// isTemporalRange reports whether a key of type kt with an offset of type
// ot makes such a frame.
func isTemporalRange(kt, ot Type) bool {
	switch kt.ID {
	case TypeDate, TypeTimestamp, TypeTimestampTZ:
		return ot.ID == TypeInterval
	}
	return false
}

// epochMicros is x, a DATE or TIMESTAMP, as microseconds since the epoch
// in DOUBLE.
func epochMicros(x Expr) (Expr, error) {
	var err error
	if x.Type().ID == TypeDate {
		if x, err = castTo(x, Type{ID: TypeTimestamp}); err != nil {
			return nil, err
		}
	}
	us, err := call("epoch_us", []Expr{x})
	if err != nil {
		return nil, err
	}
	return castTo(us, tDouble)
}

// temporalTarget is the per-row bound of a frame over key: the key moved
// back (toward smaller values) or forward by off, in microseconds.
func temporalTarget(key, off Expr, back bool) (Expr, error) {
	op := "+"
	if back {
		op = "-"
	}
	moved, err := arithmetic(op, key, off)
	if err != nil {
		return nil, err
	}
	return epochMicros(moved)
}
