package stats

import (
	"bytes"
	"fmt"

	"github.com/pqsql/pqsql/format/meta"
)

// A Column bundles what the rules need to know about one leaf in one file.
type Column struct {
	// Path is the leaf's dotted path, used in reasons ("city", "a.b.element").
	Path string
	Leaf *meta.SchemaElement
	// ColumnOrder is this leaf's entry in the footer's column_orders; nil when
	// the footer has none (or none usable: see OrderNote).
	ColumnOrder *meta.ColumnOrder
	// OrderNote says why ColumnOrder is nil although the footer has
	// column_orders (for example, the list has the wrong length).
	OrderNote string
	Writer    Writer
}

// Source says which fields a Bounds' Min and Max came from.
type Source int8

// The sources of bounds.
const (
	SourceNone        Source = iota // no bounds accepted
	SourceMinMaxValue               // Statistics.min_value / max_value
	SourceDeprecated                // Statistics.min / max (signed comparison)
	SourceColumnIndex               // ColumnIndex.min_values / max_values
)

func (s Source) String() string {
	switch s {
	case SourceMinMaxValue:
		return "min_value/max_value"
	case SourceDeprecated:
		return "the deprecated min/max"
	case SourceColumnIndex:
		return "the column index"
	}
	return "nothing"
}

// Bounds is the trusted summary of a column chunk or a page.
//
// Its promise: every non-null value v either is NaN (possible only when
// MayHoldNaN), or satisfies Min <= v <= Max under Order.Compare, a nil Min
// or Max leaving that side open. Floats compare by value, so a zero bound
// covers both -0 and +0; under TYPE_ORDER a zero Min is stored as -0 and a
// zero Max as +0, as parquet.thrift asks readers to assume. NaN sorts above
// every number (DuckDB's SQL semantics), so a chunk with Max 25.0 may still
// satisfy x > 1000 through a NaN unless NoNaN: use the MayHold* methods,
// which apply this.
type Bounds struct {
	// Path is the column's dotted path, for reports; Page, in a column
	// index's bounds, is the page's number plus one (0 for a chunk's), so
	// that reports say which page without a string made per page.
	Path string
	Page int
	// Min and Max are nil when refused or absent; never NaN.
	Min, Max []byte
	// MinExact and MaxExact say the bound is a value of the chunk, not only a
	// bound (a writer may shorten strings, marking is_*_value_exact false).
	MinExact, MaxExact bool
	// NullCount is valid when NullCountKnown; an absent null_count is not zero.
	NullCount      int64
	NullCountKnown bool
	// NaNCount is valid when NaNCountKnown (float columns with nan_count).
	NaNCount      int64
	NaNCountKnown bool
	// NoNaN is proven: no value is NaN (always true for non-float columns).
	NoNaN bool
	// AllNaN is proven: every non-null value is NaN.
	AllNaN bool
	// AllNull is proven: every value is null (null_count == num_values, or a
	// column index's null_pages entry).
	AllNull bool
	// Order compares values of the column; Defined() is false when it has none.
	Order Order
	// Source says where Min and Max came from.
	Source Source
	// Refused says why Min or Max is nil, in words for a user; "" when both are set.
	Refused string
	// Notes are caveats on what was accepted, for EXPLAIN.
	Notes []string
}

// MayHoldNaN reports whether some value may be NaN, which SQL sorts above
// every number: beyond Max.
func (b Bounds) MayHoldNaN() bool { return b.Order.kind.IsFloat() && !b.NoNaN && !b.AllNull }

// MayHoldNull reports whether some value may be null.
func (b Bounds) MayHoldNull() bool { return b.AllNull || !b.NullCountKnown || b.NullCount > 0 }

// MayHoldNonNull reports whether some value may be non-null.
func (b Bounds) MayHoldNonNull() bool { return !b.AllNull }

// MayHoldAbove reports whether some non-null value may be greater than v
// (or equal, with orEqual), in SQL order. v is in the column's physical form.
func (b Bounds) MayHoldAbove(v []byte, orEqual bool) bool {
	if b.AllNull {
		return false
	}
	if !b.Order.Defined() {
		return true
	}
	if b.Order.IsNaN(v) { // nothing is above NaN, and only NaN equals it
		return orEqual && b.MayHoldNaN()
	}
	if b.MayHoldNaN() || b.Max == nil {
		return true
	}
	c := b.Order.Compare(b.Max, v)
	return c > 0 || (orEqual && c == 0)
}

