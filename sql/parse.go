package sql

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Parse parses one statement. A trailing ";" (or several) is allowed; a
// second statement is an error (use SplitScript for scripts). Every error is
// an *Error located in text.
func Parse(text string) (Statement, error) {
	return parseAt(text, Position{})
}

// parser holds one statement's tokens and what the lowering records about
// them.
type parser struct {
	text  string
	base  Position // where text starts in its script; zero when parsed alone
	toks  []token  // the statement's tokens, trailing ";" removed
	eof   int      // byte offset reported for "end of input"
	end   int      // token index errOut reports for "past the last lowered token"
	nsrc  int      // sources numbered so far
	casts []castType
	overs []string // the OVER clauses as written, numbered by lowerOver
	// samples are the USING SAMPLE clauses, numbered by lowerSample.
	samples []*Sample
	// subCols are the column lists of FROM subqueries, numbered by
	// lowerSubqueryColumns.
	subCols []subqueryCols
}

func parseAt(text string, base Position) (st Statement, err error) {
	defer func() {
		// sqlparser is third-party code; a panic in it must not cross our API.
		if r := recover(); r != nil {
			pos := positionAt(text, 0, base)
			st, err = nil, &Error{Line: pos.Line, Column: pos.Column, Offset: pos.Offset,
				Msg: fmt.Sprintf("parser panic: %v", r), Err: ErrInternal}
		}
	}()
	if bad := invalidUTF8(text); bad >= 0 {
		pos := positionAt(text, bad, base)
		return nil, &Error{Line: pos.Line, Column: pos.Column, Offset: pos.Offset, Token: text[bad:min(bad+8, len(text))],
			Msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x): statements must be UTF-8 text", text[bad]), Err: ErrInvalidUTF8}
	}
	if !skipDeepArithmetic && deepArithmetic(text) {
		// Refused before lexing: the tokens alone of a million-term sum
		// take hundreds of megabytes.
		off := len(text) - len(strings.TrimLeft(text, " \t\n\r\f\v"))
		end := off
		for end < len(text) && isIdentPart(text[end]) {
			end++
		}
		pos := positionAt(text, off, base)
		return nil, &Error{Line: pos.Line, Column: pos.Column, Offset: pos.Offset, Token: shorten(text[off:end], 40),
			Msg: depthMessage, Err: ErrExpressionDepth}
	}
	toks, _, lerr := lex(text)
	if lerr != nil {
		pos := positionAt(text, lerr.Offset, base)
		lerr.Line, lerr.Column, lerr.Offset = pos.Line, pos.Column, pos.Offset
		return nil, lerr
	}
	n := len(toks)
	for n > 0 && toks[n-1].kind == tkOp && toks[n-1].val == ";" {
		n--
	}
	p := &parser{text: text, base: base, toks: toks[:n], end: n}
	if n > 0 {
		p.eof = toks[n-1].end
	}
	if n == 0 {
		return nil, p.errAt(0, ErrEmpty, "expected a statement")
	}
	depth := 0
	for i := 0; i < n; i++ {
		if toks[i].kind != tkOp {
			continue
		}
		switch toks[i].val {
		case ";":
			return nil, p.errAt(i, ErrSyntax, "expected end of statement: Parse takes one statement, SplitScript splits scripts")
		case "(":
			// Refused before any lowering pass walks the nesting: no
			// expression can be this deep (DuckDB's parser gives up too).
			if depth++; depth > MaxExpressionDepth {
				return nil, p.errAt(i, ErrExpressionDepth, depthMessage)
			}
		case ")":
			depth--
		}
	}
	return p.statement()
}

// invalidUTF8 returns the offset of the first byte of text that is not
// part of valid UTF-8, or -1.
func invalidUTF8(text string) int {
	if utf8.ValidString(text) {
		return -1
	}
	for i, r := range text {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(text[i:]); n == 1 {
				return i
			}
		}
	}
	return -1
}

// statementWords are DuckDB statements pqsql does not implement; naming them
// turns "syntax error" into the more honest "unsupported".
var statementWords = map[string]bool{
	"insert": true, "update": true, "delete": true, "copy": true, "attach": true, "detach": true,
	"install": true, "load": true, "pragma": true, "show": true, "pivot": true,
	"unpivot": true, "values": true, "alter": true, "begin": true, "commit": true, "rollback": true,
	"call": true, "export": true, "import": true, "use": true, "checkpoint": true, "vacuum": true,
	"analyze": true, "reset": true, "prepare": true, "execute": true, "truncate": true,
}

