package exec

import (
	"slices"
	"testing"
)

// TestVectorCodes checks that a vector's dictionary codes follow its
// strings as rows are appended, NULL or from another dictionary, and as a
// head is cut: a code that names another row's entry would put the row in
// another group.
func TestVectorCodes(t *testing.T) {
	d1 := &dictVector{strs: []string{"a", "b", "c"}}
	d2 := &dictVector{strs: []string{"x"}}
	appendEntries := func(v *Vector, d *dictVector, idx ...int32) {
		v.noteCodes(d, idx)
		for _, i := range idx {
			v.Str = append(v.Str, d.strs[i])
		}
	}
	v := &Vector{Type: Type{ID: TypeVarchar}, Str: []string{}}
	appendEntries(v, d1, 2, 0)
	v.appendNull()
	appendEntries(v, d1, 1)
	v.appendNulls(2)
	if got := v.dictCodes(); !slices.Equal(got, []int32{2, 0, -1, 1, -1, -1}) {
		t.Fatalf("codes %v", got)
	}
	if h := v.head(4); !slices.Equal(h.dictCodes(), []int32{2, 0, -1, 1}) {
		t.Fatalf("head's codes %v", h.dictCodes())
	}
	appendEntries(v, d2, 0)
	if got := v.dictCodes(); got != nil {
		t.Fatalf("rows of two dictionaries kept codes %v", got)
	}
	appendEntries(v, d1, 0)
	if got := v.dictCodes(); got != nil {
		t.Fatalf("codes came back after a row of another dictionary: %v", got)
	}
	w := &Vector{Type: Type{ID: TypeVarchar}, Str: []string{}}
	appendEntries(w, d1, 1)
	w.Str = append(w.Str, "plain")
	if got := w.dictCodes(); got != nil {
		t.Fatalf("a row read without its dictionary kept codes %v", got)
	}
	if got := w.take([]int32{0}).dictCodes(); got != nil {
		t.Fatalf("take kept codes %v", got)
	}
}

// TestVectorCodesLeadingNulls checks that a batch starting with NULL rows
// takes its dictionary from the first row that has one.
func TestVectorCodesLeadingNulls(t *testing.T) {
	d := &dictVector{strs: []string{"a", "b"}}
	v := &Vector{Type: Type{ID: TypeVarchar}, Str: []string{}}
	v.appendNulls(2)
	v.noteCodes(d, []int32{1})
	v.Str = append(v.Str, "b")
	if got := v.dictCodes(); !slices.Equal(got, []int32{-1, -1, 1}) {
		t.Fatalf("codes %v", got)
	}
	w := &Vector{Type: Type{ID: TypeVarchar}, Str: []string{"plain"}}
	w.appendNull()
	w.noteCodes(d, []int32{0})
	w.Str = append(w.Str, "a")
	if got := w.dictCodes(); got != nil {
		t.Fatalf("a row read without its dictionary kept codes %v", got)
	}
}