// MayHoldBelow reports whether some non-null value may be less than v (or
// equal, with orEqual), in SQL order.
func (b Bounds) MayHoldBelow(v []byte, orEqual bool) bool {
	if b.AllNull {
		return false
	}
	if !b.Order.Defined() {
		return true
	}
	if b.Order.IsNaN(v) { // every number is below NaN
		if b.AllNaN {
			return orEqual
		}
		return true
	}
	if b.AllNaN {
		return false
	}
	if b.Min == nil {
		return true
	}
	c := b.Order.Compare(b.Min, v)
	return c < 0 || (orEqual && c == 0)
}

// MayHoldEqual reports whether some non-null value may equal v, in SQL
// order (NaN equals NaN; -0 equals +0).
func (b Bounds) MayHoldEqual(v []byte) bool {
	if b.AllNull {
		return false
	}
	if !b.Order.Defined() {
		return true
	}
	if b.Order.IsNaN(v) {
		return b.MayHoldNaN()
	}
	if b.AllNaN {
		return false
	}
	if b.Min != nil && b.Order.Compare(v, b.Min) < 0 {
		return false
	}
	if b.Max != nil && b.Order.Compare(v, b.Max) > 0 {
		return false
	}
	return true
}

// Report renders the bounds for EXPLAIN's statistics-trust report: one line
// for the bounds or why they were refused, then one per note.
func (b Bounds) Report() []string {
	var lines []string
	if b.Page > 0 {
		b.Path = fmt.Sprintf("%s, page %d", b.Path, b.Page-1)
	}
	switch {
	case b.Min != nil && b.Max != nil:
		lines = append(lines, fmt.Sprintf("%s: min %s%s, max %s%s, from %s, compared as %s",
			b.Path, b.Order.Format(b.Min), inexact(b.MinExact), b.Order.Format(b.Max), inexact(b.MaxExact), b.Source, b.Order.Name()))
	case b.Min != nil:
		lines = append(lines, fmt.Sprintf("%s: min %s%s, no max: %s", b.Path, b.Order.Format(b.Min), inexact(b.MinExact), b.Refused))
	case b.Max != nil:
		lines = append(lines, fmt.Sprintf("%s: max %s%s, no min: %s", b.Path, b.Order.Format(b.Max), inexact(b.MaxExact), b.Refused))
	case b.AllNull || b.AllNaN:
		lines = append(lines, fmt.Sprintf("%s: no min/max: %s", b.Path, b.Refused))
	default:
		lines = append(lines, fmt.Sprintf("%s: min/max refused: %s", b.Path, b.Refused))
	}
	for _, n := range b.Notes {
		lines = append(lines, fmt.Sprintf("%s: %s", b.Path, n))
	}
	return lines
}

func inexact(exact bool) string {
	if exact {
		return ""
	}
	return " (a bound, not a value)"
}

// ChunkBounds applies the rules to a column chunk's statistics; numValues is
// ColumnMetaData.num_values (nulls included). s may be nil.
func ChunkBounds(c Column, s *meta.Statistics, numValues int64) Bounds {
	o, ok, why := OrderOf(c.Leaf)
	b := Bounds{Path: c.Path, Order: o, NoNaN: !o.kind.IsFloat()}
	if s == nil {
		b.Refused = "the writer kept no statistics for this column chunk"
		return b
	}
	if s.NullCount != nil {
		switch n := *s.NullCount; {
		case n < 0 || (numValues >= 0 && n > numValues):
			b.Notes = append(b.Notes, fmt.Sprintf("null_count %d is impossible for %d values, so it is ignored", n, numValues))
		default:
			b.NullCount, b.NullCountKnown = n, true
			b.AllNull = numValues >= 0 && n == numValues
		}
	} else {
		b.Notes = append(b.Notes, "null_count is absent, which does not mean zero: nulls may be present")
	}
	if b.AllNull {
		b.NoNaN = true
	}
	if o.kind.IsFloat() && s.NanCount != nil {
		n := *s.NanCount
		nonNull := numValues
		if b.NullCountKnown {
			nonNull -= b.NullCount
		}
		if n < 0 || (numValues >= 0 && n > nonNull) {
			b.Notes = append(b.Notes, fmt.Sprintf("nan_count %d is impossible for %d non-null values, so it is ignored", n, nonNull))
		} else {
			b.NaNCount, b.NaNCountKnown = n, true
			b.NoNaN = n == 0
			b.AllNaN = n > 0 && b.NullCountKnown && n == nonNull
		}
	}
	if !ok {
		b.Refused = why
		return b
	}

	hasNew := s.HasMinValue || s.HasMaxValue || s.MinValue != nil || s.MaxValue != nil
	hasOld := s.HasMin || s.HasMax || s.Min != nil || s.Max != nil
	var refusedNew string
	if hasNew {
		p := pair{
			min: s.MinValue, max: s.MaxValue,
			hasMin: s.HasMinValue || s.MinValue != nil, hasMax: s.HasMaxValue || s.MaxValue != nil,
			minExact: s.IsMinValueExact, maxExact: s.IsMaxValueExact,
			source: SourceMinMaxValue,
		}
		refusedNew = c.accept(o, p, &b, numValues)
		if refusedNew == "" {
			return b
		}
		if b.AllNaN { // nothing else can bound values that are all NaN
			b.Refused = refusedNew
			return b
		}
	}
	if hasOld {
		p := pair{
			min: s.Min, max: s.Max,
			hasMin: s.HasMin || s.Min != nil, hasMax: s.HasMax || s.Max != nil,
			source: SourceDeprecated,
		}
		r := c.accept(o, p, &b, numValues)
		switch {
		case r == "" && hasNew:
			b.Notes = append(b.Notes, "min_value/max_value were refused ("+refusedNew+"), so the deprecated min/max are used")
			return b
		case r == "":
			return b
		case hasNew:
			b.Refused = refusedNew + "; the deprecated min/max cannot stand in: " + r
		default:
			b.Refused = "only the deprecated min/max are present, and " + r
		}
		return b
	}
	switch {
	case hasNew:
		b.Refused = refusedNew
	case b.AllNull:
		b.Refused = "every value is null, so there is no minimum or maximum"
	case b.AllNaN:
		b.Refused = "every non-null value is NaN, so there is no minimum or maximum"
	default:
		b.Refused = "the statistics record no minimum or maximum"
	}
	return b
}