const expectStatement = "expected SELECT, FROM, EXPLAIN, DESCRIBE, SUMMARIZE, CREATE VIEW, DROP VIEW or SET"

func (p *parser) statement() (Statement, error) {
	switch k := p.kw(0); {
	case k == "select" || k == "from" || k == "with" || k == "values" || p.isOp(0, "("):
		return p.query(0)
	case k == "explain":
		return p.explain()
	case k == "describe":
		return p.describe()
	case k == "summarize":
		src, q, err := p.sourceOrQuery()
		if err != nil {
			return nil, err
		}
		return &Summarize{Source: src, Query: q}, nil
	case k == "create" && p.isCreateSecret():
		return p.createSecret()
	case k == "create":
		return p.createView()
	case k == "drop":
		if _, _, ok := p.secretAt(1); ok {
			return p.dropSecret()
		}
		return p.dropView()
	case k == "set":
		return p.set()
	case k == "reset":
		return p.reset()
	case statementWords[k]:
		return nil, p.errAt(0, ErrUnsupported, strings.ToUpper(k)+" statements are not supported: "+expectStatement)
	}
	return nil, p.errAt(0, ErrSyntax, expectStatement)
}

// explain parses EXPLAIN [ANALYZE|VERBOSE|VERIFY]... [(option, ...)] query.
func (p *parser) explain() (Statement, error) {
	e := &Explain{Format: "text"}
	i := 1
	for {
		switch k := p.kw(i); {
		case k == "analyze":
			e.Analyze = true
		case k == "verbose":
			e.Verbose = true
		case k == "verify":
			e.Verify = true
		case p.isOp(i, "(") && !p.startsQuery(i+1):
			next, err := p.explainOptions(i+1, e)
			if err != nil {
				return nil, err
			}
			i = next
			continue
		default:
			if !p.startsQuery(i) {
				return nil, p.errAt(i, ErrSyntax, "expected SELECT, FROM, ANALYZE, VERBOSE, VERIFY or an option list")
			}
			q, err := p.query(i)
			if err != nil {
				return nil, err
			}
			e.Query = q
			return e, nil
		}
		i++
	}
}

// explainOptions parses the PostgreSQL-style list after "EXPLAIN (" and
// returns the index after ")".
func (p *parser) explainOptions(i int, e *Explain) (int, error) {
	for {
		switch k := p.kw(i); k {
		case "format":
			i++
			v := strings.ToLower(p.tokVal(i))
			if (p.kindAt(i) != tkWord && p.kindAt(i) != tkString) || (v != "text" && v != "json" && v != "map") {
				return 0, p.errAt(i, ErrSyntax, "expected TEXT, JSON or MAP")
			}
			e.Format = v
			i++
		case "analyze", "verbose", "verify":
			on := true
			i++
			switch p.kw(i) {
			case "true", "on":
				i++
			case "false", "off":
				on = false
				i++
			}
			switch k {
			case "analyze":
				e.Analyze = on
			case "verbose":
				e.Verbose = on
			default:
				e.Verify = on
			}
		default:
			return 0, p.errAt(i, ErrSyntax, "expected FORMAT, ANALYZE, VERBOSE or VERIFY")
		}
		switch {
		case p.isOp(i, ","):
			i++
		case p.isOp(i, ")"):
			return i + 1, nil
		default:
			return 0, p.errAt(i, ErrSyntax, `expected "," or ")"`)
		}
	}
}

// describe parses DESCRIBE source or DESCRIBE query.
func (p *parser) describe() (Statement, error) {
	src, q, err := p.sourceOrQuery()
	if err != nil {
		return nil, err
	}
	return &Describe{Source: src, Query: q}, nil
}

