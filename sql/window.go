package sql

import (
	"errors"
	"github.com/pqsql/pqsql/sql/ast"
	"strconv"

	"github.com/xwb1989/sqlparser"
)

// Markers of the window lowerings; fixAST removes every one of them.
const (
	overMarker      = reservedPrefix + "over"
	partitionMarker = reservedPrefix + "wpart"
	orderMarkerPre  = reservedPrefix + "word_"
	frameMarker     = reservedPrefix + "wframe"
	qualifyMarker   = reservedPrefix + "qualify"
)

// windowQualifier is the Qualifier fixAST gives a window function call's
// FuncExpr, so that no reader of the AST takes sum(x) OVER (...) for an
// aggregate of the query; parsed.WindowOf gives its OVER clause.
const windowQualifier = reservedPrefix + "window"

// A rawWindow is the OVER clause of a window function call, named windows
// already substituted.
type rawWindow struct {
	PartitionBy []sqlparser.Expr
	OrderBy     []rawWindowOrder
	// Frame is nil when none was written: DuckDB's default, RANGE BETWEEN
	// UNBOUNDED PRECEDING AND CURRENT ROW with ORDER BY, the whole
	// partition without.
	Frame *rawFrame
	// Text is the OVER clause as written, for column names.
	Text string
}

// A rawWindowOrder is one ORDER BY item of an OVER clause.
type rawWindowOrder struct {
	Expr  sqlparser.Expr
	Desc  bool
	Nulls NullsOrder
}

// A rawFrame is ROWS or RANGE BETWEEN Start AND End.
type rawFrame struct {
	Rows       bool // ROWS; RANGE otherwise
	Start, End rawFrameBound
}

// FrameBound kinds.
const (
	UnboundedPreceding = ast.UnboundedPreceding
	Preceding          = ast.Preceding
	CurrentRow         = ast.CurrentRow
	Following          = ast.Following
	UnboundedFollowing = ast.UnboundedFollowing
)

// A rawFrameBound is one end of a frame: Kind is one of the constants above,
// Offset the expression before PRECEDING or FOLLOWING (else nil).
type rawFrameBound struct {
	Kind   string
	Offset sqlparser.Expr
}

// WindowOf returns the OVER clause of a window function call of the AST, or
// nil for any other call.
func (s *parsed) WindowOf(f *sqlparser.FuncExpr) *rawWindow {
	return s.Windows[f]
}

// QualifyOf returns the QUALIFY condition of a SELECT of the AST, or nil.
func (s *parsed) QualifyOf(n *sqlparser.Select) sqlparser.Expr {
	return s.Qualify[n]
}

