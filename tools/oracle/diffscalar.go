package main

// Random scalar expressions (-kind scalar) over pqsql's function registry:
// well-typed trees of function calls, operators, casts and CASE over a
// file's columns and edge literals, compared value by value as DuckDB's
// CAST(v AS VARCHAR) renders them. Where DuckDB fails, pqsql must fail too.

import (
	"slices"
	"strings"
)

// stype is the type a generated expression has.
type stype int

const (
	tInt stype = iota
	tDbl
	tDec
	tStr
	tDate
	tTS
	tBool
	numValueTypes // the types above are values; the ones below only literal arguments

	tSmall   // a small non-negative integer
	tSigned  // a small integer of either sign
	tCode    // a code point
	tYear    // a year, month, day for make_date
	tMonth   //
	tDay     //
	tPart    // a date_part specifier that yields an integer
	tTrunc   // a date_trunc specifier
	tDiff    // a date_diff specifier
	tPattern // a regular expression
	tLike    // a LIKE pattern
	tFormat  // a strftime format
	tSep     // a separator string
	tTSPart  // a date_part specifier for time parts
)

// castName is the SQL type of a value type, for typed NULLs and casts.
var castName = map[stype]string{
	tInt: "BIGINT", tDbl: "DOUBLE", tDec: "DECIMAL(18,3)", tStr: "VARCHAR",
	tDate: "DATE", tTS: "TIMESTAMP", tBool: "BOOLEAN",
}

// literals are each type's constants: edges, NULL-free (typed NULLs are
// drawn separately).
var literals = map[stype][]string{
	tInt:     {"0", "1", "-1", "2", "3", "7", "10", "12", "31", "100", "255", "1000", "-5", "2147483647", "9223372036854775807"},
	tDbl:     {"0.0::DOUBLE", "-0.0::DOUBLE", "'NaN'::DOUBLE", "'inf'::DOUBLE", "'-inf'::DOUBLE", "0.5::DOUBLE", "2.0::DOUBLE", "-3.75::DOUBLE", "1e300::DOUBLE", "1e-300::DOUBLE", "123.456::DOUBLE", "2.5::DOUBLE", "-0.5::DOUBLE"},
	tDec:     {"1.5", "-0.25", "12.345", "0.0", "99999.99", "-7.005", "2.50"},
	tStr:     {"''", "'a'", "'Hello World'", "'straße'", "'ÄÖÜ'", "' x '", "'a,b,,c'", "'abc%_'", "'2024-02-29'", "'12'", "'-3.5'", "'Zürich'", "'NaN'", "'true'"},
	tDate:    {"DATE '2024-02-29'", "DATE '1970-01-01'", "DATE '2000-12-31'", "DATE '1969-07-20'", "DATE '2024-01-01'", "DATE '0001-01-01'", "DATE '2021-01-03'"},
	tTS:      {"TIMESTAMP '2024-02-29 12:34:56.789'", "TIMESTAMP '1970-01-01 00:00:00'", "TIMESTAMP '1969-12-31 23:59:59.999999'", "TIMESTAMP '2000-01-01 00:00:00.5'", "TIMESTAMP '2024-12-31 23:59:59'", "TIMESTAMP '2021-01-03 07:08:09.000123'"},
	tBool:    {"true", "false"},
	tSmall:   {"0", "1", "2", "3", "5", "8"},
	tSigned:  {"-3", "-1", "0", "1", "2", "4"},
	tCode:    {"65", "97", "223", "252", "8364", "128512", "48"},
	tYear:    {"1970", "2024", "2000", "1", "2023", "1900"},
	tMonth:   {"1", "2", "12", "13", "6"},
	tDay:     {"1", "29", "31", "30", "0", "15"},
	tPart:    {"'year'", "'month'", "'day'", "'decade'", "'century'", "'millennium'", "'quarter'", "'dow'", "'isodow'", "'doy'", "'week'", "'isoyear'", "'yearweek'", "'era'", "'nonsense'"},
	tTSPart:  {"'hour'", "'minute'", "'second'", "'millisecond'", "'microsecond'", "'year'", "'week'", "'dow'"},
	tTrunc:   {"'millennium'", "'century'", "'decade'", "'year'", "'quarter'", "'month'", "'week'", "'day'", "'hour'", "'minute'", "'second'", "'millisecond'", "'microsecond'", "'isoyear'"},
	tDiff:    {"'year'", "'quarter'", "'month'", "'week'", "'day'", "'hour'", "'minute'", "'second'", "'millisecond'", "'microsecond'", "'decade'", "'century'"},
	tPattern: {"'[a-z]+'", "'^A'", "'o'", "'(\\w)(\\w)'", "'\\d+'", "'é|ü'", "'.*'", "'ß'", "'(a)(b)?'"},
	tLike:    {"'%a%'", "'A%'", "'_b%'", "'%'", "''", "'%ß'", "'a,b,,c'"},
	tFormat:  {"'%Y-%m-%d'", "'%d/%m/%Y %H:%M'", "'%A %B %j'", "'%Y-%m-%d %H:%M:%S.%f'", "'%a %b %-d %y'", "'%I %p %W %U'", "'%G-W%V-%u'"},
	tSep:     {"','", "''", "' '", "'a'", "', '"},
}

