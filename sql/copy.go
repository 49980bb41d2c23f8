package sql

import "strings"

// A Copy is COPY (query) TO 'file' [(option [value], ...)]: the query's
// rows written to a file. A view name may stand for the query.
type Copy struct {
	// Query is the query's text as written, or "SELECT * FROM name".
	Query string
	// File is the path to write.
	File string
	// Format is "csv" or "json": the FORMAT option, else the file's
	// extension (.json, .ndjson, .jsonl), else csv.
	Format string
	// Header says whether CSV starts with the column names (default true).
	Header bool
	// Delimiter separates CSV fields (default ",").
	Delimiter string
	// Null is what CSV writes for NULL (default empty).
	Null string
}

// ParseCopy parses text when it is a COPY statement; ok is false for any
// other statement. Only COPY ... TO is supported, in CSV or JSON.
func ParseCopy(text string) (c *Copy, ok bool, err error) {
	toks, _, lerr := lex(text)
	if lerr != nil {
		return nil, false, nil // not for COPY to judge
	}
	for len(toks) > 0 && toks[len(toks)-1].kind == tkOp && toks[len(toks)-1].val == ";" {
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 0 || toks[0].kw != "copy" {
		return nil, false, nil
	}
	at := func(i int) token {
		if i < len(toks) {
			return toks[i]
		}
		return token{kind: tkEOF, off: len(text), end: len(text)}
	}
	fail := func(i int, kind error, msg string) (*Copy, bool, error) {
		t := at(i)
		p := positionAt(text, t.off, Position{})
		tok := ""
		if t.kind != tkEOF {
			tok = text[t.off:t.end]
		}
		return nil, true, &Error{Line: p.Line, Column: p.Column, Offset: p.Offset, Token: tok, Msg: msg, Err: kind}
	}
	c = &Copy{Header: true, Delimiter: ","}
	i := 1
	switch t := at(1); {
	case t.kind == tkOp && t.val == "(":
		depth, j := 0, 1
		for ; j < len(toks); j++ {
			if toks[j].kind != tkOp {
				continue
			}
			if toks[j].val == "(" {
				depth++
			} else if toks[j].val == ")" {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		if j >= len(toks) {
			return fail(j, ErrSyntax, `expected ")" after the query`)
		}
		c.Query = strings.TrimSpace(text[t.end:toks[j].off])
		if c.Query == "" {
			return fail(j, ErrSyntax, "expected a query")
		}
		i = j + 1
	case t.kind == tkWord || t.kind == tkQIdent:
		c.Query = "SELECT * FROM " + `"` + strings.ReplaceAll(t.val, `"`, `""`) + `"`
		i = 2
	default:
		return fail(1, ErrSyntax, "expected (query) or a view name")
	}
	switch at(i).kw {
	case "to":
	case "from":
		return fail(i, ErrUnsupported, "COPY ... FROM is not supported: pqsql reads Parquet files in place")
	default:
		return fail(i, ErrSyntax, "expected TO")
	}
	i++
	if at(i).kind != tkString {
		return fail(i, ErrSyntax, "expected a file name in single quotes")
	}
	c.File = at(i).val
	i++
	if at(i).kw == "with" {
		i++
	}
	if t := at(i); t.kind == tkOp && t.val == "(" {
		i++
		for {
			name := at(i)
			if name.kind != tkWord {
				return fail(i, ErrSyntax, "expected an option name")
			}
			i++
			val, hasVal := token{}, false
			if v := at(i); v.kind == tkWord || v.kind == tkString || v.kind == tkNumber || v.kind == tkQIdent {
				val, hasVal = v, true
				i++
			}
			if msg, kind := c.setOption(name.kw, val, hasVal); msg != "" {
				return fail(i-1, kind, msg)
			}
			if t := at(i); t.kind == tkOp && t.val == "," {
				i++
				continue
			}
			if t := at(i); t.kind == tkOp && t.val == ")" {
				i++
				break
			}
			return fail(i, ErrSyntax, `expected "," or ")"`)
		}
	}
	if at(i).kind != tkEOF {
		return fail(i, ErrSyntax, "expected the end of the statement")
	}
	if c.Format == "" {
		c.Format = "csv"
		lower := strings.ToLower(c.File)
		for _, ext := range []string{".json", ".ndjson", ".jsonl"} {
			if strings.HasSuffix(lower, ext) {
				c.Format = "json"
			}
		}
		if strings.HasSuffix(lower, ".parquet") {
			return fail(0, ErrUnsupported, "COPY TO a Parquet file is not supported: name FORMAT csv or json")
		}
	}
	return c, true, nil
}

// setOption sets one COPY option; it returns a message and an error kind
// when the option or its value is wrong.
func (c *Copy) setOption(name string, val token, hasVal bool) (string, error) {
	text := strings.ToLower(val.val)
	boolean := func() (bool, bool) {
		switch {
		case !hasVal, text == "true", text == "on", text == "1":
			return true, true
		case text == "false", text == "off", text == "0":
			return false, true
		}
		return false, false
	}
	switch name {
	case "format":
		switch text {
		case "csv", "json":
			c.Format = text
		case "parquet":
			return "FORMAT parquet is not supported: COPY writes csv or json", ErrUnsupported
		default:
			return "expected FORMAT csv or json", ErrSyntax
		}
	case "header":
		b, ok := boolean()
		if !ok {
			return "expected HEADER true or false", ErrSyntax
		}
		c.Header = b
	case "delimiter", "delim", "sep":
		if !hasVal || val.kind != tkString || val.val == "" {
			return "expected DELIMITER 'text'", ErrSyntax
		}
		c.Delimiter = val.val
	case "nullstr", "null":
		if !hasVal || val.kind != tkString {
			return "expected NULLSTR 'text'", ErrSyntax
		}
		c.Null = val.val
	default:
		return "COPY option " + strings.ToUpper(name) + " is not supported (FORMAT, HEADER, DELIMITER and NULLSTR are)", ErrUnsupported
	}
	return "", nil
}
