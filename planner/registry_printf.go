package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// printf (C's format verbs) and format ({} placeholders), as DuckDB
// formats with the fmt library.
func init() {
	registerScalar(
		&ScalarFunc{Name: "printf", Bind: bindFormat, Eval: evalPrintf},
		&ScalarFunc{Name: "format", Bind: bindFormat, Eval: evalFormat},
	)
}

func bindFormat(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) == 0 {
		return nil, noMatch(f.Name, args)
	}
	if err := castArgs(args[:1], tVarchar); err != nil {
		return nil, err
	}
	for _, a := range args[1:] {
		if a.Type().ID == TypeNested {
			return nil, fmt.Errorf("%w: %s of a nested value", ErrNotImplemented, f.Name)
		}
	}
	return newCall(f, args, tVarchar), nil
}

// fmtKind is how the fmt library sees a value: int, float or string.
func fmtKind(t Type) string {
	switch {
	case t.IsInteger():
		return "int"
	case t.IsNumeric():
		return "float"
	case t.ID == TypeBoolean:
		return "bool"
	}
	return "string"
}

// formatArg is one argument as Go's fmt should see it for verb, refusing
// the verbs the fmt library refuses for the value's kind.
func formatArg(d Datum, t Type, verb byte) (any, error) {
	kind := fmtKind(t)
	bad := func() (any, error) {
		return nil, fmt.Errorf("%w: Invalid type specifier \"%c\" for formatting a value of type %s", ErrInvalidInput, verb, kind)
	}
	switch verb {
	case 'd', 'i', 'x', 'X', 'o', 'c', 'b':
		if kind != "int" {
			return bad()
		}
		if t.ID == TypeHugeInt || t.ID == TypeUBigInt {
			return bigOf(d, t), nil
		}
		return d.I, nil
	case 'f', 'F', 'e', 'E', 'g', 'G':
		if kind != "float" {
			return bad()
		}
		return floatOf(d, t), nil
	case 's':
		if kind == "int" || kind == "float" {
			return bad()
		}
	}
	if t.ID == TypeBoolean {
		return strconv.FormatBool(d.B), nil
	}
	return string(AppendText(nil, d, t)), nil
}

// nonFiniteText is DuckDB's printf text of an infinity or NaN: a sign
// for negative infinity and a NaN with its sign bit set, or when the
// directive asks for one.
func nonFiniteText(x float64, spec string) string {
	switch {
	case math.IsNaN(x) && math.Signbit(x):
		return "-nan"
	case math.IsNaN(x):
		return "nan"
	case x < 0:
		return "-inf"
	case strings.Contains(spec, "+"):
		return "+inf"
	}
	return "inf"
}

// evalPrintf formats with %[flags][width][.precision]verb directives.
func evalPrintf(c *Call, a []Datum) (Datum, error) {
	if a[0].Null {
		return NullDatum, nil
	}
	f := a[0].S
	var out strings.Builder
	next := 1
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			out.WriteByte(f[i])
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++
		}
		if j == len(f) {
			return Datum{}, fmt.Errorf("%w: invalid format string", ErrInvalidInput)
		}
		verb := f[j]
		if verb == '%' {
			out.WriteByte('%')
			i = j
			continue
		}
		if next >= len(a) {
			return Datum{}, fmt.Errorf("%w: argument index out of range", ErrInvalidInput)
		}
		if a[next].Null {
			out.WriteString("NULL")
		} else {
			v, err := formatArg(a[next], c.Args[next].Type(), verb)
			if err != nil {
				return Datum{}, err
			}
			goVerb := verb
			switch verb {
			case 'i':
				goVerb = 'd'
			case 's', 'S':
				goVerb = 's'
			case 'c':
				i, ok := v.(int64)
				if !ok {
					return Datum{}, fmt.Errorf("%w: Invalid type specifier \"c\" for formatting a value of type %s", ErrInvalidInput, c.Args[next].Type())
				}
				// fmt's %c writes the low byte, as a C char.
				v, goVerb = string([]byte{byte(i)}), 's'
			}
			if !strings.ContainsRune("dxXocbfFeEgGs", rune(goVerb)) {
				return Datum{}, fmt.Errorf("%w: Invalid type specifier \"%c\"", ErrInvalidInput, verb)
			}
			spec := f[i+1 : j]
			if x, ok := v.(float64); ok && (math.IsInf(x, 0) || math.IsNaN(x)) {
				// DuckDB's fmt writes inf, -inf and nan in the field's width
				// (Go's would write +Inf and NaN); precision does not apply.
				v, goVerb = nonFiniteText(x, spec), 's'
				if k := strings.IndexByte(spec, '.'); k >= 0 {
					spec = spec[:k]
				}
				spec = strings.TrimLeft(spec, "+ #0")
			}
			fmt.Fprintf(&out, "%"+spec+string(goVerb), v)
		}
		next++
		i = j
	}
	return Datum{S: out.String()}, nil
}

