package format

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/format/meta"
)

// A Value is an assembled value of a nested field: nil (NULL), a Scalar, a
// List, a Struct or a Map; a VARIANT's values are also VariantPrimitive and
// *VariantObject.
type Value any

// A Scalar is one leaf value inside decoded column data.
type Scalar struct {
	Logical Logical
	Values  *Values
	Index   int
}

// A List is an assembled LIST value.
type List []Value

// A Struct is an assembled STRUCT value; Fields parallel Values.
type Struct struct {
	Fields []*Field
	Values []Value
}

// unnamed reports whether s is an unnamed struct (row(1, 'a')): it has
// fields and none has a name. Parquet fields always have names.
func (s *Struct) unnamed() bool {
	for _, f := range s.Fields {
		if f.Name != "" {
			return false
		}
	}
	return len(s.Fields) > 0
}

// A Map is an assembled MAP value.
type Map struct {
	Keys, Values []Value
}

// An Assembler rebuilds the nested values of one field from its leaves'
// levels, one row at a time (Dremel record assembly).
type Assembler struct {
	field   *Field
	cursors map[int]*levelCursor
	err     error
}

type levelCursor struct {
	data    *ColumnData
	logical Logical
	entry   int
	value   int
	maxDef  int32
}

func (c *levelCursor) def() int32 {
	if c.data.Def == nil {
		return c.maxDef
	}
	return c.data.Def[c.entry]
}

func (c *levelCursor) rep() int32 {
	if c.data.Rep == nil {
		return 0
	}
	return c.data.Rep[c.entry]
}

// NewAssembler prepares to assemble f from the decoded data of its leaves,
// keyed by leaf index; all must come from the same row group.
func NewAssembler(f *Field, data map[int]*ColumnData) (*Assembler, error) {
	a := &Assembler{field: f, cursors: map[int]*levelCursor{}}
	n := -1
	for _, l := range f.Leaves {
		d := data[l.Index]
		if d == nil {
			return nil, fmt.Errorf("format: assembling %s: column %s not decoded", f.Name, l.Path)
		}
		if n >= 0 && f.Kind == StructField && d.NumEntries != n && l.MaxRep == 0 {
			return nil, fmt.Errorf("%w: assembling %s: column %s has %d entries, its siblings %d", ErrCorrupt, f.Name, l.Path, d.NumEntries, n)
		}
		if n < 0 {
			n = d.NumEntries
		}
		if err := checkRepeatedLevels(l, d); err != nil {
			return nil, fmt.Errorf("%w: assembling %s: %w", ErrCorrupt, f.Name, err)
		}
		a.cursors[l.Index] = &levelCursor{data: d, logical: LogicalOf(l), maxDef: int32(l.MaxDef)}
	}
	return a, nil
}

// checkRepeatedLevels refuses levels that contradict each other: an entry
// that repeats at level r (another element of the r-th list on the path)
// must define that list. A writer's or a crafted file's entry of rep 1
// and def 0 would otherwise start a row the row group does not count.
func checkRepeatedLevels(l *Leaf, d *ColumnData) error {
	if l.MaxRep == 0 || d.Rep == nil {
		return nil
	}
	minDef := make([]int32, l.MaxRep+1)
	for n := l.Node; n != nil; n = n.Parent {
		if n.Repetition == meta.Repeated && n.RepLevel > 0 && n.RepLevel <= l.MaxRep {
			minDef[n.RepLevel] = int32(n.DefLevel)
		}
	}
	for i := 0; i < d.NumEntries && i < len(d.Rep); i++ {
		r := d.Rep[i]
		if r <= 0 || int(r) > l.MaxRep {
			continue
		}
		def := int32(l.MaxDef)
		if d.Def != nil {
			def = d.Def[i]
		}
		if def < minDef[r] {
			return fmt.Errorf("column %s: entry %d repeats at level %d but has definition level %d, below the list's %d", l.Path, i, r, def, minDef[r])
		}
	}
	return nil
}

// Next assembles the next row's value. ok is false at the end of the data.
func (a *Assembler) Next() (v Value, ok bool, err error) {
	first := a.cursors[a.field.Leaves[0].Index]
	if first.entry >= first.data.NumEntries {
		return nil, false, nil
	}
	v = a.read(a.field)
	if a.err != nil {
		return nil, false, a.err
	}
	return v, true, nil
}

func (a *Assembler) fail(format string, args ...any) {
	if a.err == nil {
		a.err = fmt.Errorf("%w: assembling %s: "+format, append([]any{ErrCorrupt, a.field.Name}, args...)...)
	}
}

// peek returns the first leaf cursor of f, failing if it is exhausted.
func (a *Assembler) peek(f *Field) *levelCursor {
	c := a.cursors[f.Leaves[0].Index]
	if c.entry >= c.data.NumEntries {
		a.fail("column %s ran out of values", f.Leaves[0].Path)
		return nil
	}
	return c
}

// skip consumes one entry from every leaf under f: a NULL or empty value
// there is one entry in each.
func (a *Assembler) skip(f *Field) {
	for _, l := range f.Leaves {
		c := a.cursors[l.Index]
		if c.entry >= c.data.NumEntries {
			a.fail("column %s ran out of values", l.Path)
			return
		}
		if c.def() == c.maxDef {
			c.value++
		}
		c.entry++
	}
}