// lowerWindows lowers named WINDOW clauses, USING SAMPLE, QUALIFY and OVER,
// in that order.
func (p *parser) lowerWindows(out []otok) ([]otok, error) {
	out, err := p.lowerWindowClauses(out)
	if err != nil {
		return nil, err
	}
	if out, err = p.lowerSample(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerQualify(out); err != nil {
		return nil, err
	}
	return p.lowerOver(out)
}

// lowerWindowClauses removes every "WINDOW name AS (spec), ..." clause and
// writes each named window's spec where OVER refers to it: OVER name is
// OVER (spec) and OVER (name ORDER BY ...) extends it.
func (p *parser) lowerWindowClauses(out []otok) ([]otok, error) {
	named := map[string][]otok{}
	for i := 0; i < len(out); i++ {
		if out[i].kw != "window" || isOpTok(out, i-1, "(") || isOpTok(out, i-1, ".") || isOpTok(out, i-1, ",") {
			continue
		}
		j := i + 1
		for {
			if j >= len(out) || out[j].kind != tkWord && out[j].kind != tkQIdent {
				return nil, p.errOut(out, j, ErrSyntax, "expected a window name")
			}
			name := out[j].val
			if kwAt(out, j+1) != "as" || !isOpTok(out, j+2, "(") {
				return nil, p.errOut(out, j+1, ErrSyntax, "expected AS (")
			}
			end := matchClose(out, j+2)
			if end < 0 {
				return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
			}
			if _, dup := named[lower(name)]; dup {
				return nil, p.errOut(out, j, ErrSyntax, "duplicate window name \""+name+"\"")
			}
			spec, err := p.expandBase(out[j+3:end], named)
			if err != nil {
				return nil, err
			}
			named[lower(name)] = spec
			j = end + 1
			if !isOpTok(out, j, ",") {
				break
			}
			j++
		}
		out = splice(out, i, j)
		i--
	}
	if len(named) == 0 {
		return out, nil
	}
	for i := 0; i < len(out); i++ {
		if out[i].kw != "over" || !isOpTok(out, i-1, ")") || i+1 >= len(out) {
			continue
		}
		switch {
		case isOpTok(out, i+1, "("):
			end := matchClose(out, i+1)
			if end < 0 {
				return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
			}
			spec, err := p.expandBase(out[i+2:end], named)
			if err != nil {
				return nil, err
			}
			rep := append([]otok{out[i+1]}, spec...)
			out = splice(out, i+2, end, rep[1:]...)
		case out[i+1].kind == tkWord || out[i+1].kind == tkQIdent:
			spec, ok := named[lower(out[i+1].val)]
			if !ok {
				return nil, p.errOut(out, i+1, ErrSyntax, "window \""+out[i+1].val+"\" does not exist")
			}
			rep := []otok{invented("(", out[i+1].orig)}
			rep = append(rep, spec...)
			rep = append(rep, invented(")", out[i+1].orig))
			out = splice(out, i+1, i+2, rep...)
		}
	}
	return out, nil
}

// expandBase replaces a window name at the start of a spec by that
// window's spec.
func (p *parser) expandBase(spec []otok, named map[string][]otok) ([]otok, error) {
	if len(spec) == 0 || spec[0].kind != tkWord && spec[0].kind != tkQIdent || specWords[spec[0].kw] {
		return spec, nil
	}
	base, ok := named[lower(spec[0].val)]
	if !ok {
		return nil, p.errOut(spec, 0, ErrSyntax, "window \""+spec[0].val+"\" does not exist")
	}
	res := append([]otok{}, base...)
	return append(res, spec[1:]...), nil
}

// frameStarts reports whether ROWS, RANGE or GROUPS at j starts a frame
// rather than naming a column.
func frameStarts(out []otok, j int) bool {
	switch kwAt(out, j+1) {
	case "between", "unbounded", "current", "interval":
		return true
	}
	return j+1 < len(out) && (out[j+1].kind == tkNumber || isOpTok(out, j+1, "("))
}

var specWords = map[string]bool{"partition": true, "order": true, "rows": true, "range": true, "groups": true}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// lowerQualify moves "QUALIFY cond" into a last select item
// __pqsql_qualify(cond) of its SELECT; fixAST takes it out again and
// records the condition in Select.Qualify.
func (p *parser) lowerQualify(out []otok) ([]otok, error) {
	for i := 0; i < len(out); i++ {
		if out[i].kw != "qualify" {
			continue
		}
		end := clauseEnd(out, i+1)
		if end == i+1 {
			return nil, p.errOut(out, end, ErrSyntax, "expected a condition after QUALIFY")
		}
		cond := append([]otok{}, out[i+1:end]...)
		listEnd := selectListEnd(out, i)
		if listEnd < 0 {
			return nil, p.errOut(out, i, ErrSyntax, "QUALIFY must follow a SELECT")
		}
		out = splice(out, i, end)
		rep := []otok{invented(",", out[min(i, len(out)-1)].orig), invented(qualifyMarker, cond[0].orig), invented("(", cond[0].orig)}
		rep = append(rep, cond...)
		rep = append(rep, invented(")", cond[len(cond)-1].orig))
		out = splice(out, listEnd, listEnd, rep...)
		i = listEnd + len(rep) - 1
	}
	return out, nil
}

// selectListEnd returns where the select list ends of the SELECT at the
// same depth before a clause at i (the index of its FROM, WHERE, GROUP or
// HAVING, or i), or -1 when no SELECT is there.
func selectListEnd(out []otok, i int) int {
	sel, depth := -1, 0
	for k := i - 1; k >= 0 && sel < 0; k-- {
		switch {
		case isOpTok(out, k, ")"):
			depth++
		case isOpTok(out, k, "("):
			depth--
		case depth == 0 && out[k].kw == "select":
			sel = k
		}
		if depth < 0 {
			break
		}
	}
	if sel < 0 {
		return -1
	}
	depth = 0
	for k := sel + 1; k < i; k++ {
		switch {
		case isOpTok(out, k, "("):
			depth++
		case isOpTok(out, k, ")"):
			depth--
		case depth == 0 && (out[k].kw == "from" || out[k].kw == "where" || out[k].kw == "group" || out[k].kw == "having"):
			return k
		}
	}
	return i
}

// clauseEnd returns where the clause starting at i ends: at a clause
// keyword or a ")" of the enclosing level, or the end.
func clauseEnd(out []otok, i int) int {
	depth := 0
	for j := i; j < len(out); j++ {
		switch {
		case isOpTok(out, j, "("):
			depth++
		case isOpTok(out, j, ")"):
			if depth == 0 {
				return j
			}
			depth--
		case depth == 0 && clauseEnds[out[j].kw]:
			return j
		}
	}
	return len(out)
}

// lowerOver moves "f(args) OVER (spec)" into a last argument
// __pqsql_over(k, __pqsql_wpart(e), ..., __pqsql_word_ad(e), ...,
// __pqsql_wframe('rows', 'preceding', n, 'current row', NULL)) of the call;
// fixAST turns it into Select.Windows. k numbers the OVER clause for its
// text.
func (p *parser) lowerOver(out []otok) ([]otok, error) {
	for i := 0; i < len(out); i++ {
		if out[i].kw != "over" {
			continue
		}
		if !isOpTok(out, i-1, ")") {
			if isOpTok(out, i+1, "(") {
				return nil, p.errOut(out, i, ErrSyntax, "OVER must follow a function call")
			}
			continue
		}
		open := matchOpen(out, i-1)
		if open < 1 || !isCallee(out[open-1]) || out[open-1].kw == "" && out[open-1].kind != tkQIdent {
			return nil, p.errOut(out, i, ErrSyntax, "OVER must follow a function call")
		}
		if !isOpTok(out, i+1, "(") {
			return nil, p.errOut(out, i+1, ErrSyntax, `expected "(" or a window name after OVER`)
		}
		end := matchClose(out, i+1)
		if end < 0 {
			return nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
		}
		args, err := p.windowSpec(out, i+2, end)
		if err != nil {
			return nil, err
		}
		k := len(p.overs)
		p.overs = append(p.overs, p.text[p.toks[out[i].orig].off:p.toks[out[end].orig].end])
		o := out[i].orig
		rep := []otok{}
		if open+1 < i-1 {
			rep = append(rep, invented(",", o))
		}
		rep = append(rep, invented(overMarker, o), invented("(", o), invented(strconv.Itoa(k), o))
		for _, a := range args {
			rep = append(rep, invented(",", o))
			rep = append(rep, a...)
		}
		rep = append(rep, invented(")", o), out[i-1])
		out = splice(out, i-1, end+1, rep...)
	}
	return out, nil
}

// windowSpec lowers the spec out[lo:hi] of an OVER clause into the marker
// calls lowerOver passes.
func (p *parser) windowSpec(out []otok, lo, hi int) ([][]otok, error) {
	var args [][]otok
	i := lo
	wrap := func(marker string, e []otok) []otok {
		r := []otok{invented(marker, e[0].orig), invented("(", e[0].orig)}
		r = append(r, e...)
		return append(r, invented(")", e[len(e)-1].orig))
	}
	// upto returns where the part starting at j ends: at one of the words
	// at depth 0, or hi.
	upto := func(j int, words ...string) int {
		depth := 0
		for ; j < hi; j++ {
			switch {
			case isOpTok(out, j, "("):
				depth++
			case isOpTok(out, j, ")"):
				depth--
			case depth == 0:
				for _, w := range words {
					if out[j].kw == w && (!specWords[w] || w == "order" || w == "partition" || frameStarts(out, j)) {
						return j
					}
				}
			}
		}
		return hi
	}
	if kwAt(out, i) == "partition" {
		if kwAt(out, i+1) != "by" {
			return nil, p.errOut(out, i+1, ErrSyntax, "expected BY")
		}
		end := upto(i+2, "order", "rows", "range", "groups")
		for _, e := range splitCommas(out, i+2, end) {
			if len(e) == 0 {
				return nil, p.errOut(out, end, ErrSyntax, "expected an expression")
			}
			args = append(args, wrap(partitionMarker, e))
		}
		i = end
	}
	if kwAt(out, i) == "order" {
		if kwAt(out, i+1) != "by" {
			return nil, p.errOut(out, i+1, ErrSyntax, "expected BY")
		}
		end := upto(i+2, "rows", "range", "groups")
		for _, e := range splitCommas(out, i+2, end) {
			dir, nulls := "a", "d"
			if n := len(e); n >= 2 && e[n-2].kw == "nulls" && (e[n-1].kw == "first" || e[n-1].kw == "last") {
				nulls = e[n-1].kw[:1]
				e = e[:n-2]
			}
			if n := len(e); n >= 1 && (e[n-1].kw == "asc" || e[n-1].kw == "desc") {
				dir = e[n-1].kw[:1]
				e = e[:n-1]
			}
			if len(e) == 0 {
				return nil, p.errOut(out, end, ErrSyntax, "expected an expression")
			}
			args = append(args, wrap(orderMarkerPre+dir+nulls, e))
		}
		i = end
	}
	if k := kwAt(out, i); (k == "rows" || k == "range" || k == "groups") && frameStarts(out, i) {
		if k == "groups" {
			return nil, p.errOut(out, i, ErrUnsupported, "GROUPS frames are not supported")
		}
		o := out[i].orig
		frame := []otok{invented(frameMarker, o), invented("(", o), invented(mysqlString(k), o)}
		i++
		var bounds [][]otok
		if kwAt(out, i) == "between" {
			and := upto(i+1, "and")
			if and == hi {
				return nil, p.errOut(out, hi, ErrSyntax, "expected AND")
			}
			bounds = [][]otok{out[i+1 : and], out[and+1 : upto(and+1, "exclude")]}
		} else {
			bounds = [][]otok{out[i:upto(i, "exclude")], nil}
		}
		for bi, b := range bounds {
			if bi == 1 && b == nil {
				frame = append(frame, invented(",", o), invented(mysqlString(CurrentRow), o), invented(",", o), invented("NULL", o))
				continue
			}
			kind, off, err := p.frameBound(out, b)
			if err != nil {
				return nil, err
			}
			frame = append(frame, invented(",", o), invented(mysqlString(kind), o), invented(",", o))
			if off == nil {
				frame = append(frame, invented("NULL", o))
			} else {
				frame = append(frame, off...)
			}
		}
		frame = append(frame, invented(")", o))
		args = append(args, frame)
		i = upto(i, "exclude")
		if i < hi {
			return nil, p.errOut(out, i, ErrUnsupported, "EXCLUDE in a window frame is not supported")
		}
	}
	if i < hi {
		return nil, p.errOut(out, i, ErrSyntax, "expected PARTITION BY, ORDER BY, ROWS or RANGE in the OVER clause")
	}
	return args, nil
}

// frameBound reads one frame bound: UNBOUNDED PRECEDING|FOLLOWING, CURRENT
// ROW, or expr PRECEDING|FOLLOWING.
func (p *parser) frameBound(out []otok, b []otok) (string, []otok, error) {
	n := len(b)
	switch {
	case n == 0:
		return "", nil, p.errOut(out, len(out), ErrSyntax, "expected a frame bound")
	case n == 2 && b[0].kw == "unbounded" && b[1].kw == "preceding":
		return UnboundedPreceding, nil, nil
	case n == 2 && b[0].kw == "unbounded" && b[1].kw == "following":
		return UnboundedFollowing, nil, nil
	case n == 2 && b[0].kw == "current" && b[1].kw == "row":
		return CurrentRow, nil, nil
	case n >= 2 && b[n-1].kw == "preceding":
		return Preceding, b[:n-1], nil
	case n >= 2 && b[n-1].kw == "following":
		return Following, b[:n-1], nil
	}
	return "", nil, p.errAt(b[n-1].orig, ErrSyntax, "expected PRECEDING, FOLLOWING or CURRENT ROW")
}

// splitCommas splits out[lo:hi] at the commas of depth 0.
func splitCommas(out []otok, lo, hi int) [][]otok {
	var parts [][]otok
	depth, start := 0, lo
	for j := lo; j < hi; j++ {
		switch {
		case isOpTok(out, j, "("), isOpTok(out, j, "["), isOpTok(out, j, "{"):
			depth++
		case isOpTok(out, j, ")"), isOpTok(out, j, "]"), isOpTok(out, j, "}"):
			depth--
		case depth == 0 && isOpTok(out, j, ","):
			parts = append(parts, out[start:j])
			start = j + 1
		}
	}
	return append(parts, out[start:hi])
}

// fixWindow turns the __pqsql_over marker, the last argument of call n,
// into sel.Windows[n]; walk visits the expressions taken out of the call.
func (p *parser) fixWindow(sel *parsed, n *sqlparser.FuncExpr, marker *sqlparser.FuncExpr, walk func(sqlparser.Expr) error) error {
	n.Exprs = n.Exprs[:len(n.Exprs)-1]
	n.Qualifier = sqlparser.NewTableIdent(windowQualifier)
	w := &rawWindow{}
	for ai, se := range marker.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok {
			return errInternalWindow
		}
		if ai == 0 {
			v, ok := ae.Expr.(*sqlparser.SQLVal)
			k, err := 0, error(nil)
			if ok {
				k, err = strconv.Atoi(string(v.Val))
			}
			if !ok || err != nil || k < 0 || k >= len(p.overs) {
				return errInternalWindow
			}
			w.Text = p.overs[k]
			continue
		}
		f, ok := ae.Expr.(*sqlparser.FuncExpr)
		if !ok {
			return errInternalWindow
		}
		var xs []sqlparser.Expr
		for _, a := range f.Exprs {
			aa, ok := a.(*sqlparser.AliasedExpr)
			if !ok {
				return errInternalWindow
			}
			if err := walk(aa.Expr); err != nil {
				return err
			}
			xs = append(xs, aa.Expr)
		}
		name := f.Name.Lowered()
		switch {
		case name == partitionMarker && len(xs) == 1:
			w.PartitionBy = append(w.PartitionBy, xs[0])
		case len(name) == len(orderMarkerPre)+2 && name[:len(orderMarkerPre)] == orderMarkerPre && len(xs) == 1:
			o := rawWindowOrder{Expr: xs[0], Desc: name[len(orderMarkerPre)] == 'd'}
			switch name[len(orderMarkerPre)+1] {
			case 'f':
				o.Nulls = NullsFirst
			case 'l':
				o.Nulls = NullsLast
			}
			w.OrderBy = append(w.OrderBy, o)
		case name == frameMarker && len(xs) == 5:
			str := func(e sqlparser.Expr) string {
				if v, ok := e.(*sqlparser.SQLVal); ok {
					return string(v.Val)
				}
				return ""
			}
			off := func(e sqlparser.Expr) sqlparser.Expr {
				if _, null := e.(*sqlparser.NullVal); null {
					return nil
				}
				return e
			}
			w.Frame = &rawFrame{Rows: str(xs[0]) == "rows",
				Start: rawFrameBound{Kind: str(xs[1]), Offset: off(xs[2])},
				End:   rawFrameBound{Kind: str(xs[3]), Offset: off(xs[4])}}
		default:
			return errInternalWindow
		}
	}
	if sel.Windows == nil {
		sel.Windows = map[*sqlparser.FuncExpr]*rawWindow{}
	}
	sel.Windows[n] = w
	return nil
}

var errInternalWindow = errors.New("malformed OVER clause marker")
