package exec

import (
	"bytes"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/pqsql/pqsql/planner"
)

// Truth values in three-valued logic, one byte per row.
// The truths are 0, 1 and 2: TRUE alone has bit 0 set, which the one-pass
// kernels (evalInts, applyInto) rely on.
const (
	tFalse uint8 = 0
	tTrue  uint8 = 1
	tNull  uint8 = 2
)

func and3(a, b uint8) uint8 {
	switch {
	case a == tFalse || b == tFalse:
		return tFalse
	case a == tNull || b == tNull:
		return tNull
	}
	return tTrue
}

func or3(a, b uint8) uint8 {
	switch {
	case a == tTrue || b == tTrue:
		return tTrue
	case a == tNull || b == tNull:
		return tNull
	}
	return tFalse
}

func not3(a uint8) uint8 {
	if a == tNull {
		return tNull
	}
	return 1 - a
}

func truthOf(d planner.Datum) uint8 {
	switch {
	case d.Null:
		return tNull
	case d.B:
		return tTrue
	}
	return tFalse
}

// A filter evaluates a WHERE over batches. The common shapes (a column
// against a constant, IN, BETWEEN, IS NULL, LIKE and starts_with under
// AND, OR and NOT) run as loops over the columns; anything else is handed
// to planner.Eval one row at a time, and only for the rows the cheaper
// conditions beside it have not already decided. A filter holds no state,
// so workers share one.
type filter struct {
	root  pnode
	width int
	// parts are the subtrees of the WHERE that the scan judges by
	// dictionary, the k-th read by judgedNode k from batch.truths; nil
	// for a filter that reads its columns only (dictfilter.go).
	parts []colJudge
}

// newFilter compiles where for input rows of width columns.
func newFilter(where planner.Expr, width int) *filter {
	return &filter{root: compile(where, width), width: width}
}

// A pnode evaluates one predicate for the rows sel of a batch, writing each
// one's truth to res (indexed by batch row).
type pnode interface {
	eval(b *batch, sel []int32, res []uint8) error
	// cheap reports whether the node never evaluates row by row, so an AND
	// or OR tries it first.
	cheap() bool
}

// rowError is an error of one row's evaluation.
type rowError struct {
	row int32
	err error
}

func (e *rowError) Error() string { return e.err.Error() }
func (e *rowError) Unwrap() error { return e.err }

// apply returns the rows of b for which the WHERE is TRUE, in order. When a
// row fails to evaluate, it returns the rows before it that passed and the
// error, so that a LIMIT met earlier never sees the error.
func (f *filter) apply(b *batch) ([]int32, error) {
	return f.applyInto(b, nil)
}

// applyInto is apply writing the rows into buf's storage when it is large
// enough, so that a worker passing back the previous batch's rows
// allocates nothing; that earlier result is overwritten.
func (f *filter) applyInto(b *batch, buf []int32) ([]int32, error) {
	if s, ok := f.root.(selector); ok {
		if cap(buf) < b.n {
			buf = make([]int32, b.n, max(b.n, BatchSize))
		}
		if out, ok := s.selectAll(b, buf[:b.n]); ok {
			return out, nil
		}
	}
	sel := fillRows(buf, b.n)
	rp := borrowTruth(b.n)
	defer truthPool.Put(rp)
	res := *rp
	if err := f.root.eval(b, sel, res); err != nil {
		return f.applyRows(b, res)
	}
	// Compacted without a branch: TRUE is the only truth with bit 0 set,
	// and a row's slot is written whether or not it is kept.
	out, k := sel[:b.n], 0
	for i, r := range res[:b.n] {
		out[k] = int32(i)
		k += int(r & tTrue)
	}
	return out[:k], nil
}

// A selector is a node that picks the rows of a whole batch for which it
// is TRUE in one pass, without truths in between: a comparison of an
// integer column without NULL and a constant.
type selector interface {
	// selectAll writes the rows to out, which holds b.n rows, and returns
	// them; false, having decided nothing, when the batch is not of the
	// shape.
	selectAll(b *batch, out []int32) ([]int32, bool)
}

var (
	_ selector = (*cmpNode)(nil)
	_ selector = (*betweenNode)(nil)
)

func (n *cmpNode) selectAll(b *batch, out []int32) ([]int32, bool) {
	if n.kind != cmpInt || !n.r.isConst() || n.r.k.Null || !isColumn(n.l) {
		return nil, false
	}
	x, ok := n.l.vector(b)
	if !ok || x.Nulls != nil {
		return nil, false
	}
	return selectInts(n.op, x.Int[:b.n], n.r.k.I, out), true
}