// sig is one way to build an expression of type res from args.
type sig struct {
	res  stype
	args []stype
	// form writes the call; "?" marks the arguments in order, or, when
	// form is a bare name, the arguments follow in parentheses.
	form string
}

func (s sig) render(args []string) string {
	if !strings.Contains(s.form, "?") {
		return s.form + "(" + strings.Join(args, ", ") + ")"
	}
	var b strings.Builder
	i := 0
	for _, r := range s.form {
		if r == '?' && i < len(args) {
			b.WriteString(args[i])
			i++
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func f(res stype, form string, args ...stype) sig { return sig{res: res, args: args, form: form} }

// sigs are the calls the generator draws: every scalar function of the
// registry (planner/registry_*.go) except random(), in each argument type
// it takes, plus the operators, casts and conditionals around them.
var sigs = []sig{
	// numbers
	f(tInt, "abs", tInt), f(tDbl, "abs", tDbl), f(tDec, "abs", tDec),
	f(tDbl, "round", tDbl), f(tDbl, "round", tDbl, tSigned), f(tDec, "round", tDec, tSigned), f(tDec, "round", tDec),
	f(tDbl, "floor", tDbl), f(tDbl, "ceil", tDbl), f(tDbl, "trunc", tDbl), f(tDec, "floor", tDec), f(tDec, "ceiling", tDec), f(tDec, "trunc", tDec),
	f(tDbl, "floor", tInt),
	f(tDbl, "sqrt", tDbl), f(tDbl, "cbrt", tDbl), f(tDbl, "exp", tDbl), f(tDbl, "ln", tDbl), f(tDbl, "log10", tDbl), f(tDbl, "log2", tDbl),
	f(tDbl, "log", tDbl), f(tDbl, "log", tDbl, tDbl), f(tDbl, "power", tDbl, tDbl), f(tDbl, "pow", tInt, tInt),
	f(tDbl, "sin", tDbl), f(tDbl, "cos", tDbl), f(tDbl, "tan", tDbl), f(tDbl, "atan", tDbl), f(tDbl, "atan2", tDbl, tDbl),
	f(tDbl, "degrees", tDbl), f(tDbl, "radians", tDbl), f(tDbl, "pi"), f(tDbl, "even", tDbl),
	f(tInt, "sign", tDbl), f(tInt, "sign", tInt),
	f(tBool, "isnan", tDbl), f(tBool, "isinf", tDbl), f(tBool, "isfinite", tDbl),
	f(tInt, "gcd", tInt, tInt), f(tInt, "lcm", tInt, tInt), f(tInt, "factorial", tSmall),
	f(tStr, "hex", tInt), f(tStr, "bin", tInt), f(tStr, "to_hex", tStr),
	f(tInt, "(? + ?)", tInt, tInt), f(tInt, "(? - ?)", tInt, tInt), f(tInt, "(? * ?)", tInt, tInt),
	f(tInt, "(? // ?)", tInt, tInt), f(tInt, "(? % ?)", tInt, tInt), f(tInt, "(- ?)", tInt),
	f(tDbl, "(? / ?)", tInt, tInt), f(tDbl, "(? + ?)", tDbl, tDbl), f(tDbl, "(? - ?)", tDbl, tDbl),
	f(tDbl, "(? * ?)", tDbl, tDbl), f(tDbl, "(? / ?)", tDbl, tDbl), f(tDbl, "(- ?)", tDbl),
	f(tDec, "(? + ?)", tDec, tDec), f(tDec, "(? - ?)", tDec, tDec), f(tDec, "(? * ?)", tDec, tSmall), f(tDec, "(- ?)", tDec),
	f(tDbl, "(? / ?)", tDec, tDec),
	f(tDbl, "greatest", tDbl, tDbl), f(tInt, "least", tInt, tInt, tInt), f(tDec, "greatest", tDec, tDec),
	// strings
	f(tStr, "lower", tStr), f(tStr, "upper", tStr), f(tStr, "lcase", tStr), f(tStr, "ucase", tStr), f(tStr, "reverse", tStr),
	f(tInt, "length", tStr), f(tInt, "len", tStr), f(tInt, "strlen", tStr), f(tInt, "char_length", tStr),
	f(tStr, "trim", tStr), f(tStr, "trim", tStr, tStr), f(tStr, "ltrim", tStr), f(tStr, "rtrim", tStr), f(tStr, "ltrim", tStr, tStr),
	f(tStr, "replace", tStr, tStr, tStr), f(tStr, "split_part", tStr, tSep, tSigned),
	f(tStr, "left", tStr, tSigned), f(tStr, "right", tStr, tSigned), f(tStr, "repeat", tStr, tSmall),
	f(tStr, "lpad", tStr, tSmall, tStr), f(tStr, "rpad", tStr, tSmall, tStr),
	f(tInt, "ascii", tStr), f(tStr, "chr", tCode), f(tInt, "unicode", tStr),
	f(tStr, "md5", tStr), f(tStr, "sha256", tStr),
	f(tBool, "starts_with", tStr, tStr), f(tBool, "ends_with", tStr, tStr), f(tBool, "contains", tStr, tStr), f(tBool, "prefix", tStr, tStr), f(tBool, "suffix", tStr, tStr),
	f(tInt, "strpos", tStr, tStr), f(tInt, "instr", tStr, tStr),
	f(tStr, "concat", tStr, tStr), f(tStr, "concat", tStr, tInt, tStr), f(tStr, "concat_ws", tSep, tStr, tStr), f(tStr, "(? || ?)", tStr, tStr),
	f(tStr, "substr", tStr, tSigned), f(tStr, "substring", tStr, tSigned, tSmall),
	f(tStr, "translate", tStr, tStr, tStr), f(tInt, "levenshtein", tStr, tStr), f(tInt, "hamming", tStr, tStr),
	f(tBool, "regexp_matches", tStr, tPattern), f(tBool, "regexp_full_match", tStr, tPattern),
	f(tStr, "regexp_replace", tStr, tPattern, tStr), f(tStr, "regexp_extract", tStr, tPattern), f(tStr, "regexp_extract", tStr, tPattern, tSmall),
	f(tStr, "printf('%s-%d|%5.2f', ?, ?, ?)", tStr, tInt, tDbl), f(tStr, "format('{}|{}', ?, ?)", tStr, tInt),
	f(tStr, "CAST(string_split(?, ?) AS VARCHAR)", tStr, tSep), f(tInt, "array_length(string_split(?, ?))", tStr, tSep),
	f(tBool, "list_contains(string_split(?, ?), ?)", tStr, tSep, tStr), f(tInt, "list_position(str_split(?, ?), ?)", tStr, tSep, tStr),
	f(tStr, "typeof(?)", tInt), f(tStr, "typeof(?)", tDec), f(tStr, "typeof(?)", tDbl),
	f(tBool, "(? LIKE ?)", tStr, tLike), f(tBool, "(? NOT LIKE ?)", tStr, tLike), f(tBool, "(? ILIKE ?)", tStr, tLike),
	f(tStr, "to_base64(CAST(? AS BLOB))", tStr),
	// conditionals
	f(tStr, "coalesce", tStr, tStr), f(tInt, "coalesce", tInt, tInt, tInt), f(tDbl, "ifnull", tDbl, tDbl),
	f(tStr, "nullif", tStr, tStr), f(tInt, "nullif", tInt, tInt), f(tInt, "if", tBool, tInt, tInt), f(tStr, "if", tBool, tStr, tStr),
	f(tStr, "(CASE WHEN ? THEN ? ELSE ? END)", tBool, tStr, tStr), f(tDbl, "(CASE WHEN ? THEN ? END)", tBool, tDbl),
	f(tStr, "greatest", tStr, tStr), f(tStr, "least", tStr, tStr), f(tDate, "greatest", tDate, tDate), f(tTS, "least", tTS, tTS),
	// dates and times
	f(tInt, "date_part", tPart, tDate), f(tInt, "date_part", tPart, tTS), f(tInt, "date_part", tTSPart, tTS), f(tInt, "datepart", tPart, tDate),
	f(tInt, "extract(year FROM ?)", tDate), f(tInt, "extract(isodow FROM ?)", tTS), f(tInt, "extract(millisecond FROM ?)", tTS),
	f(tDbl, "extract(epoch FROM ?)", tTS), f(tDbl, "date_part('epoch', ?)", tDate), f(tDbl, "date_part('julian', ?)", tDate),
	f(tInt, "year", tDate), f(tInt, "month", tTS), f(tInt, "day", tDate), f(tInt, "quarter", tDate), f(tInt, "dayofweek", tDate),
	f(tInt, "isodow", tDate), f(tInt, "dayofyear", tTS), f(tInt, "week", tDate), f(tInt, "weekofyear", tTS), f(tInt, "isoyear", tDate),
	f(tInt, "yearweek", tDate), f(tInt, "hour", tTS), f(tInt, "minute", tTS), f(tInt, "second", tTS), f(tInt, "millisecond", tTS),
	f(tInt, "microsecond", tTS), f(tInt, "nanosecond", tTS), f(tInt, "era", tDate), f(tInt, "decade", tDate), f(tInt, "century", tDate),
	f(tInt, "millennium", tTS), f(tDbl, "epoch", tTS), f(tDbl, "julian", tDate), f(tInt, "weekday", tDate), f(tInt, "dayofmonth", tTS),
	f(tTS, "date_trunc", tTrunc, tTS), f(tTS, "date_trunc", tTrunc, tDate), f(tTS, "datetrunc", tTrunc, tTS),
	f(tInt, "date_diff", tDiff, tDate, tDate), f(tInt, "date_diff", tDiff, tTS, tTS), f(tInt, "datediff", tDiff, tDate, tTS),
	f(tInt, "date_sub", tDiff, tDate, tDate), f(tInt, "datesub", tDiff, tTS, tTS),
	f(tDate, "make_date", tYear, tMonth, tDay), f(tTS, "make_timestamp(?, ?, ?, ?, ?, ?)", tYear, tMonth, tDay, tSmall, tSmall, tDbl),
	f(tDate, "last_day", tDate), f(tDate, "last_day", tTS), f(tStr, "monthname", tDate), f(tStr, "dayname", tTS),
	f(tTS, "epoch_ms", tInt), f(tInt, "epoch_ms", tTS), f(tInt, "epoch_us", tTS), f(tInt, "epoch_ns", tTS),
	f(tStr, "CAST(to_timestamp(?) AS VARCHAR)", tDbl),
	f(tStr, "strftime", tDate, tFormat), f(tStr, "strftime", tTS, tFormat),
	f(tTS, "strptime(strftime(?, '%Y-%m-%d %H:%M:%S.%f'), '%Y-%m-%d %H:%M:%S.%f')", tTS), f(tTS, "strptime", tStr, tFormat),
	f(tDate, "(? + ?)", tDate, tSigned), f(tDate, "(? - ?)", tDate, tSmall), f(tInt, "(? - ?)", tDate, tDate),
	// casts
	f(tInt, "CAST(? AS BIGINT)", tStr), f(tInt, "CAST(? AS BIGINT)", tDbl), f(tInt, "CAST(? AS INTEGER)", tDec), f(tInt, "TRY_CAST(? AS INTEGER)", tStr),
	f(tDbl, "CAST(? AS DOUBLE)", tInt), f(tDbl, "CAST(? AS DOUBLE)", tDec), f(tDbl, "CAST(? AS DOUBLE)", tStr), f(tDbl, "CAST(? AS FLOAT)", tDbl),
	f(tDec, "CAST(? AS DECIMAL(18,3))", tInt), f(tDec, "CAST(? AS DECIMAL(9,2))", tDbl), f(tDec, "CAST(? AS DECIMAL(18,3))", tStr),
	f(tStr, "CAST(? AS VARCHAR)", tInt), f(tStr, "CAST(? AS VARCHAR)", tDbl), f(tStr, "CAST(? AS VARCHAR)", tDec), f(tStr, "CAST(? AS VARCHAR)", tDate),
	f(tStr, "CAST(? AS VARCHAR)", tTS), f(tStr, "CAST(? AS VARCHAR)", tBool),
	f(tDate, "CAST(? AS DATE)", tTS), f(tDate, "CAST(? AS DATE)", tStr), f(tTS, "CAST(? AS TIMESTAMP)", tDate), f(tTS, "CAST(? AS TIMESTAMP)", tStr),
	f(tBool, "CAST(? AS BOOLEAN)", tStr), f(tBool, "CAST(? AS BOOLEAN)", tInt), f(tInt, "CAST(? AS INTEGER)", tBool),
	// comparisons and logic
	f(tBool, "(? < ?)", tInt, tInt), f(tBool, "(? = ?)", tDbl, tDbl), f(tBool, "(? > ?)", tDbl, tDbl), f(tBool, "(? <> ?)", tStr, tStr),
	f(tBool, "(? <= ?)", tStr, tStr), f(tBool, "(? >= ?)", tDate, tDate), f(tBool, "(? < ?)", tTS, tTS), f(tBool, "(? = ?)", tDec, tInt),
	f(tBool, "(? < ?)", tDec, tDbl), f(tBool, "(? = ?)", tDate, tTS),
	f(tBool, "(? AND ?)", tBool, tBool), f(tBool, "(? OR ?)", tBool, tBool), f(tBool, "(NOT ?)", tBool),
	f(tBool, "(? IS NULL)", tStr), f(tBool, "(? IS NOT NULL)", tDbl),
	f(tBool, "(? BETWEEN ? AND ?)", tInt, tInt, tInt), f(tBool, "(? IN (?, ?, ?))", tStr, tStr, tStr, tStr),
	f(tBool, "(? NOT IN (?, ?))", tDbl, tDbl, tDbl),
}

// sexpr is a generated expression: a literal or column, or a call.
type sexpr struct {
	typ  stype
	leaf string
	sig  *sig
	kids []*sexpr
}

func (e *sexpr) String() string {
	if e.sig == nil {
		return e.leaf
	}
	args := make([]string, len(e.kids))
	for i, k := range e.kids {
		args[i] = k.String()
	}
	return e.sig.render(args)
}

// smallerExprs replaces a call by one of its arguments of the same type,
// or by its type's first literal, anywhere in the tree.
func smallerExprs(e *sexpr) []*sexpr {
	if e.sig == nil {
		return nil
	}
	var out []*sexpr
	for _, k := range e.kids {
		if k.typ == e.typ {
			out = append(out, k)
		}
	}
	if lits := literals[e.typ]; e.typ < numValueTypes && len(lits) > 0 {
		out = append(out, &sexpr{typ: e.typ, leaf: lits[0]})
	}
	for i, k := range e.kids {
		for _, s := range smallerExprs(k) {
			n := *e
			n.kids = slices.Clone(e.kids)
			n.kids[i] = s
			out = append(out, &n)
		}
	}
	return out
}

// scalarQuery is SELECT e1[, e2] FROM a file (or no FROM at all).
type scalarQuery struct {
	from  string // "" for none
	exprs []*sexpr
}

func (q scalarQuery) SQL() string {
	sel := make([]string, len(q.exprs))
	for i, e := range q.exprs {
		sel[i] = e.String()
	}
	s := "SELECT " + strings.Join(sel, ", ")
	if q.from != "" {
		s += " FROM " + q.from
	}
	return s
}

func (q scalarQuery) smaller() []diffCase {
	var out []diffCase
	if len(q.exprs) > 1 {
		for i := range q.exprs {
			c := q
			c.exprs = slices.Delete(slices.Clone(q.exprs), i, i+1)
			out = append(out, c)
		}
	}
	for i, e := range q.exprs {
		for _, s := range smallerExprs(e) {
			c := q
			c.exprs = slices.Clone(q.exprs)
			c.exprs[i] = s
			out = append(out, c)
		}
	}
	return out
}

// scalarGen draws scalar queries.
type scalarGen struct {
	g      *gen
	files  []*diffFile
	byType map[stype][]*sig
	// cols are the current file's columns by type, as written in the query.
	cols map[stype][]string
}

func newScalarGen(g *gen, files []*diffFile) *scalarGen {
	s := &scalarGen{g: g, files: files, byType: map[stype][]*sig{}}
	for i := range sigs {
		s.byType[sigs[i].res] = append(s.byType[sigs[i].res], &sigs[i])
	}
	return s
}

// colType is the generator's type of a column, or -1 for none.
func colType(c *diffCol) stype {
	switch c.kind {
	case kInt:
		return tInt
	case kFloat:
		return tDbl
	case kDecimal:
		return tDec
	case kString:
		return tStr
	case kDate:
		return tDate
	case kTS:
		return tTS
	case kBool:
		return tBool
	}
	return -1
}

func (s *scalarGen) leaf(t stype) *sexpr {
	g := s.g
	if t < numValueTypes {
		if cols := s.cols[t]; len(cols) > 0 && g.pick(2) == 0 {
			return &sexpr{typ: t, leaf: cols[g.pick(len(cols))]}
		}
		if g.pick(12) == 0 {
			return &sexpr{typ: t, leaf: "NULL::" + castName[t]}
		}
	}
	lits := literals[t]
	return &sexpr{typ: t, leaf: lits[g.pick(len(lits))]}
}

func (s *scalarGen) expr(t stype, depth int) *sexpr {
	cands := s.byType[t]
	if t > numValueTypes || depth == 0 || len(cands) == 0 || s.g.pick(4) == 0 {
		return s.leaf(t)
	}
	sg := cands[s.g.pick(len(cands))]
	e := &sexpr{typ: t, sig: sg}
	for _, a := range sg.args {
		e.kids = append(e.kids, s.expr(a, depth-1))
	}
	return e
}

// next draws one query: one or two expressions over a file's first rows
// (in file order, which both engines keep for a plain scan), or over no
// table at all.
func (s *scalarGen) next() diffCase {
	g := s.g
	q := scalarQuery{}
	s.cols = map[stype][]string{}
	if g.pick(5) > 0 {
		f := s.files[g.pick(len(s.files))]
		q.from = "(SELECT * FROM " + quoteStr(f.path) + " LIMIT 40)"
		for _, c := range f.cols {
			if c.typ == "TIMESTAMP_NS" {
				// DuckDB 1.5.6 reads INT64-extreme nanosecond timestamps as
				// infinity and truncates -1 ns toward zero (README.md,
				// Markers): every function of such a column would show that
				// misreading, not evaluation. -kind filter covers these
				// columns, where the classifier knows the misread values.
				continue
			}
			if t := colType(c); t >= 0 {
				s.cols[t] = append(s.cols[t], quoteIdent(c.name))
			}
		}
	}
	for range 1 + g.pick(2) {
		q.exprs = append(q.exprs, s.expr(stype(g.pick(int(numValueTypes))), 1+g.pick(3)))
	}
	return q
}
