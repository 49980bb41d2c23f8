package planner

import (
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/sql"
	"github.com/pqsql/pqsql/sql/ast"
)

// intRank orders integer types for finding a common type; decimalWidth is
// the DECIMAL width an integer type converts to.
var (
	intBits = map[TypeID]int{TypeTinyInt: 8, TypeSmallInt: 16, TypeInteger: 32, TypeBigInt: 64, TypeHugeInt: 128,
		TypeUTinyInt: 8, TypeUSmallInt: 16, TypeUInteger: 32, TypeUBigInt: 64}
	decimalWidth = map[TypeID]int{TypeTinyInt: 3, TypeSmallInt: 5, TypeInteger: 10, TypeBigInt: 19, TypeHugeInt: 38,
		TypeUTinyInt: 3, TypeUSmallInt: 5, TypeUInteger: 10, TypeUBigInt: 20}
)

func signedOfBits(bits int) TypeID {
	switch {
	case bits <= 8:
		return TypeTinyInt
	case bits <= 16:
		return TypeSmallInt
	case bits <= 32:
		return TypeInteger
	case bits <= 64:
		return TypeBigInt
	}
	return TypeHugeInt
}

// asDecimal is the DECIMAL type an integer or decimal type converts to.
func asDecimal(t Type) Type {
	if t.ID == TypeDecimal {
		return t
	}
	return Type{ID: TypeDecimal, Precision: decimalWidth[t.ID]}
}

// commonType is the type two operands are cast to for comparing them, or
// false when DuckDB would find no implicit cast.
func commonType(a, b Type) (Type, bool) {
	switch {
	case a == b:
		return a, true
	case a.ID == TypeNull:
		return b, true
	case b.ID == TypeNull:
		return a, true
	case a.ID == TypeNested && b.ID == TypeNested:
		return commonNested(a, b)
	case a.IsNumeric() && b.IsNumeric():
		switch {
		case a.ID == TypeDouble || b.ID == TypeDouble:
			return Type{ID: TypeDouble}, true
		case a.ID == TypeFloat || b.ID == TypeFloat:
			return Type{ID: TypeFloat}, true
		case a.ID == TypeDecimal || b.ID == TypeDecimal:
			da, db := asDecimal(a), asDecimal(b)
			scale := max(da.Scale, db.Scale)
			return Type{ID: TypeDecimal, Precision: min(38, max(da.Precision-da.Scale, db.Precision-db.Scale)+scale), Scale: scale}, true
		}
		if a.IsUnsigned() == b.IsUnsigned() {
			if intBits[a.ID] >= intBits[b.ID] {
				return a, true
			}
			return b, true
		}
		u, s := a, b
		if b.IsUnsigned() {
			u, s = b, a
		}
		return Type{ID: signedOfBits(max(intBits[u.ID]*2, intBits[s.ID]))}, true
	case a.ID == TypeVarchar && b.ID != TypeNested:
		return b, true
	case b.ID == TypeVarchar && a.ID != TypeNested:
		return a, true
	case a.ID == TypeTimestampTZ && (isTimestamp(b) || b.ID == TypeDate):
		return a, true
	case b.ID == TypeTimestampTZ && (isTimestamp(a) || a.ID == TypeDate):
		return b, true
	case a.ID == TypeTimestampNS && b.ID == TypeTimestamp, b.ID == TypeTimestampNS && a.ID == TypeTimestamp:
		return Type{ID: TypeTimestampNS}, true
	case a.ID == TypeDate && isTimestamp(b):
		return b, true
	case b.ID == TypeDate && isTimestamp(a):
		return a, true
	}
	return Type{}, false
}

func isTimestamp(t Type) bool {
	return t.ID == TypeTimestamp || t.ID == TypeTimestampNS || t.ID == TypeTimestampTZ
}

// typeOfCast reads the target type of a CAST.
func typeOfCast(ct *ast.ConvertType) (Type, bool) {
	switch ct.Type {
	case sql.TypeBoolean:
		return Type{ID: TypeBoolean}, true
	case sql.TypeTinyint:
		return Type{ID: TypeTinyInt}, true
	case sql.TypeSmallint:
		return Type{ID: TypeSmallInt}, true
	case sql.TypeInteger:
		return Type{ID: TypeInteger}, true
	case sql.TypeBigint:
		return Type{ID: TypeBigInt}, true
	case sql.TypeHugeint:
		return Type{ID: TypeHugeInt}, true
	case sql.TypeUTinyint:
		return Type{ID: TypeUTinyInt}, true
	case sql.TypeUSmallint:
		return Type{ID: TypeUSmallInt}, true
	case sql.TypeUInteger:
		return Type{ID: TypeUInteger}, true
	case sql.TypeUBigint:
		return Type{ID: TypeUBigInt}, true
	case sql.TypeFloat:
		return Type{ID: TypeFloat}, true
	case sql.TypeDouble:
		return Type{ID: TypeDouble}, true
	case sql.TypeDecimal:
		t := Type{ID: TypeDecimal, Precision: 18, Scale: 3}
		if ct.Length != nil {
			t.Precision, _ = strconv.Atoi(string(ct.Length.Val))
			t.Scale = 0
		}
		if ct.Scale != nil {
			t.Scale, _ = strconv.Atoi(string(ct.Scale.Val))
		}
		if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
			return Type{}, false
		}
		return t, true
	case sql.TypeVarchar:
		return Type{ID: TypeVarchar}, true
	case sql.TypeBlob:
		return Type{ID: TypeBlob}, true
	case sql.TypeDate:
		return Type{ID: TypeDate}, true
	case sql.TypeTime:
		return tTime, true
	case sql.TypeInterval:
		return tInterval, true
	case sql.TypeTimestamp, sql.TypeTimestampMS, sql.TypeTimestampS:
		return Type{ID: TypeTimestamp}, true
	case sql.TypeTimestampNS:
		return Type{ID: TypeTimestampNS}, true
	case sql.TypeTimestampTZ:
		return Type{ID: TypeTimestampTZ}, true
	case sql.TypeGeometry:
		return tGeometry, true
	}
	if elem, ok := strings.CutSuffix(ct.Type, "[]"); ok {
		et, ok := parseTypeName(elem)
		if elem != sql.TypeDecimal && !strings.HasPrefix(elem, sql.TypeDecimal+"(") {
			et, ok = typeOfCast(&ast.ConvertType{Type: elem})
		}
		if !ok {
			return Type{}, false
		}
		return listOf(et), true
	}
	return Type{}, false
}

const (
	metaMicros = meta.Micros
	metaNanos  = meta.Nanos
)
