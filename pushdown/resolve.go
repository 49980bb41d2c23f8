package pushdown

import (
	"errors"
	"fmt"
	"sort"

	"github.com/pqsql/pqsql/format"
)

// Bind returns a copy of e whose columns are bound to the leaves of schema
// s, so that Eval can read them. It fails with ErrUnknownColumn for a path s
// does not have.
func Bind(s *format.Schema, e Expr) (Expr, error) {
	out, err := bind(s, e)
	if err != nil {
		return nil, fmt.Errorf("pushdown: %w", err)
	}
	return out, nil
}

func bind(s *format.Schema, e Expr) (Expr, error) {
	if e == nil {
		return nil, fmt.Errorf("%w: nil expression", ErrBadPredicate)
	}
	bindCol := func(c Column) (Column, error) {
		l := s.LeafByPath(c.Path)
		if l == nil {
			return c, fmt.Errorf("%w: %q", ErrUnknownColumn, c.Path)
		}
		return Column{Path: c.Path, Leaf: l}, nil
	}
	var err error
	switch n := e.(type) {
	case *Compare:
		c := *n
		c.Col, err = bindCol(n.Col)
		return &c, err
	case *InList:
		c := *n
		c.Col, err = bindCol(n.Col)
		return &c, err
	case *Between:
		c := *n
		c.Col, err = bindCol(n.Col)
		return &c, err
	case *IsNull:
		c := *n
		c.Col, err = bindCol(n.Col)
		return &c, err
	case *Like:
		c := *n
		c.Col, err = bindCol(n.Col)
		return &c, err
	case *StartsWith:
		c := *n
		c.Col, err = bindCol(n.Col)
		return &c, err
	case *Cond:
		c := *n
		c.Col, err = bindCol(n.Col)
		return &c, err
	case *Spatial:
		c := *n
		c.Col, err = bindCol(n.Col)
		return &c, err
	case *RowNumber:
		return n, nil
	case *StructIsNull:
		if _, _, ok := structLeaves(s, n.Path); !ok {
			return nil, fmt.Errorf("%w: %q", ErrUnknownColumn, n.Path)
		}
		return n, nil
	case *VariantCompare:
		if variantField(s, n.Col) == nil {
			return nil, fmt.Errorf("%w: %q", ErrUnknownColumn, n.Col)
		}
		return n, nil
	case *Not:
		x, err := bind(s, n.X)
		return &Not{X: x}, err
	case *And:
		xs, err := bindAll(s, n.Xs)
		return &And{Xs: xs}, err
	case *Or:
		xs, err := bindAll(s, n.Xs)
		return &Or{Xs: xs}, err
	case *Const:
		return &Const{Value: n.Value}, nil
	case *Residual:
		for _, p := range n.Columns {
			if s.LeafByPath(p) == nil && variantLeaves(s, p) == nil {
				return nil, fmt.Errorf("%w: %q", ErrUnknownColumn, p)
			}
		}
		return n, nil
	}
	return nil, fmt.Errorf("%w: unknown node %T", ErrBadPredicate, e)
}