// evalFormat replaces {} (the next argument), {n} (argument n, from 0) and
// {:spec} or {n:spec} with fmt's [[fill]align][sign][0][width][.precision][type].
func evalFormat(c *Call, a []Datum) (Datum, error) {
	if a[0].Null {
		return NullDatum, nil
	}
	f := a[0].S
	var out strings.Builder
	next := 0
	for i := 0; i < len(f); i++ {
		switch {
		case f[i] == '{' && i+1 < len(f) && f[i+1] == '{':
			out.WriteByte('{')
			i++
			continue
		case f[i] == '}' && i+1 < len(f) && f[i+1] == '}':
			out.WriteByte('}')
			i++
			continue
		case f[i] != '{':
			out.WriteByte(f[i])
			continue
		}
		end := strings.IndexByte(f[i:], '}')
		if end < 0 {
			return Datum{}, fmt.Errorf("%w: invalid format string", ErrInvalidInput)
		}
		field := f[i+1 : i+end]
		i += end
		idx, spec, _ := strings.Cut(field, ":")
		n := next
		if idx != "" {
			v, err := strconv.Atoi(idx)
			if err != nil {
				return Datum{}, fmt.Errorf("%w: invalid format string", ErrInvalidInput)
			}
			n = v
		} else {
			next++
		}
		if n+1 >= len(a) {
			return Datum{}, fmt.Errorf("%w: argument not found", ErrInvalidInput)
		}
		d, t := a[n+1], c.Args[n+1].Type()
		s, err := formatField(d, t, spec)
		if err != nil {
			return Datum{}, err
		}
		out.WriteString(s)
	}
	return Datum{S: out.String()}, nil
}

// formatField renders one value with an fmt-library spec.
func formatField(d Datum, t Type, spec string) (string, error) {
	fill, align := " ", byte(0)
	if r, n := firstRune(spec); n > 0 && len(spec) > n && strings.IndexByte("<>^", spec[n]) >= 0 {
		fill, align, spec = r, spec[n], spec[n+1:]
	} else if len(spec) >= 1 && strings.IndexByte("<>^", spec[0]) >= 0 {
		align, spec = spec[0], spec[1:]
	}
	verb := byte(0)
	if n := len(spec); n > 0 && strings.IndexByte("dxXobfFeEgGsc", spec[n-1]) >= 0 {
		verb, spec = spec[n-1], spec[:n-1]
	}
	// spec is now [sign][#][0][width][.precision].
	prec := ""
	if k := strings.IndexByte(spec, '.'); k >= 0 {
		spec, prec = spec[:k], spec[k:]
	}
	flags := strings.TrimRight(spec, "0123456789")
	digits := spec[len(flags):]
	if strings.HasPrefix(digits, "0") && (len(digits) > 1 || !strings.HasSuffix(flags, "0")) {
		flags, digits = flags+"0", digits[1:]
	}
	width, _ := strconv.Atoi(digits)
	if d.Null {
		return pad("NULL", width, fill, align, '<'), nil
	}
	kind := fmtKind(t)
	if prec != "" && kind != "float" {
		return "", fmt.Errorf("%w: precision not allowed for this argument type", ErrInvalidInput)
	}
	if verb == 0 {
		switch {
		case kind == "float" && prec != "":
			verb = 'f'
		case kind == "int":
			verb = 'd'
		}
	}
	var s string
	if verb == 0 || verb == 's' && kind != "int" && kind != "float" {
		if kind == "float" {
			s = string(AppendText(nil, d, t))
		} else {
			v, err := formatArg(d, t, 's')
			if err != nil {
				return "", err
			}
			s = v.(string)
		}
		return pad(s, width, fill, align, map[bool]byte{true: '>', false: '<'}[kind == "float"]), nil
	}
	v, err := formatArg(d, t, verb)
	if err != nil {
		return "", err
	}
	if align == 0 && width > 0 {
		// Numbers right-align; a 0 flag pads with zeros after the sign.
		return fmt.Sprintf("%"+flags+strconv.Itoa(width)+prec+string(verb), v), nil
	}
	return pad(fmt.Sprintf("%"+flags+prec+string(verb), v), width, fill, align, '>'), nil
}

// firstRune is s's first character and its length in bytes.
func firstRune(s string) (string, int) {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n], n
}

// pad fills s to width characters, aligned by align (def when none).
func pad(s string, width int, fill string, align, def byte) string {
	n := width - len([]rune(s))
	if n <= 0 {
		return s
	}
	if align == 0 {
		align = def
	}
	switch align {
	case '<':
		return s + strings.Repeat(fill, n)
	case '^':
		return strings.Repeat(fill, n/2) + s + strings.Repeat(fill, n-n/2)
	}
	return strings.Repeat(fill, n) + s
}
