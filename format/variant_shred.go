package format

import (
	"fmt"
	"sort"

	"github.com/pqsql/pqsql/format/meta"
)

func isVariant(e *meta.SchemaElement) bool {
	return e.LogicalType != nil && e.LogicalType.Variant != nil
}

// variantField builds the field of a VARIANT-annotated group n. A group
// whose layout VariantShredding.md does not allow reads as a plain STRUCT,
// as it would for a reader that knows no VARIANT.
func variantField(n *Node, depth int) (*Field, error) {
	f, err := structField(n, depth)
	if err != nil {
		return nil, err
	}
	if variantLayout(f, true) {
		f.Kind = VariantField
	}
	return f, nil
}

// variantMembers finds the metadata, value and typed_value children of a
// Variant group or of a shredded field group; absent ones are -1.
func variantMembers(f *Field) (metadata, value, typed int) {
	metadata, value, typed = -1, -1, -1
	for i, c := range f.Children {
		switch c.Name {
		case "metadata":
			metadata = i
		case "value":
			value = i
		case "typed_value":
			typed = i
		}
	}
	return
}

func isBinaryScalar(f *Field) bool {
	return f.Kind == ScalarField && f.Node.Element.Type != nil && *f.Node.Element.Type == meta.ByteArray
}

// variantLayout reports whether group f holds value and typed_value (and
// metadata, at the top) as VariantShredding.md lays them out.
func variantLayout(f *Field, top bool) bool {
	if f.Kind != StructField {
		return false
	}
	m, v, t := variantMembers(f)
	known := 0
	for _, i := range []int{m, v, t} {
		if i >= 0 {
			known++
		}
	}
	if known != len(f.Children) || (top && m < 0) || (!top && (m >= 0 || known == 0)) {
		return false
	}
	if m >= 0 && !isBinaryScalar(f.Children[m]) {
		return false
	}
	if v >= 0 && !isBinaryScalar(f.Children[v]) {
		return false
	}
	return t < 0 || shreddedLayout(f.Children[t])
}

// shreddedLayout reports whether typed_value field t is a primitive, a
// LIST of shredded elements or a group of shredded object fields.
func shreddedLayout(t *Field) bool {
	if t.Node.Repetition == meta.Repeated {
		return false
	}
	switch t.Kind {
	case ScalarField:
		return true
	case ListField:
		return isList(t.Node.Element) && variantLayout(t.Children[0], false)
	case StructField:
		for _, c := range t.Children {
			if c.Node.Repetition == meta.Repeated || !variantLayout(c, false) {
				return false
			}
		}
		return true
	}
	return false
}

// buildVariant reconstructs a Variant from its group's assembled members;
// a missing value or a Variant null gives nil.
func buildVariant(f *Field, members []Value) (Value, error) {
	mi, vi, ti := variantMembers(f)
	md, ok := members[mi].(Scalar)
	if !ok {
		return nil, fmt.Errorf("%w: Variant %s has no metadata", ErrCorrupt, f.Name)
	}
	m, err := parseVariantMetadata(md.Values.Bytes[md.Index])
	if err != nil {
		return nil, err
	}
	v, _, err := m.construct(f, vi, ti, members)
	return v, err
}

// construct rebuilds the value of one value/typed_value pair of group g
// (vi and ti index members, -1 when absent); present is false when both
// are null, which marks a missing object field.
func (m *variantMetadata) construct(g *Field, vi, ti int, members []Value) (v Value, present bool, err error) {
	var value []byte
	if vi >= 0 {
		if s, ok := members[vi].(Scalar); ok {
			value = s.Values.Bytes[s.Index]
		}
	}
	if ti < 0 || members[ti] == nil {
		if value == nil {
			return nil, false, nil
		}
		v, err = m.decode(value)
		return v, true, err
	}
	// Where value and typed_value conflict, typed_value wins (as the spec
	// asks of readers that read such data at all), except that an object's
	// value holds the fields it did not shred.
	t, typed := g.Children[ti], members[ti]
	switch t.Kind {
	case ScalarField:
		v, err = shreddedPrimitive(t, typed.(Scalar))
		return v, true, err
	case ListField:
		elems := typed.(List)
		out := make(List, len(elems))
		for i, e := range elems {
			es, ok := e.(*Struct)
			if !ok {
				continue // a missing element reads as a Variant null
			}
			_, evi, eti := variantMembers(t.Children[0])
			if out[i], _, err = m.construct(t.Children[0], evi, eti, es.Values); err != nil {
				return nil, false, err
			}
		}
		return out, true, nil
	}
	s := typed.(*Struct)
	obj := &VariantObject{}
	for i, c := range t.Children {
		cs, ok := s.Values[i].(*Struct)
		if !ok {
			continue
		}
		_, cvi, cti := variantMembers(c)
		cv, ok, err := m.construct(c, cvi, cti, cs.Values)
		if err != nil {
			return nil, false, err
		}
		if ok {
			obj.Keys = append(obj.Keys, c.Name)
			obj.Values = append(obj.Values, cv)
		}
	}
	if value != nil {
		rest, err := m.decode(value)
		if err != nil {
			return nil, false, err
		}
		ro, ok := rest.(*VariantObject)
		if !ok {
			return nil, false, fmt.Errorf("%w: Variant field %s shreds an object but its value is not one", ErrCorrupt, g.Name)
		}
		shredded := len(obj.Keys)
	next:
		for i, k := range ro.Keys {
			for _, sk := range obj.Keys[:shredded] {
				if sk == k {
					continue next
				}
			}
			obj.Keys = append(obj.Keys, k)
			obj.Values = append(obj.Values, ro.Values[i])
		}
	}
	sort.Stable(byKey{obj})
	return obj, true, nil
}

