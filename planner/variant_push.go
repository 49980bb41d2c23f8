package planner

import (
	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/pushdown"
)

// variantPush is the pushdown leaf of a comparison
// CAST(variant_extract(...variant_extract(col, 'k1')..., 'kn') AS t) op
// constant (either order), where col is a VARIANT column and each key a
// constant name, or nil for another form. Pushdown resolves it per file
// against that file's shredding, so it may sit under AND, OR and NOT like
// any leaf and in scans of several differently shredded files.
func variantPush(e *Binary, fields []*format.Field) pushdown.Expr {
	op, ok := pushOps[e.Op]
	if !ok {
		return nil
	}
	side, k := e.L, e.R
	if _, isConst := e.L.(*Const); isConst {
		side, k, op = e.R, e.L, op.Flip()
	}
	c, ok := k.(*Const)
	if !ok || c.Value.Null {
		return nil
	}
	cast, ok := side.(*Call)
	if !ok || cast.fn != variantCastFunc || len(cast.Args) != 1 {
		return nil
	}
	out := &pushdown.VariantCompare{Op: op, Text: e.String()}
	if out.Target, ok = variantTarget(cast.T, c.T); !ok {
		return nil
	}
	out.Precision, out.Scale = cast.T.Precision, cast.T.Scale
	out.Bits, out.Unsigned = intWidth(cast.T.ID)
	// Walk the extractions from the outermost key in.
	x := cast.Args[0]
	for {
		ex, ok := x.(*Call)
		if !ok || ex.Name != "variant_extract" || len(ex.Args) != 2 {
			break
		}
		key, ok := ex.Args[1].(*Const)
		if !ok || key.Value.Null || key.T.ID != TypeVarchar {
			return nil // an array index or a computed key
		}
		out.Path = append([]string{key.Value.S}, out.Path...)
		x = ex.Args[0]
	}
	col, ok := x.(*ColRef)
	if !ok || len(out.Path) == 0 || col.Index >= len(fields) || fields[col.Index] == nil || fields[col.Index].Kind != format.VariantField {
		return nil
	}
	out.Col = fields[col.Index].Name
	if out.Lit, ok = LiteralOf(c); !ok {
		return nil
	}
	return out
}

// variantTarget is the pruning class of a cast to t compared with a
// constant of type lit, when pushdown can judge it.
func variantTarget(t, lit Type) (pushdown.VariantTarget, bool) {
	switch {
	case t.IsInteger() && lit.IsInteger():
		return pushdown.VariantInteger, true
	case t.ID != lit.ID:
		if t.ID == TypeDecimal && lit.IsInteger() {
			return pushdown.VariantDecimal, true
		}
		return 0, false
	}
	switch t.ID {
	case TypeVarchar:
		return pushdown.VariantVarchar, true
	case TypeDouble:
		return pushdown.VariantDouble, true
	case TypeFloat:
		return pushdown.VariantFloat, true
	case TypeDecimal:
		return pushdown.VariantDecimal, true
	case TypeDate:
		return pushdown.VariantDate, true
	case TypeTimestamp:
		return pushdown.VariantTimestamp, true
	case TypeTimestampTZ:
		return pushdown.VariantTimestampTZ, true
	case TypeBoolean:
		return pushdown.VariantBoolean, true
	}
	return 0, false
}

// intWidth is an integer type's width in bits and sign; 0 for others.
func intWidth(id TypeID) (int, bool) {
	switch id {
	case TypeTinyInt:
		return 8, false
	case TypeSmallInt:
		return 16, false
	case TypeInteger:
		return 32, false
	case TypeBigInt:
		return 64, false
	case TypeHugeInt:
		return 128, false
	case TypeUTinyInt:
		return 8, true
	case TypeUSmallInt:
		return 16, true
	case TypeUInteger:
		return 32, true
	case TypeUBigInt:
		return 64, true
	}
	return 0, false
}
