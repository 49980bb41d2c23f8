package pushdown

import (
	"bytes"
	"fmt"

	"github.com/pqsql/pqsql/format/stats"
)

// test evaluates the leaf on one value in PLAIN form (ok false for NULL),
// exactly: NULL satisfies no comparison, NaN equals NaN and is greatest.
func (c *Cond) test(v []byte, ok bool) Truth {
	if !ok {
		switch c.Op {
		case IsNullOp:
			return True
		case IsNotNullOp:
			return False
		}
		return Unknown
	}
	o := c.Order
	switch c.Op {
	case IsNullOp:
		return False
	case IsNotNullOp:
		return True
	case Eq:
		return truth(o.Compare(v, c.Value) == 0)
	case Ne:
		return truth(o.Compare(v, c.Value) != 0)
	case Lt:
		return truth(o.Compare(v, c.Value) < 0)
	case Le:
		return truth(o.Compare(v, c.Value) <= 0)
	case Gt:
		return truth(o.Compare(v, c.Value) > 0)
	case Ge:
		return truth(o.Compare(v, c.Value) >= 0)
	case In, NotIn:
		found := c.listed(v)
		switch {
		case found:
			return truth(c.Op == In)
		case c.HasNull:
			return Unknown
		}
		return truth(c.Op == NotIn)
	case Prefix:
		return truth(bytes.HasPrefix(v, c.Value))
	case NotPrefix:
		return truth(!bytes.HasPrefix(v, c.Value))
	case LikeOp:
		return truth(likeMatch(v, c.Pattern, c.Escape))
	case NotLikeOp:
		return truth(!likeMatch(v, c.Pattern, c.Escape))
	}
	return Unknown
}

func truth(b bool) Truth {
	if b {
		return True
	}
	return False
}