type byKey struct{ o *VariantObject }

func (b byKey) Len() int           { return len(b.o.Keys) }
func (b byKey) Less(i, j int) bool { return b.o.Keys[i] < b.o.Keys[j] }
func (b byKey) Swap(i, j int) {
	b.o.Keys[i], b.o.Keys[j] = b.o.Keys[j], b.o.Keys[i]
	b.o.Values[i], b.o.Values[j] = b.o.Values[j], b.o.Values[i]
}

// shreddedPrimitive converts a typed_value leaf's value to the Variant
// primitive of VariantShredding.md's table; other types are refused.
func shreddedPrimitive(t *Field, s Scalar) (Value, error) {
	v, i := s.Values, s.Index
	lg := s.Logical
	p := VariantPrimitive{}
	switch lg.Kind {
	case KindBoolean:
		p.Type = VariantFalse
		if v.Bool[i] {
			p.Type = VariantTrue
		}
	case KindInt8:
		p.Type, p.Int = VariantInt8, int64(v.Int32[i])
	case KindInt16:
		p.Type, p.Int = VariantInt16, int64(v.Int32[i])
	case KindInt32:
		p.Type, p.Int = VariantInt32, int64(v.Int32[i])
	case KindInt64:
		p.Type, p.Int = VariantInt64, v.Int64[i]
	case KindFloat:
		p.Type, p.Float = VariantFloat, float64(v.Float[i])
	case KindDouble:
		if lg.Precision > 0 {
			return nil, fmt.Errorf("%w: Variant typed_value %s is a DECIMAL wider than 38 digits", ErrUnsupported, t.Name)
		}
		p.Type, p.Float = VariantDouble, v.Double[i]
	case KindDecimal:
		p.Type, p.Scale = VariantDecimal16, lg.Scale
		switch v.Type {
		case meta.Int32:
			p.Type, p.Int = VariantDecimal4, int64(v.Int32[i])
		case meta.Int64:
			p.Type, p.Int = VariantDecimal8, v.Int64[i]
		default:
			p.Unscaled = DecimalUnscaled(v, i)
		}
	case KindString:
		p.Type, p.Bytes = VariantString, v.Bytes[i]
	case KindBlob:
		if v.Type != meta.ByteArray {
			return nil, fmt.Errorf("%w: Variant typed_value %s of physical type %s", ErrUnsupported, t.Name, v.Type)
		}
		p.Type, p.Bytes = VariantBinary, v.Bytes[i]
	case KindUUID:
		p.Type, p.Bytes = VariantUUID, v.Bytes[i]
	case KindDate:
		p.Type, p.Int = VariantDate, int64(v.Int32[i])
	case KindTime:
		p.Type = VariantTime
		switch lg.Unit {
		case meta.Millis:
			p.Int = int64(v.Int32[i]) * 1000
		case meta.Nanos:
			p.Int = v.Int64[i] / 1000
		default:
			p.Int = v.Int64[i]
		}
	case KindTimestamp, KindTimestampTZ:
		tz := lg.Kind == KindTimestampTZ
		p.Int = v.Int64[i]
		switch {
		case lg.Unit == meta.Nanos && tz:
			p.Type = VariantTimestampNanos
		case lg.Unit == meta.Nanos:
			p.Type = VariantTimestampNTZNanos
		case tz:
			p.Type = VariantTimestamp
		default:
			p.Type = VariantTimestampNTZ
		}
		if lg.Unit == meta.Millis {
			p.Int *= 1000
		}
	default:
		return nil, fmt.Errorf("%w: Variant typed_value %s of type %s", ErrUnsupported, t.Name, lg.SQLName())
	}
	return p, nil
}
