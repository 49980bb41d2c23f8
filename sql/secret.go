package sql

import "strings"

// A CreateSecret is CREATE [OR REPLACE] [PERSISTENT | TEMPORARY] SECRET
// [IF NOT EXISTS] [name] (key value, ...). Keys are lower case; values
// are as written, strings unquoted, lists joined with ",". Nothing about
// the statement, its text included, may be echoed: it holds keys.
type CreateSecret struct {
	Name        string
	OrReplace   bool
	IfNotExists bool
	// Persistent says PERSISTENT was written; pqsql keeps secrets for the
	// session only and refuses it.
	Persistent bool
	Options    map[string]string
}

// A DropSecret is DROP [PERSISTENT | TEMPORARY] SECRET [IF EXISTS] name.
type DropSecret struct {
	Name     string
	IfExists bool
}

var (
	_ Statement = (*CreateSecret)(nil)
	_ Statement = (*DropSecret)(nil)
)

func (*CreateSecret) stmt() {}
func (*DropSecret) stmt()   {}

// secretAt reports whether the words from token i on are
// [PERSISTENT | TEMPORARY | TEMP] SECRET, and where SECRET is.
func (p *parser) secretAt(i int) (persistent bool, at int, ok bool) {
	switch p.kw(i) {
	case "persistent":
		persistent = true
		i++
	case "temporary", "temp":
		i++
	}
	return persistent, i, p.kw(i) == "secret"
}

// isCreateSecret reports whether the statement is CREATE [OR REPLACE] ...
// SECRET.
func (p *parser) isCreateSecret() bool {
	i := 1
	if p.kw(i) == "or" && p.kw(i+1) == "replace" {
		i += 2
	}
	_, _, ok := p.secretAt(i)
	return ok
}

// createSecret parses CREATE SECRET. Its errors point at keys and
// keywords, never at a value, which may be a key.
func (p *parser) createSecret() (Statement, error) {
	s := &CreateSecret{Options: map[string]string{}}
	i := 1
	if p.kw(i) == "or" {
		s.OrReplace = true
		i += 2
	}
	persistent, at, _ := p.secretAt(i)
	s.Persistent = persistent
	i = at + 1
	if p.kw(i) == "if" {
		if p.kw(i+1) != "not" || p.kw(i+2) != "exists" {
			return nil, p.errAt(i, ErrSyntax, "expected IF NOT EXISTS")
		}
		s.IfNotExists = true
		i += 3
	}
	if !p.isOp(i, "(") {
		name, err := p.name(i, "a secret name or (")
		if err != nil {
			return nil, err
		}
		s.Name = name
		i++
	}
	if p.kw(i) == "in" {
		return nil, p.errAt(i, ErrUnsupported, "secret storage (IN ...) is not supported: secrets live for the session")
	}
	if !p.isOp(i, "(") {
		return nil, p.errAt(i, ErrSyntax, `expected "(" and the secret's options`)
	}
	i++
	for {
		if p.kindAt(i) != tkWord {
			return nil, p.errAt(i, ErrSyntax, "expected an option name (TYPE, KEY_ID, SECRET, REGION, ...)")
		}
		key, keyAt := p.toks[i].kw, i
		i++
		if p.isOp(i, "=") {
			i++
		}
		val, next, ok := p.secretValue(i)
		if !ok {
			return nil, p.errAt(keyAt, ErrSyntax, "expected a value after "+strings.ToUpper(key))
		}
		if _, dup := s.Options[key]; dup {
			return nil, p.errAt(keyAt, ErrSyntax, "option "+strings.ToUpper(key)+" given twice")
		}
		s.Options[key] = val
		i = next
		if p.isOp(i, ",") {
			i++
			continue
		}
		if p.isOp(i, ")") {
			i++
			break
		}
		return nil, p.errAt(keyAt, ErrSyntax, `expected "," or ")" after the value of `+strings.ToUpper(key))
	}
	if i < len(p.toks) {
		return nil, p.errAt(i, ErrSyntax, "expected end of statement")
	}
	return s, nil
}

// secretValue reads an option's value at i: a string, a word, a number, a
// boolean, or a [list] of strings; it returns the index after it.
func (p *parser) secretValue(i int) (string, int, bool) {
	switch p.kindAt(i) {
	case tkString, tkWord, tkQIdent, tkNumber:
		return p.toks[i].val, i + 1, true
	}
	if !p.isOp(i, "[") {
		return "", 0, false
	}
	var vals []string
	for i++; ; i++ {
		if p.kindAt(i) != tkString {
			return "", 0, false
		}
		vals = append(vals, p.toks[i].val)
		i++
		if p.isOp(i, "]") {
			return strings.Join(vals, ","), i + 1, true
		}
		if !p.isOp(i, ",") {
			return "", 0, false
		}
	}
}

// dropSecret parses DROP [PERSISTENT | TEMPORARY] SECRET [IF EXISTS] name.
func (p *parser) dropSecret() (Statement, error) {
	d := &DropSecret{}
	_, at, _ := p.secretAt(1)
	i := at + 1
	if p.kw(i) == "if" {
		if p.kw(i+1) != "exists" {
			return nil, p.errAt(i+1, ErrSyntax, "expected EXISTS")
		}
		d.IfExists = true
		i += 2
	}
	name, err := p.name(i, "a secret name")
	if err != nil {
		return nil, err
	}
	d.Name = name
	if i+1 < len(p.toks) {
		return nil, p.errAt(i+1, ErrSyntax, "expected end of statement")
	}
	return d, nil
}

// keySettings are the SET names whose values are credentials.
var keySettings = map[string]bool{"s3_secret_access_key": true, "s3_session_token": true, "s3_access_key_id": true}

// secretLead are the words that can come just before SECRET in CREATE
// SECRET.
var secretLead = map[string]bool{"create": true, "replace": true, "persistent": true, "temporary": true, "temp": true}

// HoldsSecret reports whether text (one or more statements) creates a
// secret or sets a key, so that a shell keeps it out of its history. Text
// that does not lex is treated as holding one, to be safe.
func HoldsSecret(text string) bool {
	toks, _, err := lex(text)
	if err != nil {
		return strings.Contains(strings.ToLower(text), "secret") || strings.Contains(strings.ToLower(text), "s3_")
	}
	for i, t := range toks {
		if t.kind != tkWord {
			continue
		}
		switch {
		case t.kw == "secret" && i > 0 && secretLead[toks[i-1].kw]:
			return true
		case t.kw == "set" && i+1 < len(toks) && keySettings[toks[i+1].kw]:
			return true
		}
	}
	return false
}
