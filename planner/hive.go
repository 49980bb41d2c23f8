package planner

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/sql"
)

// A Partition is a hive partition column: a key=value directory in the
// files' paths (year=2024/month=6/a.parquet), whose value is constant
// within each file.
type Partition struct {
	// Index is the input column the partition fills: after the file's
	// columns, or in place of a file column of the same name, whose values
	// the path's then replace (as in DuckDB).
	Index int
	// Key is the key as the first file's path writes it.
	Key  string
	Type Type
	// Values holds each file's value, parallel to Scan.Files.
	Values []Datum
}

// A PrunedFile is a file of a hive-partitioned scan that the WHERE rules
// out by its partition values alone; it is never opened.
type PrunedFile struct {
	Path string
	// Bytes is the file's size on disk (0 when it cannot be read).
	Bytes int64
	// Reason is the WHERE conjunct that is false or NULL for the file,
	// with the values it was evaluated on: "(year = 2023) with year=2024".
	Reason string
}

// PartitionOf returns the partition that fills input column i, or nil.
func (s *Scan) PartitionOf(i int) *Partition {
	for _, p := range s.Partitions {
		if p.Index == i {
			return p
		}
	}
	return nil
}

// PartitionValues returns the values the partitions take in the file at
// path (one of Files), in the order of Partitions; nil for a path the scan
// does not read. Equal paths have equal values, so a file listed twice
// needs no telling apart.
func (s *Scan) PartitionValues(path string) []Datum {
	fi, ok := s.fileIndex[path]
	if !ok {
		fi = -1
		for i, f := range s.Files {
			if f == path {
				fi = i
				break
			}
		}
	}
	if fi < 0 || fi >= len(s.Files) {
		return nil
	}
	out := make([]Datum, len(s.Partitions))
	for i, p := range s.Partitions {
		out[i] = p.Values[fi]
	}
	return out
}

// indexFiles records where each path is in Files, for PartitionValues,
// which scan workers call concurrently; it runs at plan time only.
func (s *Scan) indexFiles() {
	s.fileIndex = make(map[string]int, len(s.Files))
	for i, f := range s.Files {
		if _, ok := s.fileIndex[f]; !ok {
			s.fileIndex[f] = i
		}
	}
}

// PrunedBytes is the total size of the files partition pruning skipped.
func (s *Scan) PrunedBytes() int64 {
	var n int64
	for _, f := range s.PrunedFiles {
		n += f.Bytes
	}
	return n
}

// hiveSetting reads read_parquet's hive_partitioning option from the
// source: on, or explicitly off.
func hiveSetting(src *sql.Source) (on, off bool) {
	return src.HivePartitioning, src.HivePartitioningSet && !src.HivePartitioning
}

// hiveParse returns the key=value directories of a path, as DuckDB parses
// them: every segment but the last with one '=' after a non-empty key; a
// key given twice keeps its first value. A '?' or newline ends the
// candidates of its segment.
func hiveParse(path string) map[string]string {
	out := map[string]string{}
	start, eq := 0, -1
	candidate := true
	for i := 0; i < len(path); i++ {
		switch c := path[i]; c {
		case '?', '\n':
			candidate = false
		case '/', '\\':
			if candidate && eq > start {
				if _, dup := out[path[start:eq]]; !dup {
					out[path[start:eq]] = path[eq+1 : i]
				}
			}
			start, eq, candidate = i+1, -1, true
		case '=':
			if eq >= start {
				candidate = false
			}
			eq = i
		}
	}
	return out
}

// splitParts splits a path at '/' into its segments, as DuckDB's detection
// does.
func splitParts(path string) []string { return strings.Split(path, "/") }

// hiveDetect is DuckDB's automatic detection: the first file has at least
// one key=value segment, and every file has as many segments and only
// directory keys the first file has.
func hiveDetect(files []string) bool {
	first := splitParts(files[0])
	if len(first) < 2 {
		return false
	}
	keys := map[string]bool{}
	for _, p := range first {
		if k, _, ok := strings.Cut(p, "="); ok && !strings.Contains(p[len(k)+1:], "=") {
			keys[k] = true
		}
	}
	if len(keys) == 0 {
		return false
	}
	for _, f := range files {
		parts := splitParts(f)
		if len(parts) != len(first) {
			return false
		}
		for _, p := range parts[:len(parts)-1] {
			if k, _, ok := strings.Cut(p, "="); ok && !strings.Contains(p[len(k)+1:], "=") && !keys[k] {
				return false
			}
		}
	}
	return true
}

