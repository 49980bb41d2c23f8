package exec

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// nestedChildren matches the levels of the plan tree below the first.
var nestedChildren = regexp.MustCompile(`(\.children\[\])+`)

// snakeCase is what every key of EXPLAIN (FORMAT JSON) looks like.
var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// TestExplainJSONSchema checks EXPLAIN (FORMAT JSON) against its schema in
// testdata/explain/JSON.md: every key the statements below print is
// documented there with its JSON type, every documented key is printed by
// one of them, keys are snake_case, and nothing is HTML-escaped.
func TestExplainJSONSchema(t *testing.T) {
	root := moduleRoot(t)
	doc := readSchemaDoc(t, filepath.Join(root, "testdata", "explain", "JSON.md"))
	t.Chdir(explainTree(t, root))
	s := NewSession()
	s.Settings.Threads = 1
	seen := map[string]string{}
	for _, q := range []string{
		"EXPLAIN (FORMAT JSON, VERBOSE) SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19990 OR customer_id = 424242",
		"EXPLAIN (FORMAT JSON, ANALYZE) SELECT count(*) FROM 'hive/*/*.parquet' WHERE year = 2024 AND order_id < 100",
		"EXPLAIN (FORMAT JSON, VERIFY) SELECT order_id FROM 'fixtures/orders_shuffled.parquet' WHERE order_id < 3",
		"EXPLAIN (FORMAT JSON) SELECT count(*) FROM 'fixtures/orders_sorted.parquet'",
	} {
		res, err := s.Execute(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if strings.Contains(res.Explain, `\u003c`) || strings.Contains(res.Explain, `\u003e`) || strings.Contains(res.Explain, `\u0026`) {
			t.Errorf("%s: HTML-escaped output:\n%s", q, res.Explain)
		}
		var v any
		if err := json.Unmarshal([]byte(res.Explain), &v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		walkJSON(t, doc, "", v, seen)
	}
	for path, typ := range seen {
		want, ok := doc[path]
		switch {
		case !ok:
			t.Errorf("%s (%s) is printed but not documented in JSON.md", path, typ)
		case !slices.Contains(strings.Split(strings.TrimSuffix(want, "?"), "|"), typ):
			t.Errorf("%s is %s, JSON.md says %s", path, typ, want)
		}
	}
	var missing []string
	for path, typ := range doc {
		if _, ok := seen[path]; !ok && !strings.HasSuffix(typ, "?") {
			missing = append(missing, path)
		}
	}
	sort.Strings(missing)
	for _, p := range missing {
		t.Errorf("%s is documented in JSON.md but no statement here prints it", p)
	}
}

// walkJSON records the path and JSON type of every value under v. An
// object the schema documents as a map (a "path.*" entry) has its keys
// folded into "*".
func walkJSON(t *testing.T, doc map[string]string, path string, v any, seen map[string]string) {
	t.Helper()
	typ := jsonType(v)
	// Plan nodes nest: every level is documented as plan.children[].
	path = nestedChildren.ReplaceAllString(path, ".children[]")
	if path != "" {
		if prev, ok := seen[path]; !ok || prev == "null" {
			seen[path] = typ
		}
	}
	switch x := v.(type) {
	case map[string]any:
		_, isMap := doc[path+".*"]
		for k, e := range x {
			key := k
			if isMap {
				key = "*"
			} else if !snakeCase.MatchString(k) {
				t.Errorf("%s.%s: key is not snake_case", path, k)
			}
			walkJSON(t, doc, strings.TrimPrefix(path+"."+key, "."), e, seen)
		}
	case []any:
		for _, e := range x {
			walkJSON(t, doc, path+"[]", e, seen)
		}
	}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// readSchemaDoc reads the table rows "| `path` | type | meaning |" of the
// schema document.
func readSchemaDoc(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// A type "number\|null" escapes its bar for Markdown.
		cells := strings.Split(strings.ReplaceAll(sc.Text(), `\|`, "\x00"), "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		key := strings.Trim(strings.TrimSpace(cells[1]), "`")
		doc[key] = strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(cells[2]), " ", ""), "\x00", "|")
	}
	if len(doc) == 0 {
		t.Fatalf("%s documents no keys", path)
	}
	return doc
}