// selectInts returns the positions i of xs with xs[i] op k. Each position
// is written and kept or not without a branch, which values in random
// order would mispredict.
func selectInts(op cmpOp, xs []int64, k int64, out []int32) []int32 {
	out = out[:len(xs)]
	j := 0
	switch op {
	case opEq:
		for i, x := range xs {
			out[j] = int32(i)
			j += int(b2t(x == k))
		}
	case opNe:
		for i, x := range xs {
			out[j] = int32(i)
			j += int(b2t(x != k))
		}
	case opLt:
		for i, x := range xs {
			out[j] = int32(i)
			j += int(b2t(x < k))
		}
	case opLe:
		for i, x := range xs {
			out[j] = int32(i)
			j += int(b2t(x <= k))
		}
	case opGt:
		for i, x := range xs {
			out[j] = int32(i)
			j += int(b2t(x > k))
		}
	case opGe:
		for i, x := range xs {
			out[j] = int32(i)
			j += int(b2t(x >= k))
		}
	}
	return out[:j]
}

func (n *betweenNode) selectAll(b *batch, out []int32) ([]int32, bool) {
	if n.ints == nil || !isColumn(n.ints[0].l) || !isColumn(n.ints[1].l) {
		return nil, false
	}
	lo, hi := n.ints[0], n.ints[1]
	x, ok := lo.l.vector(b)
	if !ok || x.Nulls != nil {
		return nil, false
	}
	y, ok := hi.l.vector(b)
	if !ok || y.Nulls != nil {
		return nil, false
	}
	var flip uint8
	if n.not {
		flip = 1
	}
	xs, ys, kl, kh := x.Int[:b.n], y.Int[:b.n], lo.r.k.I, hi.r.k.I
	out = out[:b.n]
	j := 0
	for i, v := range xs {
		out[j] = int32(i)
		j += int(inRange(v, ys[i], kl, kh) ^ flip)
	}
	return out[:j], true
}

// isColumn reports whether s is a column as it is: reading it costs
// nothing, so a selector that finds NULL in it and gives up wastes nothing.
func isColumn(s scalar) bool {
	_, ok := s.vx.(colVec)
	return ok
}

// applyRows evaluates row by row until the first row that fails.
func (f *filter) applyRows(b *batch, res []uint8) ([]int32, error) {
	var out []int32
	one := make([]int32, 1)
	for i := range b.n {
		one[0] = int32(i)
		if err := f.root.eval(b, one, res); err != nil {
			if re, ok := err.(*rowError); ok {
				err = re.err
			}
			return out, err
		}
		if res[i] == tTrue {
			out = append(out, int32(i))
		}
	}
	return out, nil
}

// compile turns a bound boolean expression into a pnode.
func compile(e planner.Expr, width int) pnode {
	switch x := e.(type) {
	case *planner.Logic:
		var cheap, costly []pnode
		for _, y := range x.Xs {
			n := compile(y, width)
			if n.cheap() {
				cheap = append(cheap, n)
			} else {
				costly = append(costly, n)
			}
		}
		// Conditions that cannot fail go first: a row the cheap ones
		// decide is never evaluated by the costly ones, which only
		// narrows where errors can arise, as pruning already does.
		return &logicNode{and: x.And, xs: append(cheap, costly...)}
	case *planner.Not:
		return &notNode{x: compile(x.X, width)}
	case *planner.Const:
		if x.T.ID == TypeBoolean || x.T.ID == TypeNull {
			return &constNode{t: truthOf(x.Value)}
		}
	case *planner.ColRef:
		if x.T.ID == TypeBoolean && x.Index >= 0 && x.Index < width {
			return &boolColNode{col: x.Index}
		}
	case *planner.Binary:
		if n := compileCompare(x.Op, x.L, x.R, width); n != nil {
			return n
		}
	case *planner.IsNull:
		if c, ok := x.X.(*planner.ColRef); ok && c.Index >= 0 && c.Index < width {
			return &isNullNode{col: c.Index, not: x.Not}
		}
	case *planner.InList:
		if n := compileIn(x, width); n != nil {
			return n
		}
		if n := compileKeyedIn(x, width); n != nil {
			return n
		}
	case *planner.Between:
		lo := compileCompare(">=", x.X, x.Lo, width)
		hi := compileCompare("<=", x.X, x.Hi, width)
		if lo != nil && hi != nil {
			return newBetweenNode(lo, hi, x.Not)
		}
	case *planner.Like:
		if n := compileLike(x, width); n != nil {
			return n
		}
	case *planner.Call:
		if n := compileCall(x, width); n != nil {
			return n
		}
	case *judgedExpr:
		return judgedNode{slot: x.slot}
	}
	return newRowNode(e, width)
}

func newRowNode(e planner.Expr, width int) *rowNode {
	return &rowNode{e: e, rb: newRowBuffer(width, e)}
}

// logicNode is AND or OR in three-valued logic. Like planner.Eval it stops
// at a row's first FALSE (AND) or TRUE (OR): later conditions are evaluated
// only for the rows still undecided.
type logicNode struct {
	and bool
	xs  []pnode
}