// addPartitions adds the hive partition columns of a files source to its
// scan and columns, when read_parquet's hive_partitioning asks for them or,
// not given, when DuckDB's detection finds the paths partitioned.
func addPartitions(src *sql.Source, scan *Scan, cols []Column) ([]Column, error) {
	if src.FileRowNumber {
		// DuckDB places it right after the file's columns, before filename.
		const name = "file_row_number"
		for _, c := range cols {
			if strings.EqualFold(c.Name, name) {
				return nil, binderError("Using file_row_number option on file with column named file_row_number is not supported")
			}
		}
		scan.HasRowNumber, scan.RowNumber = true, len(cols)
		cols = append(cols, Column{Name: name, Type: Type{ID: TypeBigInt}})
	}
	if name := src.Filename; name != "" {
		for _, c := range cols {
			if c.Name == name {
				return nil, binderError("Option filename adds column \"%s\", but a column with this name is also in the file. Try setting a different name: filename='<filename column name>'", name)
			}
			if strings.EqualFold(c.Name, name) {
				return nil, binderError("table \"read_parquet\" has duplicate column name \"%s\"", name)
			}
		}
		// The file's path is a value constant within each file, as a
		// partition's is, and prunes files the same way.
		part := &Partition{Index: len(cols), Key: name, Type: Type{ID: TypeVarchar}}
		for _, f := range scan.Files {
			part.Values = append(part.Values, Datum{S: f})
		}
		cols = append(cols, Column{Name: name, Type: part.Type})
		scan.Partitions = append(scan.Partitions, part)
		scan.indexFiles()
	}
	on, off := hiveSetting(src)
	if off || (!on && !hiveDetect(scan.Files)) {
		return cols, nil
	}
	parsed := make([]map[string]string, len(scan.Files))
	for i, f := range scan.Files {
		parsed[i] = hiveParse(f)
	}
	first := parsed[0]
	for i, p := range parsed[1:] {
		for _, k := range sortedKeys(first) {
			if _, ok := p[k]; !ok {
				return nil, binderError("Hive partition mismatch between file \"%s\" and \"%s\": key \"%s\" not found", scan.Files[0], scan.Files[i+1], k)
			}
		}
		if len(p) != len(first) {
			return nil, binderError("Hive partition mismatch between file \"%s\" and \"%s\"", scan.Files[0], scan.Files[i+1])
		}
	}
	for _, key := range sortedKeys(first) {
		var vals []string
		for _, p := range parsed {
			vals = append(vals, p[key])
		}
		t := hiveType(vals)
		part := &Partition{Index: len(cols), Key: key, Type: t}
		for _, v := range vals {
			d, err := hiveValue(key, v, t)
			if err != nil {
				return nil, err
			}
			part.Values = append(part.Values, d)
		}
		replaced := false
		for i, c := range cols {
			if strings.EqualFold(c.Name, key) {
				// The path's value replaces the file's column, as in DuckDB.
				part.Index, cols[i].Type, replaced = i, t, true
				break
			}
		}
		if !replaced {
			cols = append(cols, Column{Name: key, Type: t})
		}
		scan.Partitions = append(scan.Partitions, part)
	}
	scan.indexFiles()
	return cols, nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// hiveType is the type DuckDB infers for a partition key from its values:
// the first of DATE, TIMESTAMP and BIGINT that every value casts to
// strictly, else VARCHAR. NULL values do not vote.
func hiveType(vals []string) Type {
	var t *Type
	for _, v := range vals {
		if strings.EqualFold(v, "NULL") {
			continue
		}
		c := Type{ID: TypeVarchar}
		if _, ok := strictDate(v); ok {
			c = Type{ID: TypeDate}
		} else if _, ok := strictTimestamp(v); ok {
			c = Type{ID: TypeTimestamp}
		} else if _, ok := strictBigInt(v); ok {
			c = Type{ID: TypeBigInt}
		}
		if t != nil && *t != c {
			return Type{ID: TypeVarchar}
		}
		t = &c
	}
	if t == nil {
		return Type{ID: TypeVarchar}
	}
	return *t
}

// hiveValue is a partition's value in its type: NULL for "NULL" (and for
// an empty value of a type other than VARCHAR), strings URL-decoded.
func hiveValue(key, v string, t Type) (Datum, error) {
	if strings.EqualFold(v, "NULL") {
		return NullDatum, nil
	}
	if t.ID == TypeVarchar {
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		return Datum{S: v}, nil
	}
	if v == "" {
		return NullDatum, nil
	}
	var n int64
	var ok bool
	switch t.ID {
	case TypeDate:
		n, ok = strictDate(v)
	case TypeTimestamp:
		n, ok = strictTimestamp(v)
	case TypeBigInt:
		n, ok = strictBigInt(v)
	}
	if !ok {
		return Datum{}, fmt.Errorf("%w: Unable to cast '%s' (from hive partition column '%s') to: '%s'", ErrInvalidInput, v, strings.ToUpper(key), t)
	}
	return Datum{I: n}, nil
}

var (
	hiveDateRE = regexp.MustCompile(`^(\d{1,7})([-/])(\d{1,2})([-/])(\d{1,2})`)
	hiveTimeRE = regexp.MustCompile(`^[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?$`)
)

// strictDate casts text to DATE as DuckDB's strict cast does: a
// year-month-day date and nothing else but surrounding spaces.
func strictDate(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	days, rest, ok := datePrefix(s)
	return days, ok && rest == ""
}

// datePrefix reads the date at the start of s and returns the rest.
func datePrefix(s string) (days int64, rest string, ok bool) {
	m := hiveDateRE.FindStringSubmatch(s)
	if m == nil || m[2] != m[4] {
		return 0, "", false
	}
	y, _ := strconv.ParseInt(m[1], 10, 64)
	mo, _ := strconv.ParseInt(m[3], 10, 64)
	d, _ := strconv.ParseInt(m[5], 10, 64)
	if mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) {
		return 0, "", false
	}
	return format.DaysFromCivil(y, mo, d), s[len(m[0]):], true
}

