package planner

// The aggregate functions and their result types; the executor
// accumulates them by name.
func init() {
	registerAggregate(
		&AggregateFunc{Name: "count", Result: func(Type) (Type, error) { return tBigInt, nil }},
		&AggregateFunc{Name: "sum", Result: func(at Type) (Type, error) {
			switch {
			case at.IsInteger() || at.ID == TypeBoolean || at.ID == TypeNull:
				return Type{ID: TypeHugeInt}, nil
			case at.ID == TypeDecimal:
				return Type{ID: TypeDecimal, Precision: 38, Scale: at.Scale}, nil
			case at.ID == TypeFloat || at.ID == TypeDouble:
				return tDouble, nil
			}
			return Type{}, binderError("No function matches the given name and argument types 'sum(%s)'. You might need to add explicit type casts.", at)
		}},
		&AggregateFunc{Name: "avg", Aliases: []string{"mean"}, Result: func(at Type) (Type, error) {
			if !at.IsNumeric() && at.ID != TypeNull {
				return Type{}, binderError("No function matches the given name and argument types 'avg(%s)'. You might need to add explicit type casts.", at)
			}
			return tDouble, nil
		}},
		&AggregateFunc{Name: "min", Result: func(at Type) (Type, error) { return at, nil }},
		&AggregateFunc{Name: "max", Result: func(at Type) (Type, error) { return at, nil }},
	)
}
