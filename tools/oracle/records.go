package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// MarkerKind says how the oracle treats a record pqsql answers differently
// from DuckDB on purpose.
type MarkerKind int

const (
	// NoMarker: DuckDB's answer must equal the expected block.
	NoMarker MarkerKind = iota
	// MarkSkip: the record is not run in DuckDB at all (pqsql-only syntax or
	// settings); its expectation is hand-derived.
	MarkSkip
	// MarkDiffers: the record is run in DuckDB, whose answer is known to be
	// wrong; the expected block is hand-derived and DuckDB must still
	// disagree with it, so a fixed DuckDB makes the stale marker visible.
	MarkDiffers
	// markVerify is the "# oracle: verify <SQL>" line that may follow a
	// skip or differs marker; it is kept in Record.Verify.
	markVerify
)

// Record is one sqllogictest entry, with where it sits in its file.
type Record struct {
	Line     int    // 1-based line of the header
	Kind     string // "statement" or "query"
	WantErr  bool
	ErrText  string
	Types    string
	Rowsort  bool
	SQL      string
	Expected []string
	Marker   MarkerKind
	Reason   string // the marker's reason
	// Verify is SQL whose DuckDB answer must equal the expected block of a
	// skip or differs record: the hand-derived answer, confirmed another way.
	Verify string

	hdr int // index of the header line
	sep int // index of the "----" line, -1 when there is none
	end int // index one past the record's last line
}

// File is a parsed .test file: its lines and records.
type File struct {
	Path    string
	Lines   []string
	Records []Record
}

const markerPrefix = "oracle:"

// parseMarker reads an "# oracle: <verb> <reason>" comment; ok is false for
// a comment that is not a marker.
func parseMarker(comment string) (kind MarkerKind, reason string, ok bool, err error) {
	text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(comment), "#"))
	if !strings.HasPrefix(text, markerPrefix) {
		return NoMarker, "", false, nil
	}
	verb, reason, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(text, markerPrefix)), " ")
	reason = strings.TrimSpace(reason)
	switch verb {
	case "verify":
		kind = markVerify
	case "skip":
		kind = MarkSkip
	case "differs":
		kind = MarkDiffers
	default:
		return NoMarker, "", true, fmt.Errorf("%w: unknown verb %q (want skip, differs or verify)", ErrMarker, verb)
	}
	if reason == "" {
		return NoMarker, "", true, fmt.Errorf("%w: %s without a reason", ErrMarker, verb)
	}
	return kind, reason, true, nil
}

// ParseFile reads a .test file the way exec/sqllogic_test.go does:
// "statement ok", "statement error" (optionally ---- and a substring of the
// error), "query <types> [rowsort]" with ---- and tab-separated rows.
// Comments directly above a header may carry an oracle marker.
func ParseFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseText(path, string(data))
}

// ParseText parses the text of a .test file; path is only used in errors.
func ParseText(path, text string) (*File, error) {
	text = strings.TrimSuffix(text, "\n")
	f := &File{Path: path}
	if text != "" {
		f.Lines = strings.Split(text, "\n")
	}
	lines := f.Lines
	pending, pendingReason, pendingVerify, pendingLine := NoMarker, "", "", 0
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			if pending != NoMarker || pendingVerify != "" {
				return nil, fmt.Errorf("%w: %s:%d: marker not directly above a record", ErrMarker, path, pendingLine)
			}
			continue
		}
		if strings.HasPrefix(l, "#") {
			kind, reason, ok, err := parseMarker(l)
			switch {
			case err != nil:
				return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
			case !ok:
			case kind == markVerify && (pending == NoMarker || pendingVerify != ""):
				return nil, fmt.Errorf("%w: %s:%d: verify must follow one skip or differs marker", ErrMarker, path, i+1)
			case kind == markVerify:
				pendingVerify = reason
			case pending != NoMarker:
				return nil, fmt.Errorf("%w: %s:%d: two markers on one record", ErrMarker, path, i+1)
			default:
				pending, pendingReason, pendingLine = kind, reason, i+1
			}
			continue
		}
		fields := strings.Fields(l)
		r := Record{Line: i + 1, Kind: fields[0], hdr: i, sep: -1, Marker: pending, Reason: pendingReason, Verify: pendingVerify}
		pending, pendingReason, pendingVerify = NoMarker, "", ""
		switch {
		case fields[0] == "statement" && len(fields) == 2 && (fields[1] == "ok" || fields[1] == "error"):
			r.WantErr = fields[1] == "error"
		case fields[0] == "query" && (len(fields) == 2 || len(fields) == 3 && fields[2] == "rowsort"):
			r.Types = fields[1]
			r.Rowsort = len(fields) == 3
		default:
			return nil, fmt.Errorf("%w: %s:%d: unknown record %q", ErrSyntax, path, i+1, l)
		}
		var q []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != "----"; i++ {
			q = append(q, lines[i])
		}
		r.SQL = strings.Join(q, "\n")
		if i < len(lines) && lines[i] == "----" {
			r.sep = i
			for i++; i < len(lines) && lines[i] != ""; i++ {
				r.Expected = append(r.Expected, lines[i])
			}
		}
		r.end = i
		if r.WantErr && len(r.Expected) > 0 {
			r.ErrText = strings.Join(r.Expected, "\n")
			r.Expected = nil
		}
		if strings.TrimSpace(r.SQL) == "" {
			return nil, fmt.Errorf("%w: %s:%d: record without SQL", ErrSyntax, path, r.Line)
		}
		f.Records = append(f.Records, r)
	}
	if pending != NoMarker {
		return nil, fmt.Errorf("%w: %s:%d: marker not directly above a record", ErrMarker, path, pendingLine)
	}
	return f, nil
}

// Rewrite is a new header type string and expected block for one query record.
type Rewrite struct {
	Types string
	Rows  []string
}

// Render returns the file's text with the given query records (by index in
// f.Records) rewritten; every other line is kept byte for byte.
func (f *File) Render(rewrites map[int]Rewrite) string {
	lines := slices.Clone(f.Lines)
	// Back to front, so the indices of earlier records stay valid.
	for idx := len(f.Records) - 1; idx >= 0; idx-- {
		rw, ok := rewrites[idx]
		if !ok {
			continue
		}
		r := f.Records[idx]
		hdr := "query " + rw.Types
		if r.Rowsort {
			hdr += " rowsort"
		}
		block := append([]string{"----"}, rw.Rows...)
		from := r.end // no ---- yet: insert after the SQL
		if r.sep >= 0 {
			from = r.sep
		}
		lines = slices.Replace(lines, from, r.end, block...)
		if rw.Types != r.Types {
			lines[r.hdr] = hdr
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
