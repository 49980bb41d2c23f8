package sql

import (
	"slices"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// An otok is a token of the lowered query: the text handed to sqlparser and
// the original token it came from, so errors point into the original text.
type otok struct {
	text string  // as emitted to sqlparser
	kind tokKind // kind of the original token (tkWord for invented words)
	kw   string  // lower-cased keyword for bare words of the input; "" for invented tokens
	val  string  // original token value (unescaped strings, operator text, ...)
	orig int     // index into parser.toks
}

// Names of the markers the lowering leaves in the text for fixAST to find.
const (
	// SourcePrefix starts every placeholder table name of Select.Sources.
	SourcePrefix     = reservedPrefix + "src_"
	castMarker       = reservedPrefix + "type"
	nullsFirstMarker = reservedPrefix + "nulls_first"
	nullsLastMarker  = reservedPrefix + "nulls_last"
)

// Operators that fixAST writes into the AST where MySQL has none.
const (
	// ConcatStr is the Operator of a sqlparser.BinaryExpr for DuckDB's ||
	// (string concatenation; MySQL would read || as OR).
	ConcatStr = "||"
	// ILikeStr is the Operator of a sqlparser.ComparisonExpr for ILIKE.
	ILikeStr = "ilike"
	// NotILikeStr is the Operator of a sqlparser.ComparisonExpr for NOT ILIKE.
	NotILikeStr = "not ilike"
)

// structural are the keywords that end or shape a clause; they are never a
// function name, view name or the start of a cast operand.
var structural = map[string]bool{
	"select": true, "from": true, "where": true, "group": true, "by": true, "having": true,
	"order": true, "limit": true, "offset": true, "union": true, "except": true, "intersect": true,
	"join": true, "inner": true, "left": true, "right": true, "cross": true, "natural": true,
	"outer": true, "full": true, "on": true, "using": true, "as": true, "and": true, "or": true,
	"not": true, "in": true, "is": true, "like": true, "ilike": true, "between": true, "case": true,
	"when": true, "then": true, "else": true, "end": true, "distinct": true, "all": true,
	"asc": true, "desc": true, "nulls": true, "window": true, "qualify": true, "with": true,
	"lateral": true, "exists": true, "any": true, "some": true,
}

// clauseEnds end a FROM clause or an ORDER BY list at their nesting level.
var clauseEnds = map[string]bool{
	"where": true, "group": true, "having": true, "order": true, "limit": true, "offset": true,
	"union": true, "except": true, "intersect": true, "window": true, "qualify": true,
}

// mysqlOnly are words the MySQL grammar reserves but DuckDB lets name columns;
// they are backquoted so sqlparser reads them as identifiers.
var mysqlOnly = map[string]bool{
	"add": true, "alter": true, "auto_increment": true, "binary": true, "_binary": true,
	"boolean": true, "convert": true, "database": true, "databases": true, "delete": true,
	"describe": true, "div": true, "drop": true, "explain": true, "extended": true, "force": true,
	"if": true, "ignore": true, "index": true, "insert": true, "key": true, "lock": true,
	"match": true, "maxvalue": true, "mod": true, "next": true, "processlist": true,
	"regexp": true, "rename": true, "replace": true, "rlike": true, "schema": true,
	"separator": true, "set": true, "show": true, "sql_cache": true, "sql_no_cache": true,
	"sql_calc_found_rows": true, "straight_join": true, "stream": true, "tables": true,
	"update": true, "use": true, "values": true, "partition": true, "group_concat": true,
}

// query lowers and parses the query made of tokens lo..end of the statement.
func (p *parser) query(lo int) (*Select, error) {
	return p.queryRange(lo, len(p.toks))
}

// queryRange lowers and parses the query made of tokens lo..hi-1.
func (p *parser) queryRange(lo, hi int) (*Select, error) {
	switch {
	case p.kw(lo) == "with":
		return p.with(lo, hi)
	case p.isOp(lo, "("):
		return nil, p.errAt(lo, ErrUnsupported, "a parenthesized query at the start of a statement is not supported: expected SELECT")
	case p.kw(lo) != "select" && p.kw(lo) != "from" && p.kw(lo) != "values":
		return nil, p.errAt(lo, ErrSyntax, "expected SELECT")
	}
	// Past the last token is "end of input" for errors: the ")" closing a
	// CTE's query, or the end of the statement.
	defer func(end int) { p.end = end }(p.end)
	p.end = hi
	out, err := p.convert(lo, hi)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].kw == "with" && isOpTok(out, i-1, "(") {
			return nil, p.errOut(out, i, ErrUnsupported, "WITH inside a subquery is not supported: put the common table expressions before the outer SELECT")
		}
	}
	if out, err = p.lowerTilde(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerValues(out); err != nil {
		return nil, err
	}
	out = fromFirst(out)
	out = lowerOrderByStar(out)
	out = lowerFromSeries(out)
	if out, err = p.lowerSubqueryColumns(out); err != nil {
		return nil, err
	}
	out = lowerExtract(out)
	out = lowerSubstr(out)
	if out, err = p.lowerPosition(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerWithinGroup(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerIgnoreNulls(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerFilter(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerGroupingSets(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerWindows(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerArgOrders(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerFriendly(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerSetOps(out); err != nil {
		return nil, err
	}
	out = lowerLimits(out)
	out = lowerFromUnnest(out)
	out, sources, err := p.lowerSources(out)
	if err != nil {
		return nil, err
	}
	out = lowerNaturalJoins(out)
	out = lowerFullUsing(out)
	if out, err = p.lowerNested(out); err != nil {
		return nil, err
	}
	if out, err = p.lowerCasts(out); err != nil {
		return nil, err
	}
	out = lowerILike(out)
	out = lowerQuantified(out)
	if out, err = p.lowerNulls(out); err != nil {
		return nil, err
	}
	if err := p.checkLeftovers(out); err != nil {
		return nil, err
	}
	text, starts := emit(out)
	stmt, perr := sqlparser.Parse(text)
	if perr != nil {
		return nil, p.mapError(out, starts, perr)
	}
	ast, ok := stmt.(sqlparser.SelectStatement)
	if !ok {
		return nil, p.errAt(lo, ErrSyntax, "expected a query")
	}
	if !(&shaper{}).statement(ast) {
		return nil, p.errAt(lo, ErrExpressionDepth, depthMessage)
	}
	last := p.toks[hi-1]
	raw := &parsed{
		AST:     ast,
		Sources: sources,
		Nulls:   map[*sqlparser.Order]NullsOrder{},
	}
	p.positions(raw, out)
	if err := p.fixAST(raw, out); err != nil {
		return nil, err
	}
	return &Select{
		AST:     toAST(raw),
		Sources: sources,
		Text:    p.text[p.toks[lo].off:last.end],
		Pos:     p.pos(p.toks[lo].off),
		raw:     raw,
	}, nil
}

// convert turns tokens lo..hi into their sqlparser spelling: double-quoted
// identifiers become backquoted, strings are re-escaped for MySQL (where a
// backslash escapes), and operators with a different meaning in MySQL are
// renamed or rejected.
func (p *parser) convert(lo, hi int) ([]otok, error) {
	if err := p.checkOperatorRuns(lo, hi); err != nil {
		return nil, err
	}
	out := make([]otok, 0, hi-lo+8)
	for i := lo; i < hi; i++ {
		t := p.toks[i]
		o := otok{kind: t.kind, val: t.val, orig: i}
		if t.kind == tkWord && t.kw != "" && i > 0 && p.toks[i-1].kind == tkOp && p.toks[i-1].val == "." {
			// After a dot any word is a name, keywords too: s.from, (x).end.
			o.kind, o.text = tkQIdent, backquote(t.val)
			out = append(out, o)
			continue
		}
		switch t.kind {
		case tkWord:
			if err := p.checkReserved(i); err != nil {
				return nil, err
			}
			o.kw = t.kw
			o.text = t.val
			if mysqlOnly[t.kw] || !isPlainASCII(t.val) {
				o.text = backquote(t.val)
			}
		case tkQIdent:
			if err := p.checkReserved(i); err != nil {
				return nil, err
			}
			if t.val == "" {
				return nil, p.errAt(i, ErrSyntax, "zero-length quoted identifier")
			}
			o.text = backquote(t.val)
		case tkString:
			o.text = mysqlString(t.val)
		case tkNumber:
			o.text = t.val
		case tkOp:
			switch t.val {
			case "||":
				o.text = "|" // restored to ConcatStr by fixAST
			case "|":
				o.text = "|" // bitwise or; fixAST tells it from ||
			case "//":
				o.text = "div"
			case "**":
				o.text = "^"
			case "==":
				o.text = "="
			case "->>":
				return nil, p.errAt(i, ErrUnsupported, "JSON operators are not supported")
			case "!":
				return nil, p.errAt(i, ErrUnsupported, "operator "+t.val+" is not supported")
			default:
				o.text = t.val
			}
		default:
			if t.val == "?" || t.val == "$" {
				return nil, p.errAt(i, ErrUnsupported, "prepared statement parameters are not supported")
			}
			return nil, p.errAt(i, ErrSyntax, "unexpected character")
		}
		out = append(out, o)
	}
	return out, nil
}

// checkLeftovers rejects the tokens only a lowering pass may consume.
func (p *parser) checkLeftovers(out []otok) error {
	for i, o := range out {
		if o.kind != tkOp {
			continue
		}
		switch o.val {
		case "[", "]":
			return p.errOut(out, i, ErrUnsupported, "list types are not supported")
		case ":", "{", "}":
			return p.errOut(out, i, ErrSyntax, "unexpected \""+o.val+"\"")
		case "->":
			return p.errOut(out, i, ErrSyntax, "a lambda is only allowed as a function argument")
		case "&&":
			return p.errOut(out, i, ErrSyntax, "expected an expression after &&")
		case ":=":
			return p.errOut(out, i, ErrSyntax, "named arguments are only supported in read_parquet")
		case "::":
			return p.errOut(out, i, ErrInternal, "cast left unlowered")
		}
	}
	return nil
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '$' {
			return false
		}
	}
	return true
}

func backquote(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// mysqlString quotes s for sqlparser's lexer, which decodes backslash escapes
// that DuckDB does not have.
func mysqlString(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// invented returns a token the lowering adds, blamed on original token orig.
func invented(text string, orig int) otok {
	k := tkWord
	if len(text) == 1 && strings.Contains(singleOps, text) {
		k = tkOp
	}
	return otok{text: text, kind: k, val: text, orig: orig}
}

func isOpTok(out []otok, i int, op string) bool {
	return i >= 0 && i < len(out) && out[i].kind == tkOp && out[i].val == op && out[i].kw == ""
}

func kwAt(out []otok, i int) string {
	if i < 0 || i >= len(out) {
		return ""
	}
	return out[i].kw
}

// matchClose returns the index of the ")" closing the "(" at i, or -1.
func matchClose(out []otok, i int) int {
	depth := 0
	for j := i; j < len(out); j++ {
		switch {
		case isOpTok(out, j, "("):
			depth++
		case isOpTok(out, j, ")"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// matchOpen returns the index of the "(" opening the ")" at i, or -1.
func matchOpen(out []otok, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch {
		case isOpTok(out, j, ")"):
			depth++
		case isOpTok(out, j, "("):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// fromFirst rewrites DuckDB's FROM-first queries: "FROM src" is
// "SELECT * FROM src", and "FROM src SELECT list ..." is "SELECT list FROM src ...".
func fromFirst(out []otok) []otok {
	if len(out) == 0 || out[0].kw != "from" {
		return out
	}
	depth, sel := 0, -1
	for i, o := range out {
		switch {
		case isOpTok(out, i, "("):
			depth++
		case isOpTok(out, i, ")"):
			depth--
		case depth == 0 && o.kw == "select" && sel < 0:
			sel = i
		}
	}
	if sel < 0 {
		sel := invented("select", out[0].orig)
		sel.kw = "select"
		return append([]otok{sel, invented("*", out[0].orig)}, out...)
	}
	end := len(out)
	depth = 0
	for i := sel + 1; i < len(out); i++ {
		switch {
		case isOpTok(out, i, "("):
			depth++
		case isOpTok(out, i, ")"):
			depth--
		case depth == 0 && clauseEnds[out[i].kw]:
			end = i
		}
		if end < len(out) {
			break
		}
	}
	res := make([]otok, 0, len(out))
	res = append(res, out[sel:end]...)
	res = append(res, out[:sel]...)
	return append(res, out[end:]...)
}

// lowerExtract rewrites EXTRACT(part FROM x), which sqlparser lacks, into
// DuckDB's equivalent main.date_part('part', x).
func lowerExtract(out []otok) []otok {
	var rs []rewrite
	for i := 0; i+3 < len(out); i++ {
		if out[i].kw != "extract" || !isOpTok(out, i+1, "(") || out[i+2].kw == "" && out[i+2].kind != tkString || out[i+3].kw != "from" {
			continue
		}
		v := out[i+2].kw
		if out[i+2].kind == tkString {
			v = out[i+2].val
		}
		part := otok{text: mysqlString(v), kind: tkString, val: v, orig: out[i+2].orig}
		// DuckDB names the column main.date_part(...), so the call is qualified.
		rs = append(rs, rewrite{i, i + 4, []otok{invented("main", out[i].orig), invented(".", out[i].orig),
			invented("date_part", out[i].orig), out[i+1], part, invented(",", out[i+3].orig)}})
		i += 3
	}
	return applyRewrites(out, rs)
}

// lowerSources replaces every source of every FROM clause by a placeholder
// table name. A FROM counts only at a nesting level where SELECT appeared,
// so EXTRACT(YEAR FROM d) and TRIM(x FROM s) are left alone.
func (p *parser) lowerSources(out []otok) ([]otok, map[string]*Source, error) {
	type level struct{ selectSeen, inFrom bool }
	stack := []level{{}}
	sources := map[string]*Source{}
	res := make([]otok, 0, len(out))
	expect := false // the next token starts a FROM item
	unnamed := map[int]bool{}
	for i := 0; i < len(out); i++ {
		o := out[i]
		cur := &stack[len(stack)-1]
		if expect {
			expect = false
			if isOpTok(out, i, "(") {
				res = append(res, o)
				// A parenthesized join, not a subquery: its first item is a source.
				inner := level{}
				if k := kwAt(out, i+1); k != "select" && k != "from" {
					inner = level{selectSeen: true, inFrom: true}
					expect = true
				} else if end := matchClose(out, i); end > 0 && !hasAlias(out, end) {
					// DuckDB lets a FROM subquery go unnamed; sqlparser wants
					// an alias, which fixAST removes again.
					unnamed[end] = true
				}
				stack = append(stack, inner)
				continue
			}
			src, next, err := p.parseSource(out, i)
			if err != nil {
				return nil, nil, err
			}
			src.Placeholder = SourcePrefix + strconv.Itoa(p.nsrc)
			p.nsrc++
			sources[src.Placeholder] = src
			res = append(res, otok{text: src.Placeholder, kind: tkWord, val: src.Placeholder, orig: o.orig})
			i = next - 1
			// [AS] t(a, b): the column list renames the source's first
			// columns; sqlparser gets the alias alone.
			a := next
			if kwAt(out, a) == "as" {
				a++
			}
			if a < len(out) && (out[a].kind == tkWord && !structural[out[a].kw] || out[a].kind == tkQIdent) && isOpTok(out, a+1, "(") {
				end := matchClose(out, a+1)
				if end < 0 {
					return nil, nil, p.errOut(out, len(out), ErrSyntax, `expected ")"`)
				}
				for _, c := range splitCommas(out, a+2, end) {
					if len(c) != 1 || c[0].kind != tkWord && c[0].kind != tkQIdent {
						return nil, nil, p.errOut(out, a+2, ErrSyntax, "expected a column name")
					}
					src.Columns = append(src.Columns, c[0].val)
				}
				res = append(res, out[next:a+1]...)
				i = end
			}
			continue
		}
		switch {
		case isOpTok(out, i, "("):
			stack = append(stack, level{})
		case isOpTok(out, i, ")"):
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case o.kw == "select":
			cur.selectSeen, cur.inFrom = true, false
		case o.kw == "from" && cur.selectSeen:
			cur.inFrom = true
			expect = true
		case (o.kw == "join" || isOpTok(out, i, ",")) && cur.inFrom:
			if o.kw == "join" {
				if err := p.checkJoinKind(out, i); err != nil {
					return nil, nil, err
				}
				if n := fullJoinWords(out, i); n > 0 {
					// The grammar lacks FULL JOIN: it reaches the AST as
					// STRAIGHT_JOIN, which DuckDB lacks (a user's
					// straight_join is a backquoted name by now).
					res = append(res[:len(res)-n], invented(FullJoinStr, o.orig))
					expect = true
					continue
				}
			}
			expect = true
		case clauseEnds[o.kw]:
			cur.inFrom = false
		}
		res = append(res, o)
		if unnamed[i] {
			res = append(res, invented("as", o.orig), invented(unnamedMarker, o.orig))
		}
	}
	if expect {
		return nil, nil, p.errOut(out, len(out), ErrSyntax, expectSource)
	}
	return res, sources, nil
}

// checkJoinKind rejects the DuckDB joins the MySQL grammar lacks. Without
// this, "a POSITIONAL JOIN b" would parse as a table aliased "positional".
func (p *parser) checkJoinKind(out []otok, i int) error {
	j := i - 1
	if kwAt(out, j) == "outer" {
		j--
	}
	switch k := kwAt(out, j); k {
	case "asof", "positional", "semi", "anti":
		return p.errOut(out, j, ErrUnsupported, strings.ToUpper(k)+" JOIN is not supported")
	}
	return nil
}

// FullJoinStr is the JoinTableExpr.Join of FULL [OUTER] JOIN.
const FullJoinStr = "straight_join"

// fullJoinWords returns how many words before the JOIN at i make it a FULL
// [OUTER] JOIN: 2, 1, or 0 for another join.
func fullJoinWords(out []otok, i int) int {
	switch {
	case kwAt(out, i-1) == "full":
		return 1
	case kwAt(out, i-1) == "outer" && kwAt(out, i-2) == "full":
		return 2
	}
	return 0
}

// lowerILike turns ILIKE into REGEXP, an operator of the same precedence
// that DuckDB lacks (user-written regexp is backquoted as a name); fixAST
// turns it back.
func lowerILike(out []otok) []otok {
	for i := range out {
		if out[i].kw == "ilike" && !isOpTok(out, i-1, ".") {
			out[i] = invented("regexp", out[i].orig)
		}
	}
	return out
}

// lowerNulls strips NULLS FIRST/LAST after an ORDER BY item, wrapping the
// item's expression in a marker function that fixAST unwraps and records.
func (p *parser) lowerNulls(out []otok) ([]otok, error) {
	starts := []int{-1} // per nesting level: where the current ORDER BY item starts in res
	res := make([]otok, 0, len(out))
	for i := 0; i < len(out); i++ {
		o := out[i]
		top := len(starts) - 1
		switch {
		case isOpTok(out, i, "("):
			starts = append(starts, -1)
		case isOpTok(out, i, ")"):
			if top > 0 {
				starts = starts[:top]
			}
		case o.kw == "by" && kwAt(out, i-1) == "order":
			res = append(res, o)
			starts[top] = len(res)
			continue
		case isOpTok(out, i, ",") && starts[top] >= 0:
			res = append(res, o)
			starts[top] = len(res)
			continue
		case clauseEnds[o.kw]:
			starts[top] = -1
		case o.kw == "nulls" && isOpTok(out, i-1, "."):
			// A column named nulls.
		case o.kw == "nulls" && starts[top] >= 0 && len(res) > starts[top] && kwAt(out, i+1) != "first" && kwAt(out, i+1) != "last":
			return nil, p.errOut(out, i+1, ErrSyntax, "expected FIRST or LAST")
		case o.kw == "nulls" && (kwAt(out, i+1) == "first" || kwAt(out, i+1) == "last"):
			start := starts[top]
			if start < 0 {
				return nil, p.errOut(out, i, ErrSyntax, "NULLS FIRST/LAST is only allowed after an ORDER BY item")
			}
			end := len(res)
			if end > start && (res[end-1].kw == "asc" || res[end-1].kw == "desc") {
				end--
			}
			if end <= start {
				return nil, p.errOut(out, i, ErrSyntax, "expected an expression before NULLS")
			}
			marker := nullsLastMarker
			if kwAt(out, i+1) == "first" {
				marker = nullsFirstMarker
			}
			wrapped := []otok{invented(marker, o.orig), invented("(", o.orig)}
			wrapped = append(wrapped, res[start:end]...)
			wrapped = append(wrapped, invented(")", o.orig))
			wrapped = append(wrapped, res[end:]...)
			res = append(res[:start], wrapped...)
			i++ // FIRST or LAST
			continue
		}
		res = append(res, o)
	}
	return res, nil
}

// A rewrite replaces out[start:end] by rep.
type rewrite struct {
	start, end int
	rep        []otok
}

// applyRewrites applies rewrites of disjoint ranges of out in one pass, so
// a pass that rewrites n places costs O(len(out) + n), where splicing each
// in place would cost O(len(out) * n).
func applyRewrites(out []otok, rs []rewrite) []otok {
	if len(rs) == 0 {
		return out
	}
	slices.SortFunc(rs, func(a, b rewrite) int { return a.start - b.start })
	n := len(out)
	for _, r := range rs {
		n += len(r.rep) - (r.end - r.start)
	}
	res := make([]otok, 0, n)
	at := 0
	for _, r := range rs {
		res = append(res, out[at:r.start]...)
		res = append(res, r.rep...)
		at = r.end
	}
	return append(res, out[at:]...)
}

// splice replaces out[i:j] by rep.
func splice(out []otok, i, j int, rep ...otok) []otok {
	res := make([]otok, 0, len(out)-(j-i)+len(rep))
	res = append(res, out[:i]...)
	res = append(res, rep...)
	return append(res, out[j:]...)
}

// emit joins the tokens with single spaces (never gluing two into one, nor
// "-" "-" into a comment) and returns where each starts. The trailing space
// lets an error at the last token be told from one at end of input.
func emit(out []otok) (string, []int) {
	var b strings.Builder
	starts := make([]int, len(out))
	for i, o := range out {
		starts[i] = b.Len()
		b.WriteString(o.text)
		b.WriteByte(' ')
	}
	return b.String(), starts
}

// errOut builds an *Error at lowered token i (len(out) means end of input).
func (p *parser) errOut(out []otok, i int, kind error, msg string) *Error {
	if i < 0 || i >= len(out) {
		return p.errAt(p.end, kind, msg)
	}
	return p.errAt(out[i].orig, kind, msg)
}