func (n *logicNode) cheap() bool {
	for _, x := range n.xs {
		if !x.cheap() {
			return false
		}
	}
	return true
}

func (n *logicNode) eval(b *batch, sel []int32, res []uint8) error {
	decided, table := tFalse, &and3Table
	if !n.and {
		decided, table = tTrue, &or3Table
	}
	if len(n.xs) == 0 {
		for _, i := range sel {
			res[i] = 1 - decided // TRUE for AND, FALSE for OR
		}
		return nil
	}
	// The first condition's verdict is the node's so far: TRUE AND x and
	// FALSE OR x are x.
	if err := n.xs[0].eval(b, sel, res); err != nil {
		return err
	}
	if len(n.xs) == 1 {
		return nil
	}
	ap := rowsPool.Get().(*[]int32)
	defer rowsPool.Put(ap)
	if cap(*ap) < len(sel) {
		*ap = make([]int32, len(sel), max(len(sel), BatchSize))
	}
	// The rows still undecided, kept without a branch: each row's slot is
	// written whether or not it is kept.
	active, k := (*ap)[:len(sel)], 0
	for _, i := range sel {
		active[k] = i
		k += int(b2t(res[i] != decided))
	}
	active = active[:k]
	tp := borrowTruth(b.n)
	defer truthPool.Put(tp)
	tmp := *tp
	for _, x := range n.xs[1:] {
		if len(active) == 0 {
			break
		}
		if err := x.eval(b, active, tmp); err != nil {
			return err
		}
		k := 0
		for _, i := range active {
			r := table[(res[i]<<2|tmp[i])&15]
			res[i] = r
			active[k] = i
			k += int(b2t(r != decided))
		}
		active = active[:k]
	}
	return nil
}

// and3Table and or3Table are and3 and or3 indexed by a<<2 | b.
var and3Table, or3Table = truthTable(and3), truthTable(or3)

func truthTable(f func(a, b uint8) uint8) (t [16]uint8) {
	for _, a := range []uint8{tFalse, tTrue, tNull} {
		for _, b := range []uint8{tFalse, tTrue, tNull} {
			t[a<<2|b] = f(a, b)
		}
	}
	return t
}

type notNode struct{ x pnode }

func (n *notNode) cheap() bool { return n.x.cheap() }

func (n *notNode) eval(b *batch, sel []int32, res []uint8) error {
	if err := n.x.eval(b, sel, res); err != nil {
		return err
	}
	for _, i := range sel {
		res[i] = not3(res[i])
	}
	return nil
}

type constNode struct{ t uint8 }

func (n *constNode) cheap() bool { return true }

func (n *constNode) eval(b *batch, sel []int32, res []uint8) error {
	for _, i := range sel {
		res[i] = n.t
	}
	return nil
}

type boolColNode struct{ col int }

func (n *boolColNode) cheap() bool { return true }

func (n *boolColNode) eval(b *batch, sel []int32, res []uint8) error {
	v := b.cols[n.col]
	for _, i := range sel {
		switch {
		case v.IsNull(int(i)):
			res[i] = tNull
		case v.Bool[i]:
			res[i] = tTrue
		default:
			res[i] = tFalse
		}
	}
	return nil
}

type isNullNode struct {
	col int
	not bool
}

func (n *isNullNode) cheap() bool { return true }

func (n *isNullNode) eval(b *batch, sel []int32, res []uint8) error {
	v := b.cols[n.col]
	for _, i := range sel {
		if v.IsNull(int(i)) != n.not {
			res[i] = tTrue
		} else {
			res[i] = tFalse
		}
	}
	return nil
}

// rowNode evaluates any expression with planner.Eval, row by row.
type rowNode struct {
	e  planner.Expr
	rb *rowBuffer
}

func (n *rowNode) cheap() bool { return false }

func (n *rowNode) eval(b *batch, sel []int32, res []uint8) error {
	// Workers share the node, so each call fills its own row.
	rb := &rowBuffer{row: make([]planner.Datum, len(n.rb.row)), cols: n.rb.cols}
	rowEvals.Add(int64(len(sel)))
	for _, i := range sel {
		d, err := planner.Eval(n.e, rb.load(b, int(i)))
		if err != nil {
			return &rowError{row: i, err: err}
		}
		res[i] = truthOf(d)
	}
	return nil
}

// betweenNode is x BETWEEN lo AND hi: x >= lo AND x <= hi, both evaluated.
type betweenNode struct {
	lo, hi pnode
	not    bool
	// ints, when set, are lo and hi comparing integers with constants
	// that are not NULL: a column without NULL is judged in one pass.
	ints *[2]*cmpNode
}

