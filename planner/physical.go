package planner

// physicalName is how DuckDB's cast and overflow errors name a type: an
// integer by the C++ type that holds it (INT32 for INTEGER), BOOLEAN as
// BOOL, any other type as it prints.
func physicalName(t Type) string {
	switch t.ID {
	case TypeTinyInt:
		return "INT8"
	case TypeSmallInt:
		return "INT16"
	case TypeInteger:
		return "INT32"
	case TypeBigInt:
		return "INT64"
	case TypeHugeInt:
		return "INT128"
	case TypeUTinyInt:
		return "UINT8"
	case TypeUSmallInt:
		return "UINT16"
	case TypeUInteger:
		return "UINT32"
	case TypeUBigInt:
		return "UINT64"
	case TypeBoolean:
		return "BOOL"
	}
	return t.String()
}
