package exec

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// A record is one sqllogictest entry.
type record struct {
	line     int
	kind     string // "statement" or "query"
	wantErr  bool
	errText  string
	types    string
	rowsort  bool
	sql      string
	expected []string
}

// parseRecords reads the sqllogictest subset pqsql uses: "statement ok",
// "statement error" (optionally followed by ---- and a substring of the
// error), "query <types> [rowsort]" with ---- and tab-separated rows.
func parseRecords(t *testing.T, path string) []record {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	var recs []record
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		fields := strings.Fields(l)
		r := record{line: i + 1, kind: fields[0]}
		switch {
		case fields[0] == "statement" && len(fields) == 2:
			r.wantErr = fields[1] == "error"
		case fields[0] == "query" && len(fields) >= 2:
			r.types = fields[1]
			r.rowsort = len(fields) > 2 && fields[2] == "rowsort"
		default:
			t.Fatalf("%s:%d: unknown record %q", path, i+1, l)
		}
		var q []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != "----"; i++ {
			q = append(q, lines[i])
		}
		r.sql = strings.Join(q, "\n")
		if i < len(lines) && lines[i] == "----" {
			for i++; i < len(lines) && lines[i] != ""; i++ {
				r.expected = append(r.expected, lines[i])
			}
		}
		if r.wantErr && len(r.expected) > 0 {
			r.errText = strings.Join(r.expected, "\n")
			r.expected = nil
		}
		recs = append(recs, r)
	}
	return recs
}

func TestSQLLogic(t *testing.T) {
	root := moduleRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "testdata", "queries", "*.test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files: %v", err)
	}
	t.Chdir(root)
	// Records that read the shared conformance corpus are skipped, and
	// counted, when it is absent (a user's clone has only the fixtures).
	_, err = os.Stat(filepath.Join(root, "..", "shared", "parquet-testing"))
	haveShared := err == nil
	total, skipped := 0, 0
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s := NewSession()
			for _, r := range parseRecords(t, path) {
				total++
				if !haveShared && strings.Contains(r.sql, "../shared/") {
					skipped++
					continue
				}
				checkRecord(t, s, r)
			}
		})
	}
	t.Logf("%d records", total)
	if skipped > 0 {
		t.Logf("skipped %d records that read ../shared/parquet-testing, which is not present", skipped)
	}
}

// checkRecord runs one record in s and checks its outcome.
func checkRecord(t *testing.T, s *Session, r record) {
	t.Helper()
	res, err := s.Execute(context.Background(), r.sql)
	if r.kind == "statement" {
		switch {
		case r.wantErr && err == nil:
			t.Errorf("line %d: %s: want an error, got none", r.line, r.sql)
		case r.wantErr && !strings.Contains(err.Error(), r.errText):
			t.Errorf("line %d: %s: error %q does not contain %q", r.line, r.sql, err, r.errText)
		case !r.wantErr && err != nil:
			t.Errorf("line %d: %s: %v", r.line, r.sql, err)
		}
		return
	}
	if err != nil {
		t.Errorf("line %d: %s: %v", r.line, r.sql, err)
		return
	}
	if len(res.Columns) != len(r.types) {
		t.Errorf("line %d: %s: %d columns, types say %d", r.line, r.sql, len(res.Columns), len(r.types))
		return
	}
	var got []string
	for i := 0; i < res.NumRows(); i++ {
		cells := make([]string, len(res.Columns))
		for c := range cells {
			text, null := res.Cell(i, c)
			if null {
				text = "NULL"
			} else if text == "" {
				text = "(empty)"
			}
			cells[c] = text
		}
		got = append(got, strings.Join(cells, "\t"))
	}
	want := append([]string(nil), r.expected...)
	if r.rowsort {
		sort.Strings(got)
		sort.Strings(want)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("line %d: %s\n got:\n%s\nwant:\n%s", r.line, r.sql, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// moduleRoot is the repository root, where fixture paths in queries resolve.
func moduleRoot(t *testing.T) string { return testcorpus.ModuleRoot(t) }