// pair is one min/max pair as written, before the rules.
type pair struct {
	min, max           []byte
	hasMin, hasMax     bool
	minExact, maxExact *bool
	source             Source
}

// orderProblem says why min_value/max_value (or a column index) cannot be
// read in this column's order, or "".
func (c Column) orderProblem(o Order) string {
	co := c.ColumnOrder
	switch {
	case co == nil && c.OrderNote != "":
		return c.OrderNote
	case co == nil:
		return "the footer has no column_orders, so their order is undefined"
	case co.Kind == meta.TypeDefinedOrder:
		return ""
	case co.Kind == meta.IEEE754TotalOrder:
		if !o.kind.IsFloat() {
			return "column_orders gives IEEE_754_TOTAL_ORDER, which applies only to FLOAT, DOUBLE and FLOAT16 columns, so their order is undefined"
		}
		return ""
	}
	return fmt.Sprintf("column_orders names an order this reader does not know (union field %d), so their order is undefined", co.UnknownField)
}

// totalOrder reports whether the column's bounds follow IEEE 754 total order.
func (c Column) totalOrder(o Order) bool {
	return o.kind.IsFloat() && c.ColumnOrder != nil && c.ColumnOrder.Kind == meta.IEEE754TotalOrder
}

// accept applies the rules to one pair and, when it accepts either bound,
// fills b and returns "". Otherwise it returns why, leaving b's bounds unset.
func (c Column) accept(o Order, p pair, b *Bounds, numValues int64) string {
	if !p.hasMin && !p.hasMax {
		return "they are absent"
	}
	for _, v := range []struct {
		has  bool
		val  []byte
		name string
	}{{p.hasMin, p.min, "min"}, {p.hasMax, p.max, "max"}} {
		if !v.has {
			continue
		}
		if err := o.Valid(v.val); err != nil {
			return fmt.Sprintf("the %s is malformed (%v), so neither bound is trusted", v.name, err)
		}
	}
	if r := timeOutsideDay(c.Leaf, p); r != "" {
		return r
	}
	equal := p.hasMin && p.hasMax && bytes.Equal(p.min, p.max)
	total := false
	switch p.source {
	case SourceMinMaxValue, SourceColumnIndex:
		if r := c.orderProblem(o); r != "" {
			return r
		}
		if r := c.Writer.distrust(o, physical(c.Leaf), equal, false); r != "" {
			return r
		}
		total = c.totalOrder(o)
	case SourceDeprecated:
		if r := c.Writer.distrust(o, physical(c.Leaf), equal, true); r != "" {
			return r
		}
		if !o.kind.Signed() && !equal {
			return fmt.Sprintf("writers computed them with signed comparison, but this column is ordered as %s", o.Name())
		}
	}

	minV, maxV := p.min, p.max
	if !p.hasMin {
		minV = nil
	}
	if !p.hasMax {
		maxV = nil
	}
	var notes []string
	var partial string
	minNaN, maxNaN := minV != nil && o.IsNaN(minV), maxV != nil && o.IsNaN(maxV)
	if minNaN || maxNaN {
		if !total {
			return "a bound is NaN, which orders nothing outside IEEE_754_TOTAL_ORDER, so both are ignored"
		}
		if b.NaNCountKnown && b.NaNCount == 0 {
			return "a bound is NaN but nan_count is 0, so the statistics contradict themselves"
		}
		// IEEE 754 total order puts -NaN below every number and +NaN above, so a
		// +NaN minimum or a -NaN maximum leaves room for nothing but NaN. Under the
		// merged PARQUET-2249 rules, which made nan_count mandatory, writers store
		// NaN bounds only when every non-null value is NaN; a writer that wrote
		// nan_count follows them. Without it (the rule as first proposed), NaN
		// bounds may enclose numbers.
		b.NoNaN = false
		switch {
		case (minNaN && !o.negative(minV)) || (maxNaN && o.negative(maxV)) ||
			(minNaN && maxNaN && b.NaNCountKnown && b.NaNCount > 0):
			b.AllNaN = true
			b.Source = p.source
			return "every non-null value is NaN (the bounds are NaN under IEEE_754_TOTAL_ORDER), so there is no numeric minimum or maximum"
		case minNaN && maxNaN:
			return "both bounds are NaN and nan_count is absent, so the numbers between them (if any) are unbounded"
		case minNaN:
			minV = nil
			partial = "the minimum is -NaN, so the smallest number is unknown"
		default:
			maxV = nil
			partial = "the maximum is +NaN, so the largest number is unknown"
		}
	}
	if o.kind.IsFloat() && !total {
		// TYPE_ORDER: a zero bound may stand for -0 or +0; widen it to cover both.
		if minV != nil && o.isZero(minV) {
			minV = negZero(o)
			notes = append(notes, "the minimum is zero, so the chunk may hold both -0 and +0")
		}
		if maxV != nil && o.isZero(maxV) {
			maxV = posZero(o)
			notes = append(notes, "the maximum is zero, so the chunk may hold both -0 and +0")
		}
	}
	if minV != nil && maxV != nil && o.Compare(minV, maxV) > 0 {
		return fmt.Sprintf("the min (%s) is above the max (%s), so the bounds are corrupt", o.Format(minV), o.Format(maxV))
	}
	if minV == nil && maxV == nil {
		return partial
	}
	if partial == "" {
		switch {
		case minV == nil:
			partial = "the writer recorded a maximum but no minimum"
		case maxV == nil:
			partial = "the writer recorded a minimum but no maximum"
		}
	}
	b.Min, b.Max = minV, maxV
	b.MinExact = minV != nil && exact(o, p.minExact)
	b.MaxExact = maxV != nil && exact(o, p.maxExact)
	b.Source = p.source
	b.Refused = partial
	if minV != nil && !b.MinExact && p.minExact != nil {
		notes = append(notes, "the minimum is marked inexact: it bounds the values but may not be one")
	}
	if maxV != nil && !b.MaxExact && p.maxExact != nil {
		notes = append(notes, "the maximum is marked inexact: it bounds the values but may not be one")
	}
	if b.MayHoldNaN() {
		if b.NaNCountKnown {
			notes = append(notes, fmt.Sprintf("nan_count is %d: NaN values lie beyond the maximum", b.NaNCount))
		} else {
			notes = append(notes, "nan_count is absent, so NaN values may lie beyond the maximum")
		}
	}
	b.Notes = append(b.Notes, notes...)
	return ""
}

// exact decides whether a bound is a value of the chunk. Writers shorten
// byte strings (parquet-java in its column index, arrow-rs in statistics),
// so those count as exact only when flagged so; numbers and decimals cannot
// be shortened and count as exact unless flagged otherwise.
func exact(o Order, flag *bool) bool {
	if flag != nil {
		return *flag
	}
	return o.kind != KindBytes
}

func negZero(o Order) []byte {
	switch o.kind {
	case KindFloat32:
		return []byte{0, 0, 0, 0x80}
	case KindFloat16:
		return []byte{0, 0x80}
	}
	return []byte{0, 0, 0, 0, 0, 0, 0, 0x80}
}

func posZero(o Order) []byte {
	switch o.kind {
	case KindFloat32:
		return []byte{0, 0, 0, 0}
	case KindFloat16:
		return []byte{0, 0}
	}
	return []byte{0, 0, 0, 0, 0, 0, 0, 0}
}

// physical is a leaf's physical type; -1 when the schema gives none.
func physical(leaf *meta.SchemaElement) meta.Type {
	if leaf == nil || leaf.Type == nil {
		return -1
	}
	return *leaf.Type
}