// sourceOrQuery parses what follows DESCRIBE or SUMMARIZE: a query, or a
// source as FROM takes one; exactly one of the results is set.
func (p *parser) sourceOrQuery() (*Source, *Select, error) {
	if p.startsQuery(1) {
		q, err := p.query(1)
		if err != nil {
			return nil, nil, err
		}
		return nil, q, nil
	}
	if p.isOp(1, "(") {
		return nil, nil, p.errAt(2, ErrSyntax, "expected SELECT")
	}
	out, err := p.convert(1, len(p.toks))
	if err != nil {
		return nil, nil, err
	}
	src, next, err := p.parseSource(out, 0)
	if err != nil {
		return nil, nil, err
	}
	if next < len(out) {
		return nil, nil, p.errOut(out, next, ErrSyntax, "expected end of statement after the source")
	}
	return src, nil, nil
}

// createView parses CREATE [OR REPLACE] [TEMP|TEMPORARY] VIEW [IF NOT EXISTS] name AS query.
func (p *parser) createView() (Statement, error) {
	v := &CreateView{}
	i := 1
	if p.kw(i) == "or" {
		if p.kw(i+1) != "replace" {
			return nil, p.errAt(i+1, ErrSyntax, "expected REPLACE")
		}
		v.OrReplace = true
		i += 2
	}
	if k := p.kw(i); k == "temp" || k == "temporary" {
		v.Temporary = true
		i++
	}
	switch k := p.kw(i); k {
	case "view":
		i++
	case "table", "macro", "function", "index", "schema", "sequence", "type", "secret":
		return nil, p.errAt(i, ErrUnsupported, "CREATE "+strings.ToUpper(k)+" is not supported: expected VIEW")
	default:
		return nil, p.errAt(i, ErrSyntax, "expected VIEW")
	}
	if p.kw(i) == "if" {
		if p.kw(i+1) != "not" || p.kw(i+2) != "exists" {
			return nil, p.errAt(i+1, ErrSyntax, "expected NOT EXISTS")
		}
		if v.OrReplace {
			return nil, p.errAt(i, ErrSyntax, "OR REPLACE and IF NOT EXISTS cannot both be given")
		}
		v.IfNotExists = true
		i += 3
	}
	name, err := p.name(i, "view name")
	if err != nil {
		return nil, err
	}
	v.Name = name
	i++
	if p.isOp(i, "(") {
		return nil, p.errAt(i, ErrUnsupported, "view column lists are not supported: expected AS")
	}
	if p.kw(i) != "as" {
		return nil, p.errAt(i, ErrSyntax, "expected AS")
	}
	i++
	if !p.startsQuery(i) {
		return nil, p.errAt(i, ErrSyntax, "expected SELECT")
	}
	q, err := p.query(i)
	if err != nil {
		return nil, err
	}
	v.Query = q
	v.Text = q.Text
	return v, nil
}

// dropView parses DROP VIEW [IF EXISTS] name.
func (p *parser) dropView() (Statement, error) {
	d := &DropView{}
	switch k := p.kw(1); k {
	case "view":
	case "table", "macro", "function", "index", "schema", "sequence", "type", "secret":
		return nil, p.errAt(1, ErrUnsupported, "DROP "+strings.ToUpper(k)+" is not supported: expected VIEW")
	default:
		return nil, p.errAt(1, ErrSyntax, "expected VIEW")
	}
	i := 2
	if p.kw(i) == "if" {
		if p.kw(i+1) != "exists" {
			return nil, p.errAt(i+1, ErrSyntax, "expected EXISTS")
		}
		d.IfExists = true
		i += 2
	}
	name, err := p.name(i, "view name")
	if err != nil {
		return nil, err
	}
	d.Name = name
	if i+1 < len(p.toks) {
		return nil, p.errAt(i+1, ErrSyntax, "expected end of statement")
	}
	return d, nil
}

