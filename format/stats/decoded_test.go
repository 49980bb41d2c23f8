package stats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/internal/testcorpus"
)

// The page reader supplies every leaf's values, nested ones included, so the
// containment checks cover all columns of the corpus files.
func init() {
	decodedValues = func(t *testing.T, file string, rg, col int) ([][]byte, bool) {
		path := filepath.Join(testcorpus.Shared(t), "parquet-testing", "data", file+".parquet")
		if strings.HasSuffix(file, ".parquet") {
			path = filepath.Join("..", "..", "fixtures", file)
		}
		if _, err := os.Stat(path); err != nil {
			return nil, false
		}
		f, err := format.Open(path)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		defer f.Close()
		d, err := f.ReadColumn(rg, col)
		if err != nil {
			t.Fatalf("%s: row group %d, column %d: %v", file, rg, col, err)
		}
		var out [][]byte
		v := 0
		for i := 0; i < d.NumEntries; i++ {
			if d.IsNull(i) {
				if d.Leaf.MaxRep == 0 {
					out = append(out, nil)
				}
				continue
			}
			out = append(out, d.Values.PlainBytes(v, nil))
			v++
		}
		return out, true
	}
}