// listed reports whether v equals a value of an In/NotIn list (sorted in Order).
func (c *Cond) listed(v []byte) bool {
	lo, hi := 0, len(c.Values)
	for lo < hi {
		m := (lo + hi) / 2
		switch k := c.Order.Compare(c.Values[m], v); {
		case k == 0:
			return true
		case k < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return false
}

// valueTest reports whether the leaf can only be decided by a value (so a
// dictionary, which holds no nulls, can decide it).
func (c *Cond) valueTest() bool { return c.Op != IsNullOp && c.Op != IsNotNullOp }

// excludedBy reports whether bounds (of a column chunk or a page) prove that
// no row satisfies the leaf, and says why in words. It asks only what the
// Bounds promise: every non-null value lies in [Min, Max] in Order, or is a
// NaN where MayHoldNaN.
func (c *Cond) excludedBy(b stats.Bounds) (bool, string) {
	p := c.Col.Path
	switch c.Op {
	case IsNullOp:
		if !b.MayHoldNull() {
			return true, fmt.Sprintf("%s null_count is 0", p)
		}
		return false, ""
	case IsNotNullOp:
		if b.AllNull {
			return true, fmt.Sprintf("%s holds only nulls", p)
		}
		return false, ""
	}
	if b.AllNull {
		return true, fmt.Sprintf("%s holds only nulls", p)
	}
	o := b.Order
	if !o.Defined() {
		return false, ""
	}
	v := c.Value
	nanNote := ""
	if o.Kind().IsFloat() {
		nanNote = " and no NaN"
	}
	switch c.Op {
	case Eq:
		if b.MayHoldEqual(v) {
			return false, ""
		}
		return true, c.outside(b, v)
	case Lt, Le:
		if b.MayHoldBelow(v, c.Op == Le) {
			return false, ""
		}
		if b.AllNaN {
			return true, fmt.Sprintf("%s holds only NaN", p)
		}
		rel := ">="
		if c.Op == Le {
			rel = ">"
		}
		return true, fmt.Sprintf("%s min %s %s %s", p, c.show(b.Min), rel, c.show(v))
	case Gt, Ge:
		if b.MayHoldAbove(v, c.Op == Ge) {
			return false, ""
		}
		if o.IsNaN(v) {
			if c.Op == Gt {
				return true, "no value is greater than NaN"
			}
			return true, fmt.Sprintf("%s holds no NaN", p)
		}
		rel := "<="
		if c.Op == Ge {
			rel = "<"
		}
		return true, fmt.Sprintf("%s max %s %s %s%s", p, c.show(b.Max), rel, c.show(v), nanNote)
	case Ne:
		if c.allEqual(b, v) {
			return true, fmt.Sprintf("every %s equals %s", p, c.show(v))
		}
		return false, ""
	case In:
		for _, x := range c.Values {
			if b.MayHoldEqual(x) {
				return false, ""
			}
		}
		if len(c.Values) == 0 {
			return true, "the IN list can match no value"
		}
		return true, fmt.Sprintf("no listed value lies within %s", c.span(b))
	case NotIn:
		if c.HasNull {
			return true, "the NOT IN list holds NULL, so it is never true"
		}
		for _, x := range c.Values {
			if c.allEqual(b, x) {
				return true, fmt.Sprintf("every %s equals %s, which is listed", p, c.show(x))
			}
		}
		return false, ""
	case Prefix:
		return c.prefixExcluded(b, v)
	case NotPrefix:
		return c.allPrefixed(b, v)
	case LikeOp:
		s := c.likeShape()
		if s.exact {
			if b.MayHoldEqual(s.prefix) {
				return false, ""
			}
			return true, c.outside(b, s.prefix)
		}
		if len(s.prefix) == 0 {
			return false, ""
		}
		return c.prefixExcluded(b, s.prefix)
	case NotLikeOp:
		s := c.likeShape()
		switch {
		case s.exact:
			if c.allEqual(b, s.prefix) {
				return true, fmt.Sprintf("every %s equals %s", p, c.show(s.prefix))
			}
		case s.prefixOnly:
			return c.allPrefixed(b, s.prefix)
		}
		return false, ""
	}
	return false, ""
}

// outside says why v lies outside b for an equality.
func (c *Cond) outside(b stats.Bounds, v []byte) string {
	o, p := b.Order, c.Col.Path
	switch {
	case o.IsNaN(v):
		return fmt.Sprintf("%s holds no NaN", p)
	case b.AllNaN:
		return fmt.Sprintf("%s holds only NaN", p)
	case b.Min != nil && o.Compare(v, b.Min) < 0:
		return fmt.Sprintf("%s min %s > %s", p, c.show(b.Min), c.show(v))
	case b.Max != nil:
		return fmt.Sprintf("%s max %s < %s", p, c.show(b.Max), c.show(v))
	}
	return fmt.Sprintf("%s cannot hold %s", p, c.show(v))
}

// span renders b's range as "order_id [1, 4000]".
func (c *Cond) span(b stats.Bounds) string {
	f := func(v []byte) string {
		if v == nil {
			return "?"
		}
		return c.show(v)
	}
	return fmt.Sprintf("%s [%s, %s]", c.Col.Path, f(b.Min), f(b.Max))
}

// allEqual reports whether b proves every non-null value equals v. Bounds
// bound whether exact or not, so min = max = v settles it; -0 and +0 are
// equal, as in SQL.
func (c *Cond) allEqual(b stats.Bounds, v []byte) bool {
	o := b.Order
	if o.IsNaN(v) {
		return b.AllNaN
	}
	return b.Min != nil && b.Max != nil && !b.MayHoldNaN() && !b.AllNaN &&
		o.Compare(b.Min, v) == 0 && o.Compare(b.Max, v) == 0
}

// prefixExcluded reports whether b proves no value starts with p: all
// strings with the prefix lie in [p, prefixEnd(p)).
func (c *Cond) prefixExcluded(b stats.Bounds, p []byte) (bool, string) {
	if !b.MayHoldAbove(p, true) {
		return true, fmt.Sprintf("%s max %s < %s", c.Col.Path, c.show(b.Max), c.show(p))
	}
	if end := prefixEnd(p); end != nil && !b.MayHoldBelow(end, false) {
		return true, fmt.Sprintf("%s min %s is past every string starting with %s", c.Col.Path, c.show(b.Min), c.show(p))
	}
	return false, ""
}

// allPrefixed reports whether b proves every non-null value starts with p,
// so that NOT starts_with is never true.
func (c *Cond) allPrefixed(b stats.Bounds, p []byte) (bool, string) {
	if len(p) == 0 {
		return true, "every string starts with ''"
	}
	end := prefixEnd(p)
	o := b.Order
	if end != nil && b.Min != nil && b.Max != nil && o.Compare(b.Min, p) >= 0 && o.Compare(b.Max, end) < 0 {
		return true, fmt.Sprintf("every %s starts with %s (min %s, max %s)", c.Col.Path, c.show(p), c.show(b.Min), c.show(b.Max))
	}
	return false, ""
}
