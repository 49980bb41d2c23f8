package stats

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/pqsql/pqsql/format/meta"
)

// Columns lists a footer's leaves in column order, each with its dotted
// path, its column_orders entry and the footer's writer, ready for
// ChunkBounds and PageBounds. It fails only on a schema tree that does not
// add up. The list is read-only: footers that share their schema elements
// (the files of a glob, as format opens them) share it.
func Columns(md *meta.FileMetaData) ([]Column, error) {
	if md == nil || len(md.Schema) == 0 {
		return nil, fmt.Errorf("%w: the footer has no schema", ErrMalformedSchema)
	}
	if cols := lastColumns.of(md); cols != nil {
		return cols, nil
	}
	cols, err := columns(md)
	if err == nil {
		lastColumns.keep(md, cols)
	}
	return cols, err
}

// lastColumns is the list Columns made last: a glob's files repeat their
// schema, writer and column orders, and each is asked for at every file.
var lastColumns columnsMemo

type columnsMemo struct {
	mu sync.Mutex
	// schema is the footer's schema elements, by identity: the leaves
	// point into them.
	schema    []meta.SchemaElement
	createdBy *string
	orders    []meta.ColumnOrder
	cols      []Column
}

// of returns the list made for a footer with md's schema elements, writer
// and column orders, or nil.
func (m *columnsMemo) of(md *meta.FileMetaData) []Column {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cols == nil || len(m.schema) != len(md.Schema) || &m.schema[0] != &md.Schema[0] ||
		(m.createdBy == nil) != (md.CreatedBy == nil) || m.createdBy != nil && *m.createdBy != *md.CreatedBy ||
		(m.orders == nil) != (md.ColumnOrders == nil) || !slices.Equal(m.orders, md.ColumnOrders) {
		return nil
	}
	return m.cols
}

func (m *columnsMemo) keep(md *meta.FileMetaData, cols []Column) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.schema, m.createdBy, m.orders, m.cols = md.Schema, md.CreatedBy, md.ColumnOrders, cols
}

func columns(md *meta.FileMetaData) ([]Column, error) {
	var w Writer
	if md.CreatedBy != nil {
		w = ParseCreatedBy(*md.CreatedBy)
	}
	type frame struct {
		left int // children still to visit
		path []string
	}
	// Elements without children bound the leaves: one allocation holds them.
	leaves := 0
	for k := 1; k < len(md.Schema); k++ {
		if n := md.Schema[k].NumChildren; n == nil || *n <= 0 {
			leaves++
		}
	}
	cols := make([]Column, 0, leaves)
	root := md.Schema[0]
	if root.NumChildren == nil || *root.NumChildren < 0 {
		return nil, fmt.Errorf("%w: the root has no num_children", ErrMalformedSchema)
	}
	stack := []frame{{left: int(*root.NumChildren)}}
	i := 1
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.left == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		if i >= len(md.Schema) {
			return nil, fmt.Errorf("%w: the schema ends at element %d while a group still expects %d children", ErrMalformedSchema, i, top.left)
		}
		top.left--
		e := &md.Schema[i]
		i++
		isGroup := e.NumChildren != nil && *e.NumChildren > 0
		if !isGroup && len(top.path) == 0 {
			// A top-level leaf, the common case: its path is its name.
			if e.Type == nil && e.NumChildren != nil {
				continue
			}
			cols = append(cols, Column{Path: e.Name, Leaf: e, Writer: w})
			continue
		}
		path := append(append([]string{}, top.path...), e.Name)
		if isGroup {
			if int(*e.NumChildren) > len(md.Schema)-i {
				return nil, fmt.Errorf("%w: element %q claims %d children, but only %d elements follow", ErrMalformedSchema, e.Name, *e.NumChildren, len(md.Schema)-i)
			}
			stack = append(stack, frame{left: int(*e.NumChildren), path: path})
			continue
		}
		if e.Type == nil && e.NumChildren != nil {
			continue // an empty group holds no column
		}
		// An element without children is a leaf even without a type (a
		// malformed one, which OrderOf refuses); skipping it would misalign the
		// leaves with the row groups' column chunks.
		cols = append(cols, Column{Path: strings.Join(path, "."), Leaf: e, Writer: w})
	}
	if i != len(md.Schema) {
		return nil, fmt.Errorf("%w: %d schema elements lie outside the tree", ErrMalformedSchema, len(md.Schema)-i)
	}
	switch {
	case md.ColumnOrders == nil:
	case len(md.ColumnOrders) != len(cols):
		note := fmt.Sprintf("column_orders has %d entries for %d columns, so no entry can be matched to its column", len(md.ColumnOrders), len(cols))
		for k := range cols {
			cols[k].OrderNote = note
		}
	default:
		orders := append([]meta.ColumnOrder(nil), md.ColumnOrders...)
		for k := range cols {
			cols[k].ColumnOrder = &orders[k]
		}
	}
	return cols, nil
}
