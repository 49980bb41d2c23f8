package exec

import (
	"bytes"
	"strconv"
)

// A CSVFormat writes rows as CSV lines (RFC 4180), as DuckDB's COPY ... TO
// and its shell's csv mode write them.
type CSVFormat struct {
	// Sep separates the fields of a line.
	Sep string
	// Null is the text of NULL.
	Null string
	// QuoteNull quotes a value whose text is Null, so that reading the
	// file back tells the two apart (COPY's behaviour).
	QuoteNull bool
}

// csvKind is how one column's values are written: the common types straight
// from their typed slice, the others through AppendText.
type csvKind uint8

const (
	csvText csvKind = iota
	csvInt
	csvUint
	csvDecimal
	csvString
)

// AppendRows appends rows [0, n) of cols as CSV lines, each ended by a
// line break; a nil column is NULL. A field is quoted (quotes doubled
// inside) when it holds the separator, a quote or a line break. Each
// column's type is looked at once per call, not once per value, and
// numbers are written from their integers, never through a string.
func (f *CSVFormat) AppendRows(dst []byte, cols []*Vector, n int) []byte {
	nullText := []byte(f.Null)
	null := csvField(nil, nullText, f.Sep)
	// A number's text is digits, '-' and '.': it needs no quotes unless
	// the separator or the null text could be one.
	plainNumbers := len(f.Sep) == 1 && !numberByte(f.Sep[0]) && !(f.QuoteNull && isNumberText(f.Null))
	kinds := make([]csvKind, len(cols))
	for c, v := range cols {
		kinds[c] = csvKindOf(v, plainNumbers)
	}
	var scratch []byte
	for r := range n {
		for c, v := range cols {
			if c > 0 {
				dst = append(dst, f.Sep...)
			}
			if v == nil || v.Nulls != nil && v.Nulls[r] {
				dst = append(dst, null...)
				continue
			}
			switch kinds[c] {
			case csvInt:
				dst = strconv.AppendInt(dst, v.Int[r], 10)
				continue
			case csvUint:
				dst = strconv.AppendUint(dst, uint64(v.Int[r]), 10)
				continue
			case csvDecimal:
				dst = appendDecimal64(dst, v.Int[r], v.Type.Scale)
				continue
			}
			start := len(dst)
			if kinds[c] == csvString {
				dst = append(dst, v.Str[r]...)
			} else {
				dst = AppendText(dst, v, r)
			}
			text := dst[start:]
			if f.QuoteNull && bytes.Equal(text, nullText) || csvNeedsQuotes(text, f.Sep) {
				scratch = append(scratch[:0], text...)
				dst = appendQuoted(dst[:start], scratch)
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}

// AppendHeader appends the line of column names, each quoted when it must be.
func (f *CSVFormat) AppendHeader(dst []byte, names []string) []byte {
	for c, name := range names {
		if c > 0 {
			dst = append(dst, f.Sep...)
		}
		dst = csvField(dst, []byte(name), f.Sep)
	}
	return append(dst, '\n')
}

// csvKindOf is how v's values are written.
func csvKindOf(v *Vector, plainNumbers bool) csvKind {
	if v == nil {
		return csvText
	}
	switch v.Type.ID {
	case TypeVarchar:
		if v.Str != nil {
			return csvString
		}
	case TypeTinyInt, TypeSmallInt, TypeInteger, TypeBigInt, TypeUTinyInt, TypeUSmallInt, TypeUInteger:
		if plainNumbers && v.Int != nil {
			return csvInt
		}
	case TypeUBigInt:
		if plainNumbers && v.Int != nil {
			return csvUint
		}
	case TypeDecimal:
		if plainNumbers && v.Big == nil && v.Int != nil {
			return csvDecimal
		}
	}
	return csvText
}

// csvField is s as a field: as is, or quoted when it must be.
func csvField(dst, s []byte, sep string) []byte {
	if csvNeedsQuotes(s, sep) {
		return appendQuoted(dst, s)
	}
	return append(dst, s...)
}

// csvNeedsQuotes reports whether s holds sep, a quote or a line break.
func csvNeedsQuotes(s []byte, sep string) bool {
	single := len(sep) == 1
	for _, c := range s {
		if c == '"' || c == '\r' || c == '\n' || single && c == sep[0] {
			return true
		}
	}
	return !single && bytes.Contains(s, []byte(sep))
}

// appendQuoted appends s in double quotes, doubling those inside.
func appendQuoted(dst, s []byte) []byte {
	dst = append(dst, '"')
	for {
		i := bytes.IndexByte(s, '"')
		if i < 0 {
			break
		}
		dst = append(dst, s[:i+1]...)
		dst = append(dst, '"')
		s = s[i+1:]
	}
	dst = append(dst, s...)
	return append(dst, '"')
}

// numberByte reports whether c can be part of an integer's or a decimal's
// text.
func numberByte(c byte) bool { return c >= '0' && c <= '9' || c == '-' || c == '.' }

// isNumberText reports whether s could be the text of an integer or a
// decimal: made only of their bytes, and not empty.
func isNumberText(s string) bool {
	for i := range len(s) {
		if !numberByte(s[i]) {
			return false
		}
	}
	return s != ""
}
