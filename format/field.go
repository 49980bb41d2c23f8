package format

import (
	"fmt"

	"github.com/pqsql/pqsql/format/meta"
)

// FieldKind says how a field's values are shaped.
type FieldKind int

// The field kinds.
const (
	ScalarField FieldKind = iota
	StructField
	ListField
	MapField
	// VariantField is a VARIANT group: Children are its metadata, value and
	// typed_value members, and it assembles to a Variant value.
	VariantField
)

// A Field is a column as a query sees it: a scalar leaf, or a STRUCT, LIST,
// MAP or VARIANT assembled from leaves. The LIST and MAP backward-compatibility rules of
// LogicalTypes.md are resolved here, once.
type Field struct {
	Name string
	Kind FieldKind
	// Node is the schema node the field stands for.
	Node *Node
	// Leaf is set for scalar fields.
	Leaf *Leaf
	// Children are a struct's members, a list's element, or a map's key and
	// value (value may be absent in malformed-but-readable maps).
	Children []*Field
	// DefLevel is the definition level at which the field is not null.
	DefLevel int
	// RepLevel is a list's or map's repetition level, and ElemDefLevel the
	// definition level at which it has at least one element.
	RepLevel, ElemDefLevel int
	// Leaves are the leaves beneath the field, in schema order.
	Leaves []*Leaf
}

// IsNested reports whether assembling the field needs levels beyond a null flag.
func (f *Field) IsNested() bool { return f.Kind != ScalarField }

func isList(e *meta.SchemaElement) bool {
	return (e.LogicalType != nil && e.LogicalType.List != nil) ||
		(e.ConvertedType != nil && *e.ConvertedType == meta.ConvList)
}

func isMap(e *meta.SchemaElement) bool {
	return (e.LogicalType != nil && e.LogicalType.Map != nil) ||
		(e.ConvertedType != nil && (*e.ConvertedType == meta.ConvMap || *e.ConvertedType == meta.ConvMapKeyValue))
}

func newField(n *Node, depth int) (*Field, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("%w: schema nested deeper than %d", ErrLimit, maxSchemaDepth)
	}
	if !n.IsGroup() {
		if n.Repetition == meta.Repeated {
			// A repeated primitive outside a LIST is a required list of
			// required elements.
			elem := scalarField(n)
			return listField(n, n.Name, n.DefLevel-1, n, elem), nil
		}
		return scalarField(n), nil
	}
	if n.Repetition != meta.Repeated {
		if f, err := annotatedGroup(n, n.DefLevel, depth); f != nil || err != nil {
			return f, err
		}
	}
	var st *Field
	var err error
	if isVariant(n.Element) {
		st, err = variantField(n, depth)
	} else {
		st, err = structField(n, depth)
	}
	if err != nil {
		return nil, err
	}
	if n.Repetition == meta.Repeated {
		// A repeated group outside a LIST is a required list of structs.
		return listField(n, n.Name, n.DefLevel-1, n, st), nil
	}
	return st, nil
}

// annotatedGroup resolves a LIST- or MAP-annotated group n that is present
// at definition level def; it returns nil when n is not one.
func annotatedGroup(n *Node, def, depth int) (*Field, error) {
	e := n.Element
	if len(n.Children) == 1 && n.Children[0].Repetition == meta.Repeated {
		r := n.Children[0]
		switch {
		case isList(e):
			elem, err := listElement(n, r, depth)
			if err != nil {
				return nil, err
			}
			return listField(n, n.Name, def, r, elem), nil
		case isMap(e) && r.IsGroup() && len(r.Children) <= 2:
			key, err := newField(r.Children[0], depth+1)
			if err != nil {
				return nil, err
			}
			// A map without values reads as the list of its keys.
			f := listField(n, n.Name, def, r, key)
			if len(r.Children) == 2 {
				f.Kind = MapField
				val, err := newField(r.Children[1], depth+1)
				if err != nil {
					return nil, err
				}
				f.Children = append(f.Children, val)
			}
			return f, nil
		}
	}
	return nil, nil
}

// listElement applies the backward-compatibility rules for a LIST's
// repeated child r.
func listElement(list, r *Node, depth int) (*Field, error) {
	if r.IsGroup() {
		// A repeated group that is itself a LIST or MAP: a list of lists.
		if f, err := annotatedGroup(r, r.DefLevel, depth+1); f != nil || err != nil {
			return f, err
		}
	}
	switch {
	case !r.IsGroup():
		return scalarField(r), nil
	case isVariant(r.Element):
		return variantField(r, depth+1)
	case len(r.Children) > 1, r.Name == "array", r.Name == list.Name+"_tuple":
		return structField(r, depth+1)
	default:
		return newField(r.Children[0], depth+1)
	}
}

func scalarField(n *Node) *Field {
	// Leaf and Leaves are filled by resolveLeaves once the schema's leaves exist.
	return &Field{Name: n.Name, Kind: ScalarField, Node: n, DefLevel: n.DefLevel}
}

func structField(n *Node, depth int) (*Field, error) {
	f := &Field{Name: n.Name, Kind: StructField, Node: n, DefLevel: n.DefLevel}
	for _, c := range n.Children {
		cf, err := newField(c, depth+1)
		if err != nil {
			return nil, err
		}
		f.Children = append(f.Children, cf)
	}
	return f, nil
}

func listField(n *Node, name string, def int, r *Node, elem *Field) *Field {
	return &Field{Name: name, Kind: ListField, Node: n, DefLevel: def, RepLevel: r.RepLevel,
		ElemDefLevel: r.DefLevel, Children: []*Field{elem}}
}

// resolveLeaves fills Leaf and Leaves from the schema's leaf list.
func resolveLeaves(f *Field, leaves []*Leaf) {
	f.Leaves = nil
	if f.Kind == ScalarField {
		f.Leaf = leaves[f.Node.Leaf]
		f.Leaves = []*Leaf{f.Leaf}
		return
	}
	for _, c := range f.Children {
		resolveLeaves(c, leaves)
		f.Leaves = append(f.Leaves, c.Leaves...)
	}
}
