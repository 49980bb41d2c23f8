package format

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// expectedFile is DuckDB's answer for one corpus file.
type expectedFile struct {
	Columns []string `json:"columns"`
	Types   []string `json:"types"`
	Rows    int      `json:"rows"`
	Error   string   `json:"error"`
	Values  [][]*string
	// Hashed holds, for values longer than 4096 bytes, their sha256 in hex.
	Hashed [][]string
}

func readExpected(path string) (*expectedFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	e := &expectedFile{}
	first := true
	for sc.Scan() {
		if first {
			if err := json.Unmarshal(sc.Bytes(), e); err != nil {
				return nil, err
			}
			first = false
			continue
		}
		var raw []json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			return nil, err
		}
		row := make([]*string, len(raw))
		hashed := make([]string, len(raw))
		for i, r := range raw {
			var s *string
			if err := json.Unmarshal(r, &s); err != nil {
				var h struct {
					SHA256 string `json:"sha256"`
				}
				if err := json.Unmarshal(r, &h); err != nil {
					return nil, err
				}
				hashed[i] = h.SHA256
				continue
			}
			row[i] = s
		}
		e.Values = append(e.Values, row)
		e.Hashed = append(e.Hashed, hashed)
	}
	return e, sc.Err()
}

// renderFile decodes every row of every top-level field as DuckDB text;
// nil is NULL.
func renderFile(f *File) ([][]*string, error) {
	var rows [][]*string
	for rg := range f.Meta.RowGroups {
		n := int(f.Meta.RowGroups[rg].NumRows)
		base := len(rows)
		for i := 0; i < n; i++ {
			rows = append(rows, make([]*string, len(f.Schema.Fields)))
		}
		for fi, field := range f.Schema.Fields {
			data := map[int]*ColumnData{}
			for _, l := range field.Leaves {
				d, err := f.ReadColumn(rg, l.Index)
				if err != nil {
					return nil, err
				}
				data[l.Index] = d
			}
			if field.Kind == ScalarField {
				d := data[field.Leaf.Index]
				lg := LogicalOf(field.Leaf)
				if d.NumEntries != n {
					return nil, errors.New("column " + field.Leaf.Path + " has " + strconv.Itoa(d.NumEntries) + " values in a row group of " + strconv.Itoa(n) + " rows")
				}
				v := 0
				for i := 0; i < n; i++ {
					if d.IsNull(i) {
						continue
					}
					s := string(AppendText(nil, lg, &d.Values, v))
					rows[base+i][fi] = &s
					v++
				}
				continue
			}
			a, err := NewAssembler(field, data)
			if err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				val, ok, err := a.Next()
				if err != nil {
					return nil, err
				}
				if !ok {
					return nil, errors.New("field " + field.Name + " ended early")
				}
				if val != nil {
					s := string(AppendValueText(nil, val))
					rows[base+i][fi] = &s
				}
			}
		}
	}
	return rows, nil
}

func sameText(got, want string) bool {
	if got == want {
		return true
	}
	g, err1 := strconv.ParseFloat(got, 64)
	w, err2 := strconv.ParseFloat(want, 64)
	if err1 == nil && err2 == nil {
		return g == w || (math.IsNaN(g) && math.IsNaN(w))
	}
	return false
}

func TestCorpusMatchesDuckDB(t *testing.T) {
	shared := testcorpus.Shared(t)
	var files []string
	for _, sub := range []string{"data", "shredded_variant"} {
		m, _ := filepath.Glob(filepath.Join(shared, "parquet-testing", sub, "*.parquet"))
		files = append(files, m...)
		m, _ = filepath.Glob(filepath.Join(shared, "parquet-testing", sub, "*", "*.parquet"))
		files = append(files, m...)
	}
	var compared, matched, corrupt, values, valuesOK int
	for _, path := range files {
		rel, _ := filepath.Rel(filepath.Join(shared, "parquet-testing"), path)
		exp, err := readExpected(filepath.Join(shared, "expected", rel+".jsonl"))
		if err != nil || exp.Error != "" || exp.Rows == 0 {
			continue
		}
		compared++
		if testing.Short() && strings.Contains(rel, "large_string_map") {
			// Its one page inflates to a gigabyte: a minute of work.
			t.Logf("skipping %s in -short mode", rel)
			continue
		}
		t.Run(rel, func(t *testing.T) {
			f, err := Open(path)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer f.Close()
			got, err := renderFile(f)
			if strings.Contains(rel, "corrupt-checksum") {
				// DuckDB ignores page CRCs; a reader that checks them must refuse these.
				if !errors.Is(err, ErrChecksum) {
					t.Fatalf("want a checksum error, got %v", err)
				}
				corrupt++
				return
			}
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if len(got) != exp.Rows {
				t.Fatalf("got %d rows, DuckDB %d", len(got), exp.Rows)
			}
			if len(f.Schema.Fields) != len(exp.Columns) {
				t.Fatalf("got %d columns, DuckDB %d", len(f.Schema.Fields), len(exp.Columns))
			}
			bad := 0
			for c := range exp.Columns {
				for r := range got {
					values++
					w, g := exp.Values[r][c], got[r][c]
					ok := (w == nil && g == nil) || (w != nil && g != nil && sameText(*g, *w))
					if h := exp.Hashed[r][c]; h != "" {
						sum := sha256.Sum256([]byte(deref(g)))
						ok = g != nil && hex.EncodeToString(sum[:]) == h
						w = &h
					}
					if ok {
						valuesOK++
						continue
					}
					bad++
					if bad <= 5 {
						t.Errorf("row %d column %s (%s): got %s, DuckDB %s", r, exp.Columns[c], exp.Types[c], show(g), show(w))
					}
				}
			}
			if bad == 0 {
				matched++
			}
		})
	}
	t.Logf("corpus: %d files compared, %d match DuckDB exactly, %d refused for a bad page checksum; %d/%d values equal", compared, matched, corrupt, valuesOK, values)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func show(s *string) string {
	if s == nil {
		return "NULL"
	}
	return strconv.Quote(*s)
}