func newBetweenNode(lo, hi *cmpNode, not bool) *betweenNode {
	n := &betweenNode{lo: lo, hi: hi, not: not}
	intConst := func(c *cmpNode) bool { return c.kind == cmpInt && c.r.isConst() && !c.r.k.Null }
	if intConst(lo) && intConst(hi) && lo.op == opGe && hi.op == opLe {
		n.ints = &[2]*cmpNode{lo, hi}
	}
	return n
}

func (n *betweenNode) cheap() bool { return n.lo.cheap() && n.hi.cheap() }

func (n *betweenNode) eval(b *batch, sel []int32, res []uint8) error {
	if n.ints != nil && n.evalInts(b, sel, res) {
		return nil
	}
	tp := borrowTruth(b.n)
	defer truthPool.Put(tp)
	tmp := *tp
	if err := n.lo.eval(b, sel, res); err != nil {
		return err
	}
	if err := n.hi.eval(b, sel, tmp); err != nil {
		return err
	}
	for _, i := range sel {
		r := and3(res[i], tmp[i])
		if n.not {
			r = not3(r)
		}
		res[i] = r
	}
	return nil
}

// evalInts judges lo <= x AND x <= hi in one pass; false, having done
// nothing, when the operands are not vectors without NULL.
func (n *betweenNode) evalInts(b *batch, sel []int32, res []uint8) bool {
	lo, hi := n.ints[0], n.ints[1]
	x, ok := lo.l.vector(b)
	if !ok || x.Nulls != nil {
		return false
	}
	y, ok := hi.l.vector(b)
	if !ok || y.Nulls != nil {
		return false
	}
	xs, ys, kl, kh := x.Int, y.Int, lo.r.k.I, hi.r.k.I
	// TRUE is 1 and FALSE 0: the truth is computed without a branch,
	// which random values would mispredict half the time.
	var flip uint8
	if n.not {
		flip = 1
	}
	if len(sel) == b.n {
		// Every row, in order: no indirection, no bounds checks.
		xs, ys, res := xs[:b.n], ys[:b.n], res[:b.n]
		for i, v := range xs {
			res[i] = inRange(v, ys[i], kl, kh) ^ flip
		}
		return true
	}
	for _, i := range sel {
		res[i] = inRange(xs[i], ys[i], kl, kh) ^ flip
	}
	return true
}

// inRange is 1 when x >= lo and y <= hi, else 0.
func inRange(x, y, lo, hi int64) uint8 {
	var a, b uint8
	if x >= lo {
		a = 1
	}
	if y <= hi {
		b = 1
	}
	return a & b
}

// A scalar is an operand the loops read as a column: a constant, or a
// vectorized expression (a column, a cast of one that cannot fail,
// arithmetic).
type scalar struct {
	vx vexpr // nil for a constant
	k  planner.Datum
	t  Type
}

// scalarOf recognises the operands the loops handle.
func scalarOf(e planner.Expr, width int) (scalar, bool) {
	if c, ok := e.(*planner.Const); ok {
		return scalar{k: c.Value, t: c.T}, true
	}
	if vx := compileVec(e, width); vx != nil {
		return scalar{vx: vx, t: e.Type()}, true
	}
	return scalar{}, false
}

func (s scalar) isConst() bool { return s.vx == nil }

// safe reports whether reading the scalar never needs the fallback.
func (s scalar) safe() bool { return s.vx == nil || s.vx.safe() }

// vector is the scalar's values in b; ok is false when some row needs
// planner.Eval.
func (s scalar) vector(b *batch) (*Vector, bool) {
	return s.vx.eval(b)
}

// intRanges are the value ranges of the integer types of up to 64 bits that
// hold their value in Vector.Int as a signed number.
var intRanges = map[TypeID][2]int64{
	TypeTinyInt: {math.MinInt8, math.MaxInt8}, TypeSmallInt: {math.MinInt16, math.MaxInt16},
	TypeInteger: {math.MinInt32, math.MaxInt32}, TypeBigInt: {math.MinInt64, math.MaxInt64},
	TypeUTinyInt: {0, math.MaxUint8}, TypeUSmallInt: {0, math.MaxUint16}, TypeUInteger: {0, math.MaxUint32},
}

// decimalDigits is how many decimal digits an integer type may need.
var decimalDigits = map[TypeID]int{TypeTinyInt: 3, TypeSmallInt: 5, TypeInteger: 10, TypeBigInt: 19,
	TypeUTinyInt: 3, TypeUSmallInt: 5, TypeUInteger: 10}