func (a *Assembler) read(f *Field) Value {
	if a.err != nil {
		return nil
	}
	c := a.peek(f)
	if c == nil {
		return nil
	}
	def := int(c.def())
	switch f.Kind {
	case ScalarField:
		var v Value
		if def == f.Leaf.MaxDef {
			if c.value >= c.data.Values.Len() {
				a.fail("column %s has fewer values than its levels say", f.Leaf.Path)
				return nil
			}
			v = Scalar{Logical: c.logical, Values: &c.data.Values, Index: c.value}
			c.value++
		}
		c.entry++
		return v
	case StructField, VariantField:
		if def < f.DefLevel {
			a.skip(f)
			return nil
		}
		s := &Struct{Fields: f.Children, Values: make([]Value, len(f.Children))}
		for i, ch := range f.Children {
			if len(ch.Leaves) == 0 {
				// A field a scan left out (it reads only some fields of
				// the struct): NULL, never looked at.
				continue
			}
			s.Values[i] = a.read(ch)
		}
		if f.Kind == VariantField && a.err == nil {
			v, err := buildVariant(f, s.Values)
			if err != nil {
				a.err = fmt.Errorf("format: assembling %s: %w", a.field.Name, err)
			}
			return v
		}
		return s
	}
	// LIST or MAP.
	if def < f.DefLevel {
		a.skip(f)
		return nil
	}
	var elems List
	var m *Map
	if f.Kind == MapField {
		m = &Map{}
	}
	if def < f.ElemDefLevel {
		a.skip(f)
		if m != nil {
			return m
		}
		return List{}
	}
	for {
		if m != nil {
			m.Keys = append(m.Keys, a.read(f.Children[0]))
			m.Values = append(m.Values, a.read(f.Children[1]))
		} else {
			elems = append(elems, a.read(f.Children[0]))
		}
		if a.err != nil {
			return nil
		}
		c := a.cursors[f.Leaves[0].Index]
		if c.entry >= c.data.NumEntries || int(c.rep()) != f.RepLevel {
			break
		}
	}
	if m != nil {
		return m
	}
	return elems
}

// AppendValueText appends v in DuckDB's text: [1, 2] for lists,
// {'a': 1} for structs, {k=v} for maps, NULL inside nested values.
func AppendValueText(dst []byte, v Value) []byte {
	switch x := v.(type) {
	case nil:
		return append(dst, "NULL"...)
	case Scalar:
		start := len(dst)
		dst = AppendText(dst, x.Logical, x.Values, x.Index)
		if nestedNeedsQuotes(dst[start:]) {
			return quoteNested(dst, start)
		}
		return dst
	case List:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendElem(dst, e)
		}
		return append(dst, ']')
	case *Struct:
		if x.unnamed() {
			// row(1, 'a') prints as (1, a).
			dst = append(dst, '(')
			for i, e := range x.Values {
				if i > 0 {
					dst = append(dst, ", "...)
				}
				dst = appendElem(dst, e)
			}
			return append(dst, ')')
		}
		dst = append(dst, '{')
		for i, e := range x.Values {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, '\'')
			dst = append(dst, x.Fields[i].Name...)
			dst = append(dst, "': "...)
			dst = appendElem(dst, e)
		}
		return append(dst, '}')
	case *Map:
		dst = append(dst, '{')
		for i := range x.Keys {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendElem(dst, x.Keys[i])
			dst = append(dst, '=')
			dst = appendElem(dst, x.Values[i])
		}
		return append(dst, '}')
	case VariantPrimitive:
		return x.AppendText(dst)
	case *VariantObject:
		return x.appendText(dst)
	}
	return append(dst, '?')
}

// appendElem appends v as an element of a nested value, where a Variant
// primitive is quoted as a Scalar is.
func appendElem(dst []byte, v Value) []byte {
	p, ok := v.(VariantPrimitive)
	if !ok {
		return AppendValueText(dst, v)
	}
	start := len(dst)
	dst = p.AppendText(dst)
	if nestedNeedsQuotes(dst[start:]) {
		return quoteNested(dst, start)
	}
	return dst
}

// nestedNeedsQuotes reports whether a value's text inside a nested value
// must be quoted to read back unambiguously, as DuckDB decides it.
func nestedNeedsQuotes(s []byte) bool {
	if len(s) == 0 {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' || strings.EqualFold(string(s), "null") {
		return true
	}
	for _, c := range s {
		switch c {
		case '\'', '"', '\\', '[', ']', '{', '}', '(', ')', ',', ':', '=', '\t', '\n', '\r':
			return true
		}
	}
	return false
}

// quoteNested wraps dst[start:] in single quotes, escaping quotes and backslashes.
func quoteNested(dst []byte, start int) []byte {
	text := string(dst[start:])
	dst = append(dst[:start], '\'')
	for i := 0; i < len(text); i++ {
		if text[i] == '\'' || text[i] == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, text[i])
	}
	return append(dst, '\'')
}