// set parses SET name = value and SET name TO value.
func (p *parser) set() (Statement, error) {
	if p.kindAt(1) != tkWord {
		return nil, p.errAt(1, ErrSyntax, "expected a setting name")
	}
	s := &Set{Name: p.toks[1].kw}
	if !p.isOp(2, "=") && p.kw(2) != "to" {
		return nil, p.errAt(2, ErrSyntax, `expected "=" or TO`)
	}
	i := 3
	sign := ""
	if p.isOp(i, "-") || p.isOp(i, "+") {
		sign = p.toks[i].val
		i++
		if p.kindAt(i) != tkNumber {
			return nil, p.errAt(i, ErrSyntax, "expected a number")
		}
	}
	switch p.kindAt(i) {
	case tkNumber:
		s.Kind, s.Value = ValueNumber, sign+p.toks[i].val
	case tkString:
		s.Kind, s.Value = ValueString, p.toks[i].val
	case tkWord:
		if k := p.toks[i].kw; k == "true" || k == "false" {
			s.Kind, s.Value = ValueBool, k
		} else {
			s.Kind, s.Value = ValueIdent, p.toks[i].val
		}
	case tkQIdent:
		s.Kind, s.Value = ValueIdent, p.toks[i].val
	default:
		return nil, p.errAt(i, ErrSyntax, "expected a number, string, true, false or identifier")
	}
	if i+1 < len(p.toks) {
		return nil, p.errAt(i+1, ErrSyntax, "expected end of statement")
	}
	return s, nil
}

// reset parses RESET name (DuckDB's RESET [SESSION|GLOBAL|LOCAL] name is
// RESET name here: pqsql's settings live in the session).
func (p *parser) reset() (Statement, error) {
	i := 1
	if k := p.kw(i); p.kindAt(i) == tkWord && (k == "session" || k == "global" || k == "local") && p.kindAt(i+1) == tkWord {
		i++
	}
	if p.kindAt(i) != tkWord {
		return nil, p.errAt(i, ErrSyntax, "expected a setting name")
	}
	r := &Reset{Name: p.toks[i].kw}
	if i+1 < len(p.toks) {
		return nil, p.errAt(i+1, ErrSyntax, "expected end of statement")
	}
	return r, nil
}

// name reads an unqualified object name at token i.
func (p *parser) name(i int, what string) (string, error) {
	var name string
	switch p.kindAt(i) {
	case tkWord:
		if structural[p.toks[i].kw] {
			return "", p.errAt(i, ErrSyntax, "expected "+what)
		}
		name = p.toks[i].val
	case tkQIdent:
		name = p.toks[i].val
	default:
		return "", p.errAt(i, ErrSyntax, "expected "+what)
	}
	if err := p.checkReserved(i); err != nil {
		return "", err
	}
	if p.isOp(i+1, ".") {
		return "", p.errAt(i+1, ErrUnsupported, "qualified names are not supported: expected an unqualified "+what)
	}
	return name, nil
}

// startsQuery reports whether a query starts at token i.
func (p *parser) startsQuery(i int) bool {
	k := p.kw(i)
	return k == "select" || k == "from" || k == "with" || k == "values"
}

func (p *parser) kw(i int) string {
	if i < 0 || i >= len(p.toks) || p.toks[i].kind != tkWord {
		return ""
	}
	return p.toks[i].kw
}

func (p *parser) isOp(i int, op string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tkOp && p.toks[i].val == op
}

func (p *parser) kindAt(i int) tokKind {
	if i < 0 || i >= len(p.toks) {
		return tkEOF
	}
	return p.toks[i].kind
}

func (p *parser) tokVal(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].val
}

// pos converts a byte offset of the statement text to a Position.
func (p *parser) pos(off int) Position { return positionAt(p.text, off, p.base) }

// errAt builds an *Error at token i; i past the last token means end of input.
func (p *parser) errAt(i int, kind error, msg string) *Error {
	if i < 0 || i >= len(p.toks) {
		pos := p.pos(p.eof)
		return &Error{Line: pos.Line, Column: pos.Column, Offset: pos.Offset, Msg: msg, Err: kind}
	}
	t := p.toks[i]
	pos := p.pos(t.off)
	return &Error{Line: pos.Line, Column: pos.Column, Offset: pos.Offset,
		Token: shorten(p.text[t.off:t.end], 40), Msg: msg, Err: kind}
}

// reservedPrefix starts every name the lowering invents; user names may not
// start with it, so an invented name can never be confused with a real one.
const reservedPrefix = "__pqsql_"

func (p *parser) checkReserved(i int) error {
	t := p.toks[i]
	if (t.kind == tkWord || t.kind == tkQIdent) && strings.HasPrefix(strings.ToLower(t.val), reservedPrefix) {
		return p.errAt(i, ErrUnsupported, "names starting with "+reservedPrefix+" are reserved by pqsql")
	}
	return nil
}