// safeCast returns a vector conversion doing what planner.CastDatum does
// from type from to type to, for the casts that never fail; nil otherwise.
func safeCast(from, to Type) func(*Vector) *Vector {
	fr, fromInt := intRanges[from.ID]
	switch {
	case fromInt && to.ID == TypeUBigInt && fr[0] >= 0:
		return retype(to)
	case fromInt:
		if tr, ok := intRanges[to.ID]; ok && tr[0] <= fr[0] && tr[1] >= fr[1] {
			return retype(to)
		}
	}
	switch {
	case fromInt && to.ID == TypeDouble:
		return mapInts(to, func(x int64) float64 { return float64(x) })
	case fromInt && to.ID == TypeFloat:
		return mapInts(to, func(x int64) float64 { return float64(float32(x)) })
	case from.ID == TypeUBigInt && to.ID == TypeDouble:
		return mapInts(to, func(x int64) float64 { return float64(uint64(x)) })
	case from.ID == TypeUBigInt && to.ID == TypeFloat:
		return mapInts(to, func(x int64) float64 { return float64(float32(uint64(x))) })
	case from.ID == TypeFloat && to.ID == TypeDouble:
		return retype(to)
	case fromInt && to.ID == TypeDecimal && !wideDecimal(to) && decimalDigits[from.ID]+to.Scale <= to.Precision:
		m := int64(1)
		for range to.Scale {
			m *= 10
		}
		return func(v *Vector) *Vector {
			out := &Vector{Type: to, Nulls: v.Nulls, Int: make([]int64, len(v.Int))}
			for i, x := range v.Int {
				out.Int[i] = x * m
			}
			return out
		}
	case from.ID == TypeDate && (to.ID == TypeTimestamp || to.ID == TypeTimestampTZ):
		return func(v *Vector) *Vector {
			out := &Vector{Type: to, Nulls: v.Nulls, Int: make([]int64, len(v.Int))}
			for i, x := range v.Int {
				out.Int[i] = x * 86400 * 1000000
			}
			return out
		}
	}
	return nil
}

func retype(to Type) func(*Vector) *Vector {
	return func(v *Vector) *Vector {
		out := *v
		out.Type = to
		return &out
	}
}

func mapInts(to Type, f func(int64) float64) func(*Vector) *Vector {
	return func(v *Vector) *Vector {
		out := &Vector{Type: to, Nulls: v.Nulls, Float: make([]float64, len(v.Int))}
		for i, x := range v.Int {
			out.Float[i] = f(x)
		}
		return out
	}
}

// A cmpKind is how values of a type compare, as planner.Compare orders them.
type cmpKind int8

const (
	cmpNone   cmpKind = iota
	cmpInt            // Vector.Int, signed
	cmpUint           // Vector.Int holding uint64
	cmpFloat          // Vector.Float, NaN greatest, -0 = +0
	cmpString         // Vector.Str, bytewise
	cmpBool           // Vector.Bool
	cmpBytes          // Vector.Bytes, bytewise
)

func cmpKindOf(t Type) cmpKind {
	switch t.ID {
	case TypeBoolean:
		return cmpBool
	case TypeFloat, TypeDouble:
		return cmpFloat
	case TypeDecimal:
		if wideDecimal(t) {
			return cmpNone
		}
		return cmpInt
	case TypeUBigInt:
		return cmpUint
	case TypeVarchar:
		return cmpString
	case TypeBlob, TypeUUID:
		return cmpBytes
	case TypeInterval:
		// Intervals compare normalized (30 days = 1 month), not bytewise.
		return cmpNone
	case TypeHugeInt, TypeNested, TypeNull:
		return cmpNone
	}
	return cmpInt
}

// A cmpOp is a comparison operator.
type cmpOp int8

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
)

var cmpOps = map[string]cmpOp{"=": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}

// flip is the operator with its operands swapped.
func (o cmpOp) flip() cmpOp {
	switch o {
	case opLt:
		return opGt
	case opLe:
		return opGe
	case opGt:
		return opLt
	case opGe:
		return opLe
	}
	return o
}

func (o cmpOp) holds(c int) bool {
	switch o {
	case opEq:
		return c == 0
	case opNe:
		return c != 0
	case opLt:
		return c < 0
	case opLe:
		return c <= 0
	case opGt:
		return c > 0
	}
	return c >= 0
}

// cmpNode compares two scalars; at most one is a constant (two constants
// fold at plan time, and are left to rowNode otherwise).
type cmpNode struct {
	op   cmpOp
	kind cmpKind
	l, r scalar
	// fallback evaluates the comparison row by row when an operand must.
	fallback pnode
}

func (n *cmpNode) cheap() bool { return n.l.safe() && n.r.safe() }

// compileCompare compiles l op r, or returns nil when it is not a shape
// the loops handle.
func compileCompare(opText string, l, r planner.Expr, width int) *cmpNode {
	op, ok := cmpOps[opText]
	if !ok {
		return nil
	}
	ls, ok1 := scalarOf(l, width)
	rs, ok2 := scalarOf(r, width)
	if !ok1 || !ok2 || (ls.isConst() && rs.isConst()) {
		return nil
	}
	// The binder casts both operands to one type; anything else is left
	// to planner.Compare, which reads both by the left operand's type.
	kind := cmpKindOf(l.Type())
	if kind == cmpNone || !sameType(l.Type(), r.Type()) {
		return nil
	}
	fallback := newRowNode(&planner.Binary{Op: opText, L: l, R: r, T: Type{ID: TypeBoolean}}, width)
	if ls.isConst() {
		ls, rs, op = rs, ls, op.flip()
	}
	if rs.isConst() {
		if rs.k, ok = normConst(rs.k, rs.t); !ok {
			return nil
		}
	}
	return &cmpNode{op: op, kind: kind, l: ls, r: rs, fallback: fallback}
}