func bindAll(s *format.Schema, xs []Expr) ([]Expr, error) {
	out := make([]Expr, len(xs))
	for i, x := range xs {
		b, err := bind(s, x)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// Resolve prepares a predicate for one file: it binds columns to schema s,
// pushes every NOT down to the leaves (De Morgan; exact in three-valued
// logic), coerces literals to the columns' physical types, and folds
// constants. The result holds only And, Or, Const, Residual, Cond and
// Spatial nodes.
// A leaf pushdown cannot judge (ErrUnsupported) becomes a Residual, and
// notes say why; unknown columns and type mismatches are errors.
func Resolve(s *format.Schema, e Expr) (Expr, []string, error) {
	out, notes, err := resolve(s, e)
	if err != nil {
		return nil, nil, fmt.Errorf("pushdown: %w", err)
	}
	return out, notes, nil
}

func resolve(s *format.Schema, e Expr) (Expr, []string, error) {
	r := &resolver{s: s}
	out, err := r.resolve(e, false)
	if err != nil {
		return nil, nil, err
	}
	return simplify(out), r.notes, nil
}

type resolver struct {
	s     *format.Schema
	notes []string
}

func (r *resolver) col(c Column) (Column, error) {
	l := r.s.LeafByPath(c.Path)
	if l == nil {
		return c, fmt.Errorf("%w: %q", ErrUnknownColumn, c.Path)
	}
	return Column{Path: c.Path, Leaf: l}, nil
}

// residual keeps a leaf pushdown does not judge, saying why. Its Func
// evaluates the leaf itself, so the resolved predicate stays exact for Eval.
func (r *resolver) residual(e Expr, negate bool, cols []string, why error) Expr {
	text := e.String()
	if negate {
		text = "NOT (" + text + ")"
	}
	r.notes = append(r.notes, fmt.Sprintf("not pushed down: %s: %v", text, why))
	res := &Residual{Text: text, Columns: cols}
	if bound, err := bind(r.s, e); err == nil {
		res.Func = func(row Row) Truth {
			t := Eval(bound, row)
			if negate {
				return t.Not()
			}
			return t
		}
	}
	return res
}

// leaf runs build, turning ErrUnsupported into a residual.
func (r *resolver) leaf(e Expr, negate bool, c Column, build func(Column) (Expr, error)) (Expr, error) {
	bound, err := r.col(c)
	if err != nil {
		return nil, err
	}
	out, err := build(bound)
	if errors.Is(err, ErrUnsupported) {
		return r.residual(e, negate, []string{c.Path}, err), nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e, err)
	}
	return out, nil
}

func (r *resolver) resolve(e Expr, negate bool) (Expr, error) {
	switch n := e.(type) {
	case nil:
		return nil, fmt.Errorf("%w: nil expression", ErrBadPredicate)
	case *Not:
		return r.resolve(n.X, !negate)
	case *And, *Or:
		var xs []Expr
		_, isAnd := n.(*And)
		if isAnd {
			xs = n.(*And).Xs
		} else {
			xs = n.(*Or).Xs
		}
		out := make([]Expr, len(xs))
		for i, x := range xs {
			y, err := r.resolve(x, negate)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		if isAnd != negate {
			return &And{Xs: out}, nil
		}
		return &Or{Xs: out}, nil
	case *Const:
		if negate {
			return &Const{n.Value.Not()}, nil
		}
		return &Const{n.Value}, nil
	case *Residual:
		if negate {
			f := n.Func
			var nf func(Row) Truth
			if f != nil {
				nf = func(row Row) Truth { return f(row).Not() }
			}
			return &Residual{Text: "NOT (" + n.Text + ")", Columns: n.Columns, Func: nf, Why: n.Why}, nil
		}
		return n, nil
	case *Compare:
		op := n.Op
		if !op.isComparison() {
			return nil, fmt.Errorf("%w: %s is not a comparison", ErrBadPredicate, op)
		}
		if n.LiteralFirst {
			op = op.Flip()
		}
		if negate {
			op = op.Negate()
		}
		return r.leaf(n, negate, n.Col, func(c Column) (Expr, error) { return coerce(c, op, n.Lit) })
	case *Between:
		// x BETWEEN a AND b is x >= a AND x <= b; its negation x < a OR x > b.
		neg := n.Not != negate
		return r.leaf(n, negate, n.Col, func(c Column) (Expr, error) {
			lo, hi := Ge, Le
			if neg {
				lo, hi = Lt, Gt
			}
			a, err := coerce(c, lo, n.Low)
			if err != nil {
				return nil, err
			}
			b, err := coerce(c, hi, n.High)
			if err != nil {
				return nil, err
			}
			if neg {
				return &Or{Xs: []Expr{a, b}}, nil
			}
			return &And{Xs: []Expr{a, b}}, nil
		})
	case *InList:
		not := n.Not != negate
		return r.leaf(n, negate, n.Col, func(c Column) (Expr, error) { return coerceIn(c, n.List, not) })
	case *IsNull:
		not := n.Not != negate
		c, err := r.col(n.Col)
		if err != nil {
			return nil, err
		}
		if c.Leaf.MaxRep > 0 {
			return r.residual(n, negate, []string{n.Col.Path}, fmt.Errorf("%w: %s is a repeated column, whose values are not rows", ErrUnsupported, c.Path)), nil
		}
		if c.Leaf.MaxDef == 0 {
			return &Const{truth(not)}, nil // a required column is never NULL
		}
		op := IsNullOp
		if not {
			op = IsNotNullOp
		}
		ci, _ := infoOf(c) // the order only prints values; IS NULL needs none
		return &Cond{Col: c, Op: op, Order: ci.order}, nil
	case *Like:
		not := n.Not != negate
		return r.leaf(n, negate, n.Col, func(c Column) (Expr, error) { return coerceLike(c, n.Pattern, n.Escape, not) })
	case *StartsWith:
		return r.leaf(n, negate, n.Col, func(c Column) (Expr, error) {
			ci, err := textInfo(c)
			if err != nil {
				return nil, err
			}
			op := Prefix
			if negate {
				op = NotPrefix
			}
			return ci.cond(op, []byte(n.Prefix)), nil
		})
	case *Spatial:
		return r.resolveSpatial(n, negate)
	case *VariantCompare:
		return r.resolveVariant(n, negate)
	case *StructIsNull:
		return r.resolveStructNull(n, negate)
	case *RowNumber:
		if !n.Op.isComparison() {
			return nil, fmt.Errorf("%w: %s is not a comparison", ErrBadPredicate, n.Op)
		}
		if negate {
			// Exact: a position is never NULL.
			return &RowNumber{Op: n.Op.Negate(), Value: n.Value}, nil
		}
		return n, nil
	case *Cond:
		c, err := r.col(n.Col)
		if err != nil {
			return nil, err
		}
		out := *n
		out.Col = c
		if negate {
			out.Op = out.Op.Negate()
		}
		return &out, nil
	}
	return nil, fmt.Errorf("%w: unknown node %T", ErrBadPredicate, e)
}

// textInfo classifies a column LIKE and starts_with apply to.
func textInfo(c Column) (colInfo, error) {
	ci, err := infoOf(c)
	if err != nil {
		return ci, err
	}
	if ci.class != classBytes || !ci.text {
		return ci, fmt.Errorf("%w: LIKE and starts_with need a string column; %s is %s", ErrType, c.Path, ci.logical.SQLName())
	}
	return ci, nil
}

// coerceLike resolves col [NOT] LIKE pattern. A pattern without wildcards
// is an equality and one ending in '%' only a prefix test, exactly.
func coerceLike(c Column, pattern string, escape rune, not bool) (Expr, error) {
	ci, err := textInfo(c)
	if err != nil {
		return nil, err
	}
	s := shapeOf(pattern, escape)
	switch {
	case s.exact && not:
		return ci.cond(Ne, s.prefix), nil
	case s.exact:
		return ci.cond(Eq, s.prefix), nil
	case s.prefixOnly && not:
		return ci.cond(NotPrefix, s.prefix), nil
	case s.prefixOnly:
		return ci.cond(Prefix, s.prefix), nil
	}
	op := LikeOp
	if not {
		op = NotLikeOp
	}
	return &Cond{Col: c, Op: op, Pattern: pattern, Escape: escape, Order: ci.order, like: &s}, nil
}

// coerceIn resolves col [NOT] IN (list). x IN (a, b) is x = a OR x = b in
// three-valued logic, and NOT IN the AND of !=; each element is coerced
// like a comparison. Elements the types rule out are dropped; a NULL element
// makes a miss NULL; an element that coerces to a range (a DOUBLE against a
// decimal) stays beside the list as its own comparison.
func coerceIn(c Column, list []Literal, not bool) (Expr, error) {
	ci, err := infoOf(c)
	if err != nil {
		return nil, err
	}
	op := Eq
	if not {
		op = Ne
	}
	cond := &Cond{Col: c, Op: In, Order: ci.order}
	if not {
		cond.Op = NotIn
	}
	var extra []Expr
	for _, lit := range list {
		if lit.IsNull() {
			cond.HasNull = true
			continue
		}
		e, err := ci.compare(op, lit)
		if err != nil {
			return nil, err
		}
		switch x := e.(type) {
		case *Cond:
			if x.Op == op {
				cond.Values = append(cond.Values, x.Value)
				continue
			}
		case *Const:
			if (x.Value == False && !not) || (x.Value == True && not) {
				continue // x = lit never holds (x != lit always does)
			}
			if x.Value == Unknown {
				cond.HasNull = true
				continue
			}
		}
		if isNever(e) && !not || isAlways(e) && not {
			continue
		}
		extra = append(extra, e)
	}
	if ci.class == classNull {
		// Every value is NULL: IN and NOT IN are NULL for every row.
		return &Const{Unknown}, nil
	}
	o := ci.order
	sort.Slice(cond.Values, func(i, j int) bool { return o.Compare(cond.Values[i], cond.Values[j]) < 0 })
	dedup := cond.Values[:0]
	for i, v := range cond.Values {
		if i == 0 || o.Compare(v, dedup[len(dedup)-1]) != 0 {
			dedup = append(dedup, v)
		}
	}
	cond.Values = dedup
	if len(extra) == 0 {
		return cond, nil
	}
	xs := append([]Expr{cond}, extra...)
	if not {
		return &And{Xs: xs}, nil
	}
	return &Or{Xs: xs}, nil
}

// isNever and isAlways recognise the null-aware constants of colInfo.
func isNever(e Expr) bool {
	a, ok := e.(*And)
	if !ok || len(a.Xs) != 2 {
		return false
	}
	c, ok1 := a.Xs[0].(*Cond)
	k, ok2 := a.Xs[1].(*Const)
	return ok1 && ok2 && c.Op == IsNullOp && k.Value == Unknown
}

func isAlways(e Expr) bool {
	o, ok := e.(*Or)
	if !ok || len(o.Xs) != 2 {
		return false
	}
	c, ok1 := o.Xs[0].(*Cond)
	k, ok2 := o.Xs[1].(*Const)
	return ok1 && ok2 && c.Op == IsNotNullOp && k.Value == Unknown
}

// nullAwareCol is the column of a never/always constant.
func nullAwareCol(e Expr) string {
	switch n := e.(type) {
	case *And:
		return n.Xs[0].(*Cond).Col.Path
	case *Or:
		return n.Xs[0].(*Cond).Col.Path
	}
	return ""
}

// nullOnNull reports whether e is a value test on column path, so NULL
// exactly when the column is NULL and otherwise TRUE or FALSE.
func nullOnNull(e Expr, path string) bool {
	c, ok := e.(*Cond)
	if !ok || c.Col.Path != path || !c.valueTest() {
		return false
	}
	return !((c.Op == In || c.Op == NotIn) && c.HasNull)
}

// simplify flattens nested And/Or and folds constants, exactly in
// three-valued logic: AND drops TRUE and is FALSE with a FALSE child; OR
// drops FALSE and is TRUE with a TRUE child. A null-aware "always" beside a
// value test of the same column adds nothing to an AND (and "never" nothing
// to an OR): both are NULL on NULL.
func simplify(e Expr) Expr {
	switch n := e.(type) {
	case *And:
		var xs []Expr
		for _, x := range n.Xs {
			x = simplify(x)
			if a, ok := x.(*And); ok && !isNever(a) {
				xs = append(xs, a.Xs...)
				continue
			}
			xs = append(xs, x)
		}
		var out []Expr
		for _, x := range xs {
			if k, ok := x.(*Const); ok {
				if k.Value == False {
					return &Const{False}
				}
				if k.Value == True {
					continue
				}
			}
			out = append(out, x)
		}
		out = dropRedundant(out, isAlways)
		switch len(out) {
		case 0:
			return &Const{True}
		case 1:
			return out[0]
		}
		return &And{Xs: out}
	case *Or:
		var xs []Expr
		for _, x := range n.Xs {
			x = simplify(x)
			if o, ok := x.(*Or); ok && !isAlways(o) {
				xs = append(xs, o.Xs...)
				continue
			}
			xs = append(xs, x)
		}
		var out []Expr
		for _, x := range xs {
			if k, ok := x.(*Const); ok {
				if k.Value == True {
					return &Const{True}
				}
				if k.Value == False {
					continue
				}
			}
			out = append(out, x)
		}
		out = dropRedundant(out, isNever)
		switch len(out) {
		case 0:
			return &Const{False}
		case 1:
			return out[0]
		}
		return &Or{Xs: out}
	}
	return e
}

// dropRedundant removes null-aware constants (as recognised by is) that sit
// beside a value test of the same column.
func dropRedundant(xs []Expr, is func(Expr) bool) []Expr {
	var out []Expr
	for i, x := range xs {
		if is(x) {
			path := nullAwareCol(x)
			redundant := false
			for j, y := range xs {
				if j != i && nullOnNull(y, path) {
					redundant = true
					break
				}
			}
			if redundant {
				continue
			}
		}
		out = append(out, x)
	}
	return out
}
