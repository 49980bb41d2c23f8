package format

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format/meta"
)

// maxSchemaDepth bounds nesting so a hostile schema cannot exhaust the stack.
const maxSchemaDepth = 128

// A Schema is the tree of a file's schema elements with its leaves listed in
// column-chunk order.
type Schema struct {
	Root   *Node
	Leaves []*Leaf
	// Fields are the top-level fields as a reader sees them, with the LIST and
	// MAP conventions (and their backward-compatibility forms) resolved.
	Fields []*Field
}

// A Node is one schema element in the tree.
type Node struct {
	Name       string
	Element    *meta.SchemaElement
	Repetition meta.Repetition
	Parent     *Node
	Children   []*Node
	// Leaf is the leaf's index for primitive nodes, -1 for groups.
	Leaf int
	// DefLevel and RepLevel are the maximum levels at this node.
	DefLevel, RepLevel int
}

// IsGroup reports whether the node has children (or is declared a group).
func (n *Node) IsGroup() bool { return n.Element.Type == nil }

// A Leaf is a primitive column: one column chunk per row group.
type Leaf struct {
	Index int
	// Path is the dotted path from the root, as DuckDB and pyarrow print it.
	Path string
	// PathInSchema holds the path's names.
	PathInSchema []string
	Node         *Node
	Element      *meta.SchemaElement
	Type         meta.Type
	// TypeLength is the width of a FIXED_LEN_BYTE_ARRAY.
	TypeLength     int
	MaxDef, MaxRep int
}

// NewSchema builds the tree from the flat depth-first element list.
func NewSchema(elems []meta.SchemaElement) (*Schema, error) {
	if len(elems) == 0 {
		return nil, fmt.Errorf("%w: empty schema", ErrCorrupt)
	}
	s := &Schema{}
	pos := 0
	root, err := s.build(elems, &pos, nil, 0)
	if err != nil {
		return nil, err
	}
	if pos != len(elems) {
		return nil, fmt.Errorf("%w: schema has %d elements after the root's children", ErrCorrupt, len(elems)-pos)
	}
	if len(s.Leaves) == 0 {
		return nil, fmt.Errorf("%w: schema has no columns", ErrCorrupt)
	}
	s.Root = root
	for _, c := range root.Children {
		f, err := newField(c, 0)
		if err != nil {
			return nil, err
		}
		resolveLeaves(f, s.Leaves)
		s.Fields = append(s.Fields, f)
	}
	return s, nil
}

func (s *Schema) build(elems []meta.SchemaElement, pos *int, parent *Node, depth int) (*Node, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("%w: schema nested deeper than %d", ErrLimit, maxSchemaDepth)
	}
	e := &elems[*pos]
	*pos++
	n := &Node{Name: e.Name, Element: e, Parent: parent, Leaf: -1}
	if parent != nil {
		if e.RepetitionType == nil {
			return nil, fmt.Errorf("%w: schema element %q has no repetition type", ErrCorrupt, e.Name)
		}
		n.Repetition = *e.RepetitionType
		n.DefLevel, n.RepLevel = parent.DefLevel, parent.RepLevel
		switch n.Repetition {
		case meta.Optional:
			n.DefLevel++
		case meta.Repeated:
			n.DefLevel++
			n.RepLevel++
		case meta.Required:
		default:
			return nil, fmt.Errorf("%w: schema element %q has repetition %d", ErrCorrupt, e.Name, n.Repetition)
		}
	}
	children := 0
	if e.NumChildren != nil {
		children = int(*e.NumChildren)
	}
	if e.Type == nil || children > 0 {
		if e.Type != nil && children > 0 {
			return nil, fmt.Errorf("%w: schema element %q has both a type and children", ErrCorrupt, e.Name)
		}
		if children < 0 || children > len(elems)-*pos {
			return nil, fmt.Errorf("%w: schema element %q claims %d children, %d elements remain", ErrCorrupt, e.Name, children, len(elems)-*pos)
		}
		if children == 0 && parent != nil {
			return nil, fmt.Errorf("%w: group %q has no children", ErrCorrupt, e.Name)
		}
		for i := 0; i < children; i++ {
			c, err := s.build(elems, pos, n, depth+1)
			if err != nil {
				return nil, err
			}
			n.Children = append(n.Children, c)
		}
		return n, nil
	}
	if parent == nil {
		return nil, fmt.Errorf("%w: schema root is a primitive", ErrCorrupt)
	}
	if *e.Type < meta.Boolean || *e.Type > meta.FixedLenByteArray {
		return nil, fmt.Errorf("%w: column %q has unknown physical type %d", ErrCorrupt, e.Name, *e.Type)
	}
	leaf := &Leaf{Index: len(s.Leaves), Node: n, Element: e, Type: *e.Type, MaxDef: n.DefLevel, MaxRep: n.RepLevel}
	if *e.Type == meta.FixedLenByteArray {
		if e.TypeLength == nil || *e.TypeLength <= 0 {
			return nil, fmt.Errorf("%w: FIXED_LEN_BYTE_ARRAY column %q has no positive type_length", ErrCorrupt, e.Name)
		}
		leaf.TypeLength = int(*e.TypeLength)
	}
	for p := n; p.Parent != nil; p = p.Parent {
		leaf.PathInSchema = append([]string{p.Name}, leaf.PathInSchema...)
	}
	leaf.Path = strings.Join(leaf.PathInSchema, ".")
	n.Leaf = leaf.Index
	s.Leaves = append(s.Leaves, leaf)
	return n, nil
}

// LeafByPath finds a leaf by its dotted path.
func (s *Schema) LeafByPath(path string) *Leaf {
	for _, l := range s.Leaves {
		if l.Path == path {
			return l
		}
	}
	return nil
}