func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// strictTimestamp casts text to TIMESTAMP (microseconds) as DuckDB's
// strict cast does: a date, then a time of day of at least hours and
// minutes; a UTC offset is accepted and, as DuckDB does for TIMESTAMP,
// does not move the value.
func strictTimestamp(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	days, rest, ok := datePrefix(s)
	if !ok {
		return 0, false
	}
	if rest == "" {
		return days * microsPerDay, true
	}
	m := hiveTimeRE.FindStringSubmatch(rest)
	if m == nil {
		return 0, false
	}
	h, _ := strconv.ParseInt(m[1], 10, 64)
	mi, _ := strconv.ParseInt(m[2], 10, 64)
	var sec, frac int64
	if m[3] != "" {
		sec, _ = strconv.ParseInt(m[3], 10, 64)
	}
	if m[4] != "" {
		f := (m[4] + "000000")[:6]
		frac, _ = strconv.ParseInt(f, 10, 64)
	}
	if h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	return days*microsPerDay + h*3600e6 + mi*60e6 + sec*1e6 + frac, true
}

// strictBigInt casts text to BIGINT as DuckDB's strict cast does: an
// optional minus and decimal digits without a leading zero, or 0x hex or
// 0b binary digits, in range; surrounding spaces are allowed.
func strictBigInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	base := 10
	switch {
	case len(digits) > 2 && (digits[:2] == "0x" || digits[:2] == "0X"):
		base, digits = 16, digits[2:]
	case len(digits) > 2 && (digits[:2] == "0b" || digits[:2] == "0B"):
		base, digits = 2, digits[2:]
	case len(digits) > 1 && digits[0] == '0':
		return 0, false
	}
	if digits == "" || strings.ContainsAny(digits, "+-_") {
		return 0, false
	}
	u, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		return 0, false
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), true
	case !neg && u <= math.MaxInt64:
		return int64(u), true
	}
	return 0, false
}

// prunePartitions drops the files whose partition values make a conjunct
// of the WHERE false or NULL, before any is opened, and records them in
// Scan.PrunedFiles. A conjunct that reads only partition columns is
// evaluated with the file's values; one that fails to evaluate prunes
// nothing, as in DuckDB.
func prunePartitions(scan *Scan, where Expr, width int) {
	var conj []Expr
	if l, ok := where.(*Logic); ok && l.And {
		conj = l.Xs
	} else {
		conj = []Expr{where}
	}
	var onlyParts []Expr
	for _, c := range conj {
		set := map[int]bool{}
		Columns(c, set)
		ok := len(set) > 0
		for i := range set {
			ok = ok && scan.PartitionOf(i) != nil
		}
		if ok {
			onlyParts = append(onlyParts, c)
		}
	}
	if len(onlyParts) == 0 {
		return
	}
	row := make([]Datum, width)
	keep := make([]bool, len(scan.Files))
	for fi, path := range scan.Files {
		for i := range row {
			row[i] = NullDatum
		}
		for _, p := range scan.Partitions {
			row[p.Index] = p.Values[fi]
		}
		keep[fi] = true
		for _, c := range onlyParts {
			d, err := Eval(c, row)
			if err != nil || IsTrue(d) {
				continue
			}
			keep[fi] = false
			pf := PrunedFile{Path: path, Reason: c.String() + " with " + partitionText(scan, fi)}
			// No request to a pruned file: a remote size comes from the
			// listing, or is unknown (0).
			store := scan.store
			if store == nil {
				store = localStore
			}
			pf.Bytes = store.Size(path)
			scan.PrunedFiles = append(scan.PrunedFiles, pf)
			break
		}
	}
	var files []string
	for fi, f := range scan.Files {
		if keep[fi] {
			files = append(files, f)
		}
	}
	for _, p := range scan.Partitions {
		var vals []Datum
		for fi, v := range p.Values {
			if keep[fi] {
				vals = append(vals, v)
			}
		}
		p.Values = vals
	}
	scan.Files = files
	scan.indexFiles()
}

// partitionText writes a file's partition values as key=value pairs.
func partitionText(scan *Scan, file int) string {
	parts := make([]string, len(scan.Partitions))
	for i, p := range scan.Partitions {
		v := "NULL"
		if d := p.Values[file]; !d.Null {
			v = string(AppendText(nil, d, p.Type))
		}
		parts[i] = p.Key + "=" + v
	}
	return strings.Join(parts, "/")
}