// sameType reports whether values of a and b compare as one type.
func sameType(a, b Type) bool {
	return a.ID == b.ID && a.Precision == b.Precision && a.Scale == b.Scale
}

// normConst puts a constant where the loops read it: a DECIMAL's unscaled
// value in I, as its column's vector holds it.
func normConst(d planner.Datum, t Type) (planner.Datum, bool) {
	if d.Null || t.ID != TypeDecimal {
		return d, true
	}
	if d.Big == nil {
		d.I = 0
		return d, true
	}
	if !d.Big.IsInt64() {
		return d, false
	}
	d.I = d.Big.Int64()
	return d, true
}

func b2t(b bool) uint8 {
	if b {
		return tTrue
	}
	return tFalse
}

// floatKey maps a float to an integer that orders as planner.CompareFloat:
// every NaN equal and above everything, -0 equal to +0.
func floatKey(f float64) uint64 {
	if f != f {
		return math.MaxUint64
	}
	if f == 0 {
		return 1 << 63
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

func (n *cmpNode) eval(b *batch, sel []int32, res []uint8) error {
	x, ok := n.l.vector(b)
	if !ok {
		return n.fallback.eval(b, sel, res)
	}
	if n.r.isConst() {
		if n.r.k.Null {
			for _, i := range sel {
				res[i] = tNull
			}
			return nil
		}
		k := n.r.k
		switch n.kind {
		case cmpInt:
			cmpConst(n.op, x.Int, k.I, x.Nulls, sel, res)
		case cmpUint:
			cmpConstKey(n.op, x.Int, uint64(k.I), func(v int64) uint64 { return uint64(v) }, x.Nulls, sel, res)
		case cmpFloat:
			cmpConstKey(n.op, x.Float, floatKey(k.F), floatKey, x.Nulls, sel, res)
		case cmpString:
			cmpConst(n.op, x.Str, k.S, x.Nulls, sel, res)
		case cmpBool:
			cmpConstKey(n.op, x.Bool, boolKey(k.B), boolKey, x.Nulls, sel, res)
		case cmpBytes:
			for _, i := range sel {
				if x.IsNull(int(i)) {
					res[i] = tNull
					continue
				}
				res[i] = b2t(n.op.holds(bytes.Compare(x.Bytes[i], k.Bytes)))
			}
		}
		return nil
	}
	y, ok := n.r.vector(b)
	if !ok {
		return n.fallback.eval(b, sel, res)
	}
	for _, i := range sel {
		if x.IsNull(int(i)) || y.IsNull(int(i)) {
			res[i] = tNull
			continue
		}
		var c int
		switch n.kind {
		case cmpInt:
			c = cmp3(x.Int[i], y.Int[i])
		case cmpUint:
			c = cmp3(uint64(x.Int[i]), uint64(y.Int[i]))
		case cmpFloat:
			c = planner.CompareFloat(x.Float[i], y.Float[i])
		case cmpString:
			c = strings.Compare(x.Str[i], y.Str[i])
		case cmpBool:
			c = cmp3(boolKey(x.Bool[i]), boolKey(y.Bool[i]))
		case cmpBytes:
			c = bytes.Compare(x.Bytes[i], y.Bytes[i])
		}
		res[i] = b2t(n.op.holds(c))
	}
	return nil
}

func boolKey(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func cmp3[T int64 | uint64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpConst compares xs[i] op k for the rows sel.
// NULL rows hold their type's zero value: they are compared with the rest,
// in loops specialised by operator, and then marked NULL.
func cmpConst[T int64 | string](op cmpOp, xs []T, k T, nulls []bool, sel []int32, res []uint8) {
	defer markNulls(nulls, sel, res)
	switch op {
	case opEq:
		for _, i := range sel {
			res[i] = b2t(xs[i] == k)
		}
	case opNe:
		for _, i := range sel {
			res[i] = b2t(xs[i] != k)
		}
	case opLt:
		for _, i := range sel {
			res[i] = b2t(xs[i] < k)
		}
	case opLe:
		for _, i := range sel {
			res[i] = b2t(xs[i] <= k)
		}
	case opGt:
		for _, i := range sel {
			res[i] = b2t(xs[i] > k)
		}
	case opGe:
		for _, i := range sel {
			res[i] = b2t(xs[i] >= k)
		}
	}
}

// markNulls sets the result of the NULL rows of sel to NULL.
func markNulls(nulls []bool, sel []int32, res []uint8) {
	if nulls == nil {
		return
	}
	for _, i := range sel {
		if nulls[i] {
			res[i] = tNull
		}
	}
}

func holdsOrdered[T int64 | uint64 | string](op cmpOp, x, k T) bool {
	switch op {
	case opEq:
		return x == k
	case opNe:
		return x != k
	case opLt:
		return x < k
	case opLe:
		return x <= k
	case opGt:
		return x > k
	}
	return x >= k
}

// cmpConstKey compares key(xs[i]) op k for the rows sel.
func cmpConstKey[T any](op cmpOp, xs []T, k uint64, key func(T) uint64, nulls []bool, sel []int32, res []uint8) {
	for _, i := range sel {
		if nulls != nil && nulls[i] {
			res[i] = tNull
			continue
		}
		res[i] = b2t(holdsOrdered(op, key(xs[i]), k))
	}
}

// inNode is x [NOT] IN (constants).
type inNode struct {
	x        scalar
	fallback pnode
	kind     cmpKind
	not      bool
	hasNull  bool
	ints     intGroups
	bits     *intBits // the integer keys as a bitmap, when dense enough
	strs     map[string]bool
	bytes    [][]byte
}

func (n *inNode) cheap() bool { return n.x.safe() }

func compileIn(e *planner.InList, width int) pnode {
	x, ok := scalarOf(e.X, width)
	if !ok || x.isConst() {
		return nil
	}
	kind := cmpKindOf(e.X.Type())
	if kind == cmpNone {
		return nil
	}
	n := &inNode{x: x, kind: kind, not: e.Not, fallback: newRowNode(e, width)}
	for _, l := range e.List {
		c, ok := l.(*planner.Const)
		if !ok || (!c.Value.Null && !sameType(c.T, e.X.Type())) {
			return nil
		}
		if c.Value.Null {
			n.hasNull = true
			continue
		}
		d, ok := normConst(c.Value, c.T)
		if !ok {
			return nil
		}
		switch kind {
		case cmpInt, cmpUint:
			n.addInt(d.I)
		case cmpFloat:
			n.addInt(int64(floatKey(d.F)))
		case cmpBool:
			n.addInt(int64(boolKey(d.B)))
		case cmpString:
			if n.strs == nil {
				n.strs = map[string]bool{}
			}
			n.strs[d.S] = true
		case cmpBytes:
			n.bytes = append(n.bytes, d.Bytes)
		}
	}
	if kind == cmpInt || kind == cmpUint {
		n.bits = newIntBits(keysOf(&n.ints))
	}
	return n
}

func (n *inNode) addInt(v int64) {
	n.ints.findOrPut(v, 0)
}

func (n *inNode) eval(b *batch, sel []int32, res []uint8) error {
	v, ok := n.x.vector(b)
	if !ok {
		return n.fallback.eval(b, sel, res)
	}
	if n.bits != nil {
		n.evalInts(v, sel, res)
		return nil
	}
	for _, i := range sel {
		if v.IsNull(int(i)) {
			res[i] = tNull
			continue
		}
		var found bool
		switch n.kind {
		case cmpInt, cmpUint:
			found = n.ints.find(v.Int[i]) >= 0
		case cmpFloat:
			found = n.ints.find(int64(floatKey(v.Float[i]))) >= 0
		case cmpBool:
			found = n.ints.find(int64(boolKey(v.Bool[i]))) >= 0
		case cmpString:
			found = n.strs[v.Str[i]]
		case cmpBytes:
			for _, l := range n.bytes {
				if bytes.Equal(v.Bytes[i], l) {
					found = true
					break
				}
			}
		}
		r := tFalse
		switch {
		case found:
			r = tTrue
		case n.hasNull:
			r = tNull
		}
		if n.not {
			r = not3(r)
		}
		res[i] = r
	}
	return nil
}

// keyedInNode is x [NOT] IN (constants) for the types and shapes inNode
// has no kernel for (HUGEINT, decimals, dates, casts of x, ...): x is
// evaluated per row, but the list is a set of planner.AppendKey encodings,
// equal exactly for the values = finds equal, so a long list (an
// uncorrelated IN subquery's values) costs one lookup per row, not one
// comparison per element.
type keyedInNode struct {
	x       planner.Expr
	t       Type
	rb      *rowBuffer
	keys    map[string]bool
	hasNull bool
	not     bool
}

// keyedInMin is the shortest list keyedInNode takes; shorter lists are
// compared element by element.
const keyedInMin = 8

func (n *keyedInNode) cheap() bool { return false }

func compileKeyedIn(e *planner.InList, width int) pnode {
	if len(e.List) < keyedInMin {
		return nil
	}
	t := e.X.Type()
	n := &keyedInNode{x: e.X, t: t, rb: newRowBuffer(width, e.X), keys: make(map[string]bool, len(e.List)), not: e.Not}
	var key []byte
	for _, l := range e.List {
		c, ok := l.(*planner.Const)
		if !ok || !c.Value.Null && !sameType(c.T, t) {
			return nil
		}
		if c.Value.Null {
			n.hasNull = true
			continue
		}
		key = planner.AppendKey(key[:0], c.Value, t)
		n.keys[string(key)] = true
	}
	return n
}

func (n *keyedInNode) eval(b *batch, sel []int32, res []uint8) error {
	// Workers share the node, so each call fills its own row.
	rb := &rowBuffer{row: make([]planner.Datum, len(n.rb.row)), cols: n.rb.cols}
	var key []byte
	rowEvals.Add(int64(len(sel)))
	for _, i := range sel {
		d, err := planner.Eval(n.x, rb.load(b, int(i)))
		if err != nil {
			return &rowError{row: i, err: err}
		}
		r := tFalse
		switch {
		case d.Null:
			r = tNull
		default:
			key = planner.AppendKey(key[:0], d, n.t)
			switch {
			case n.keys[string(key)]:
				r = tTrue
			case n.hasNull:
				r = tNull
			}
		}
		if n.not {
			r = not3(r)
		}
		res[i] = r
	}
	return nil
}

// A likeShape is how a LIKE pattern can be matched without LikeMatch.
type likeShape int8

const (
	likeGeneral likeShape = iota
	likeExact
	likePrefix
	likeSuffix
	likeContains
	likeAny
)

// shapeOfLike classifies pat; lit is the literal part of the simple shapes.
// The shortcuts hold only for valid UTF-8 literals, whose first byte always
// starts a character of the string matched, as LikeMatch steps through it.
func shapeOfLike(pat string) (likeShape, string) {
	if strings.ContainsRune(pat, '_') || !utf8.ValidString(pat) {
		return likeGeneral, ""
	}
	core := strings.Trim(pat, "%")
	if strings.Contains(core, "%") {
		return likeGeneral, ""
	}
	lead, trail := strings.HasPrefix(pat, "%"), strings.HasSuffix(pat, "%")
	switch {
	case core == "" && (lead || trail):
		return likeAny, ""
	case lead && trail:
		return likeContains, core
	case lead:
		return likeSuffix, core
	case trail:
		return likePrefix, core
	}
	return likeExact, core
}

// likeNode is x [NOT] LIKE|ILIKE pattern, starts_with and contains.
type likeNode struct {
	x        scalar
	fallback pnode
	null     bool // the pattern is NULL
	pat      string
	shape    likeShape
	lit      string
	fold     bool
	not      bool
}

func (n *likeNode) cheap() bool { return n.x.safe() }

func compileLike(e *planner.Like, width int) pnode {
	x, ok := scalarOf(e.X, width)
	p, ok2 := e.Pattern.(*planner.Const)
	if !ok || !ok2 || x.isConst() || e.X.Type().ID != TypeVarchar || e.Escape != nil {
		return nil
	}
	n := &likeNode{x: x, null: p.Value.Null, pat: p.Value.S, fold: e.Fold, not: e.Not, fallback: newRowNode(e, width)}
	if n.fold {
		n.pat = strings.ToLower(n.pat)
	}
	n.shape, n.lit = shapeOfLike(n.pat)
	return n
}

func compileCall(e *planner.Call, width int) pnode {
	if (e.Name != "starts_with" && e.Name != "contains") || len(e.Args) != 2 {
		return nil
	}
	x, ok := scalarOf(e.Args[0], width)
	p, ok2 := e.Args[1].(*planner.Const)
	if !ok || !ok2 || x.isConst() || e.Args[0].Type().ID != TypeVarchar || (!p.Value.Null && p.T.ID != TypeVarchar) {
		return nil
	}
	n := &likeNode{x: x, null: p.Value.Null, lit: p.Value.S, shape: likePrefix, fallback: newRowNode(e, width)}
	if e.Name == "contains" {
		n.shape = likeContains
	}
	return n
}

func (n *likeNode) eval(b *batch, sel []int32, res []uint8) error {
	v, ok := n.x.vector(b)
	if !ok {
		return n.fallback.eval(b, sel, res)
	}
	for _, i := range sel {
		if n.null || v.IsNull(int(i)) {
			res[i] = tNull
			continue
		}
		s := v.Str[i]
		if n.fold {
			s = strings.ToLower(s)
		}
		var m bool
		switch n.shape {
		case likeAny:
			m = true
		case likeExact:
			m = s == n.lit
		case likePrefix:
			m = strings.HasPrefix(s, n.lit)
		case likeSuffix:
			m = strings.HasSuffix(s, n.lit)
		case likeContains:
			m = strings.Contains(s, n.lit)
		default:
			m = planner.LikeMatch(s, n.pat)
		}
		res[i] = b2t(m != n.not)
	}
	return nil
}
