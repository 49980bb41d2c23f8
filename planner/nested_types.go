package planner

import (
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/format"
)

// Nested types are known by their DuckDB names ("INTEGER[]",
// "STRUCT(a INTEGER, b VARCHAR)", "MAP(VARCHAR, INTEGER)"); these helpers
// read the parts back out of a name.

// listOf is the LIST type of elements of type t.
func listOf(t Type) Type { return Type{ID: TypeNested, Name: t.String() + "[]"} }

// listElem is the element type of a LIST type.
func listElem(t Type) (Type, bool) {
	if !isListType(t) {
		return Type{}, false
	}
	return parseTypeName(strings.TrimSuffix(t.Name, "[]"))
}

// A structField is one field of a STRUCT type; an unnamed struct
// (row(1, 'x')) has fields without names.
type structField struct {
	Name string
	T    Type
}

// isStructType reports whether t is a STRUCT.
func isStructType(t Type) bool {
	return t.ID == TypeNested && strings.HasPrefix(t.Name, "STRUCT(") && strings.HasSuffix(t.Name, ")")
}

// isMapType reports whether t is a MAP.
func isMapType(t Type) bool {
	return t.ID == TypeNested && strings.HasPrefix(t.Name, "MAP(") && strings.HasSuffix(t.Name, ")")
}

// structFields reads the fields of a STRUCT type.
func structFields(t Type) ([]structField, bool) {
	if !isStructType(t) || !strings.HasSuffix(t.Name, ")") {
		return nil, false
	}
	inner := t.Name[len("STRUCT(") : len(t.Name)-1]
	var fs []structField
	for _, part := range splitTypeList(inner) {
		name, rest := "", part
		if strings.HasPrefix(part, `"`) {
			// A quoted name ends at a quote not doubled.
			end := 1
			for end < len(part) && (part[end] != '"' || end+1 < len(part) && part[end+1] == '"') {
				if part[end] == '"' {
					end++
				}
				end++
			}
			if end >= len(part) {
				return nil, false
			}
			name = strings.ReplaceAll(part[1:end], `""`, `"`)
			rest = strings.TrimSpace(part[end+1:])
		} else if sp := strings.IndexByte(part, ' '); sp > 0 && !strings.HasPrefix(part, "DECIMAL") {
			name, rest = part[:sp], part[sp+1:]
		}
		ft, ok := parseTypeName(rest)
		if !ok {
			// An unnamed field's type alone, which may hold spaces
			// (TIMESTAMP WITH TIME ZONE) or quotes ("NULL").
			if ft, ok = parseTypeName(part); !ok {
				return nil, false
			}
			name = ""
		}
		fs = append(fs, structField{Name: name, T: ft})
	}
	return fs, true
}

// structType is the STRUCT type of fields fs, named as DuckDB prints it.
func structType(fs []structField) Type {
	parts := make([]string, len(fs))
	for i, f := range fs {
		if f.Name == "" {
			parts[i] = f.T.String()
		} else {
			parts[i] = format.QuoteFieldName(f.Name) + " " + f.T.String()
		}
	}
	return Type{ID: TypeNested, Name: "STRUCT(" + strings.Join(parts, ", ") + ")"}
}

// unnamedFields reports whether no field of fs has a name.
func unnamedFields(fs []structField) bool {
	for _, f := range fs {
		if f.Name != "" {
			return false
		}
	}
	return true
}

// mapTypes reads the key and value types of a MAP type.
func mapTypes(t Type) (Type, Type, bool) {
	if !isMapType(t) || !strings.HasSuffix(t.Name, ")") {
		return Type{}, Type{}, false
	}
	parts := splitTypeList(t.Name[len("MAP(") : len(t.Name)-1])
	if len(parts) != 2 {
		return Type{}, Type{}, false
	}
	k, ok1 := parseTypeName(parts[0])
	v, ok2 := parseTypeName(parts[1])
	return k, v, ok1 && ok2
}

// mapOf is the MAP type from k to v.
func mapOf(k, v Type) Type {
	return Type{ID: TypeNested, Name: "MAP(" + k.String() + ", " + v.String() + ")"}
}

// splitTypeList splits a comma-separated list of types at the top level.
func splitTypeList(s string) []string {
	var parts []string
	depth, at := 0, 0
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			inQuote = !inQuote
		case inQuote:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			parts = append(parts, strings.TrimSpace(s[at:i]))
			at = i + 1
		}
	}
	if rest := strings.TrimSpace(s[at:]); rest != "" {
		parts = append(parts, rest)
	}
	return parts
}

// parseTypeName reads a type back from its printed name.
func parseTypeName(s string) (Type, bool) {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasSuffix(s, "[]"), strings.HasPrefix(s, "STRUCT("), strings.HasPrefix(s, "MAP("):
		return Type{ID: TypeNested, Name: s}, true
	case s == "VARIANT":
		return tVariant, true
	case s == "JSON":
		return Type{ID: TypeVarchar, Name: "JSON"}, true
	case strings.HasPrefix(s, "DECIMAL("):
		ps := strings.Split(strings.TrimSuffix(s[len("DECIMAL("):], ")"), ",")
		if len(ps) != 2 {
			return Type{}, false
		}
		p, err1 := strconv.Atoi(strings.TrimSpace(ps[0]))
		sc, err2 := strconv.Atoi(strings.TrimSpace(ps[1]))
		return Type{ID: TypeDecimal, Precision: p, Scale: sc}, err1 == nil && err2 == nil
	}
	for id := TypeNull; id < TypeNested; id++ {
		if id != TypeDecimal && (Type{ID: id}).String() == s {
			return Type{ID: id}, true
		}
	}
	if s != "" && strings.ToUpper(s) == s && !strings.ContainsAny(s, "(), ") {
		// GEOMETRY and other binary-backed types.
		return Type{ID: TypeBlob, Name: s}, true
	}
	return Type{}, false
}

// commonNested is the common type of two nested types of one shape: lists
// of the elements' common type, structs with the same field names and maps
// field by field. NULL parts take the other side's type.
func commonNested(a, b Type) (Type, bool) {
	if a == b {
		return a, true
	}
	if ea, ok := listElem(a); ok {
		eb, ok := listElem(b)
		if !ok {
			return Type{}, false
		}
		e, ok := commonType(ea, eb)
		return listOf(e), ok
	}
	if fa, ok := structFields(a); ok {
		fb, ok := structFields(b)
		if !ok || len(fa) != len(fb) {
			return Type{}, false
		}
		// An unnamed struct (row(1, 'a')) matches any of its arity and
		// takes the other's names.
		ua, ub := unnamedFields(fa), unnamedFields(fb)
		out := make([]structField, len(fa))
		for i := range fa {
			if !ua && !ub && !strings.EqualFold(fa[i].Name, fb[i].Name) {
				return Type{}, false
			}
			t, ok := commonType(fa[i].T, fb[i].T)
			if !ok {
				return Type{}, false
			}
			out[i] = structField{Name: fa[i].Name + fb[i].Name, T: t}
			if !ua {
				out[i].Name = fa[i].Name
			}
		}
		return structType(out), true
	}
	if ka, va, ok := mapTypes(a); ok {
		kb, vb, ok := mapTypes(b)
		if !ok {
			return Type{}, false
		}
		k, ok1 := commonType(ka, kb)
		v, ok2 := commonType(va, vb)
		return mapOf(k, v), ok1 && ok2
	}
	return Type{}, false
}
