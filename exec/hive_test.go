package exec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/planner"
)

// hiveTree builds, in a temporary directory that becomes the working
// directory, copies of fixtures/statistics.parquet (12 rows, order_id 1 to
// 12) under hive-style directories, and a file that is not Parquet at all
// in orders/year=2030, which only partition pruning keeps a query from
// opening.
func hiveTree(t *testing.T) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(moduleRoot(t), "fixtures", "statistics.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(path string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{
		"orders/year=2023/month=12/a.parquet",
		"orders/year=2024/month=6/a.parquet",
		"orders/year=2024/month=7/b.parquet",
		"typed/d=2024-01-05/s=a%20b/n=NULL/f.parquet",
		"typed/d=2024-02-01/s=NULL/n=7/f.parquet",
		"cities/city=Paris/f.parquet",
		"cities/city=Rome/f.parquet",
		"mixed/x=1/y=2/f.parquet",
		"mixed/x=3/g.parquet",
	} {
		write(p, src)
	}
	write("orders/year=2030/month=1/bad.parquet", []byte("not parquet"))
}

// TestHivePartitions checks hive-partitioned reads against DuckDB 1.5.6's
// answers on the same tree (run by hand with the oracle's DuckDB module):
// partition columns after the file's, sorted by key, typed BIGINT, DATE or
// VARCHAR as DuckDB infers them, NULL and URL escapes decoded, a key named
// like a file column replacing it, and detection without the option.
func TestHivePartitions(t *testing.T) {
	hiveTree(t)
	fileCols := "order_id BIGINT|customer_id UINTEGER|delta TINYINT|city VARCHAR|amount DECIMAL(9,2)|amount_ba DECIMAL(12,2)|temp_c DOUBLE|ratio FLOAT|coupon VARCHAR|note VARCHAR"
	tests := []struct {
		q    string
		want string // rows joined by "|", cells by tabs; DESCRIBE: name and type
		err  string
	}{
		{q: "DESCRIBE SELECT * FROM 'orders/year=202[34]/*/*.parquet'", want: fileCols + "|month BIGINT|year BIGINT"},
		{q: "DESCRIBE SELECT * FROM 'typed/**/*.parquet'", want: fileCols + "|d DATE|n BIGINT|s VARCHAR"},
		{q: "DESCRIBE SELECT * FROM 'cities/*/*.parquet'", want: fileCols},
		// Keys that differ between files: detection says no partitions.
		{q: "DESCRIBE SELECT * FROM 'mixed/**/*.parquet'", want: fileCols},
		{q: "SELECT year, month, count(*), sum(order_id) FROM 'orders/*/*/*.parquet' WHERE year < 2030 GROUP BY year, month ORDER BY year, month",
			want: "2023\t12\t12\t78|2024\t6\t12\t78|2024\t7\t12\t78"},
		{q: "SELECT count(*), sum(order_id), min(month), max(month) FROM 'orders/**/*.parquet' WHERE year = 2024", want: "24\t156\t6\t7"},
		{q: "SELECT year, month, order_id FROM 'orders/**/*.parquet' WHERE (month > 6 OR year = 2023) AND year <> 2030 AND order_id <= 2 ORDER BY year, month, order_id",
			want: "2023\t12\t1|2023\t12\t2|2024\t7\t1|2024\t7\t2"},
		{q: "SELECT count(*) FROM 'orders/**/*.parquet' WHERE year = 2024 AND order_id < 3", want: "4"},
		{q: "SELECT min(year), max(year), min(month), max(month), count(*) FROM 'orders/**/*.parquet' WHERE year IN (2023, 2024)", want: "2023\t2024\t6\t12\t36"},
		{q: "SELECT count(*) FROM 'orders/year=202[34]/*/*.parquet'", want: "36"},
		{q: "SELECT * FROM 'orders/**/*.parquet' WHERE year = 2023 AND order_id = 5", want: "5\t42\t0\tSão Paulo\t0.00\t-128.00\t0.0\tnan\tNULL\tNULL\t12\t2023"},
		{q: "SELECT count(*) FROM read_parquet('orders/year=202[34]/*/*.parquet', hive_partitioning = false)", want: "36"},
		{q: "SELECT count(*) FROM read_parquet('orders/year=202[34]/*/*.parquet', hive_partitioning = true) WHERE month = 6", want: "12"},
		{q: "SELECT month, count(*) FROM read_parquet('orders/year=2024/*/*.parquet', hive_partitioning = 1) GROUP BY month ORDER BY month", want: "6\t12|7\t12"},
		{q: "SELECT year, order_id FROM 'orders/**/*.parquet' WHERE year <> 2030 ORDER BY year DESC, order_id LIMIT 3", want: "2024\t1|2024\t1|2024\t2"},
		{q: "SELECT year + month AS ym, count(*) FROM 'orders/**/*.parquet' WHERE year < 2030 GROUP BY ym ORDER BY ym", want: "2030\t12|2031\t12|2035\t12"},
		{q: "SELECT d, s, n, count(*) FROM 'typed/**/*.parquet' GROUP BY d, s, n ORDER BY d", want: "2024-01-05\ta b\tNULL\t12|2024-02-01\tNULL\t7\t12"},
		{q: "SELECT count(*) FROM 'typed/**/*.parquet' WHERE n IS NULL", want: "12"},
		{q: "SELECT count(*) FROM 'typed/**/*.parquet' WHERE d >= DATE '2024-02-01'", want: "12"},
		{q: "SELECT city, count(*) FROM 'cities/*/*.parquet' GROUP BY city ORDER BY city", want: "Paris\t12|Rome\t12"},
		{q: "SELECT count(*) FROM 'cities/*/*.parquet' WHERE city = 'Rome'", want: "12"},
		// The file that is not Parquet is read when nothing prunes it.
		{q: "SELECT count(*) FROM 'orders/**/*.parquet'", err: "bad.parquet"},
		{q: "SELECT count(*) FROM 'orders/**/*.parquet' WHERE year > 2029", err: "bad.parquet"},
		{q: "SELECT count(*) FROM read_parquet('mixed/**/*.parquet', hive_partitioning = true)",
			err: `Binder Error: Hive partition mismatch between file "mixed/x=1/y=2/f.parquet" and "mixed/x=3/g.parquet": key "y" not found`},
	}
	for _, threads := range []string{"1", "4"} {
		s := NewSession()
		if _, err := s.Execute(context.Background(), "SET threads = "+threads); err != nil {
			t.Fatal(err)
		}
		for _, tc := range tests {
			res, err := s.Execute(context.Background(), tc.q)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("threads %s: %s: error %v, want %q", threads, tc.q, err, tc.err)
				}
				continue
			}
			if err != nil {
				t.Errorf("threads %s: %s: %v", threads, tc.q, err)
				continue
			}
			var rows []string
			for i := 0; i < res.NumRows(); i++ {
				var cells []string
				for c := range res.Columns {
					text, null := res.Cell(i, c)
					if null {
						text = "NULL"
					}
					cells = append(cells, text)
					if strings.HasPrefix(tc.q, "DESCRIBE") && c == 1 {
						cells = []string{cells[0] + " " + cells[1]}
						break
					}
				}
				rows = append(rows, strings.Join(cells, "\t"))
			}
			if got := strings.Join(rows, "|"); got != tc.want {
				t.Errorf("threads %s: %s\n got %s\nwant %s", threads, tc.q, got, tc.want)
			}
		}
	}
}

// TestHivePruning checks that the plan lists the files the WHERE rules out
// by their paths, with the reason and size, and scans only the others.
func TestHivePruning(t *testing.T) {
	hiveTree(t)
	st, err := planner.Parse("SELECT count(*) FROM 'orders/**/*.parquet' WHERE year = 2024 AND order_id < 3")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(st.(*planner.Select), nil)
	if err != nil {
		t.Fatal(err)
	}
	scan := p.Scan
	if strings.Join(scan.Files, ",") != "orders/year=2024/month=6/a.parquet,orders/year=2024/month=7/b.parquet" {
		t.Errorf("files scanned: %v", scan.Files)
	}
	want := []planner.PrunedFile{
		{Path: "orders/year=2023/month=12/a.parquet", Bytes: 4900, Reason: "(year = 2024) with month=12/year=2023"},
		{Path: "orders/year=2030/month=1/bad.parquet", Bytes: 11, Reason: "(year = 2024) with month=1/year=2030"},
	}
	if len(scan.PrunedFiles) != len(want) {
		t.Fatalf("pruned %+v", scan.PrunedFiles)
	}
	for i, w := range want {
		if got := scan.PrunedFiles[i]; got != w {
			t.Errorf("pruned file %d: %+v, want %+v", i, got, w)
		}
	}
	if scan.PrunedBytes() != 4911 {
		t.Errorf("pruned bytes %d", scan.PrunedBytes())
	}
	if got := p.Explain(); !strings.Contains(got, "hive path pruning: 2 of 4 file(s) skipped, 4911 bytes") || !strings.Contains(got, "hive partitions [month, year]") {
		t.Errorf("EXPLAIN does not report the pruning:\n%s", got)
	}
	res, err := NewSession().Execute(context.Background(), "SELECT count(*) FROM 'orders/**/*.parquet' WHERE year = 2024 AND order_id < 3")
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := res.Cell(0, 0); text != "4" {
		t.Errorf("count %s, want 4", text)
	}
	// Every file pruned: no rows, nothing opened.
	res, err = NewSession().Execute(context.Background(), "SELECT order_id FROM 'orders/**/*.parquet' WHERE year = 1999")
	if err != nil || res.NumRows() != 0 {
		t.Errorf("all pruned: %v rows, %v", res, err)
	}
	// A conjunct that fails to evaluate prunes nothing; the error comes
	// from the rows, as without pruning.
	_, err = NewSession().Execute(context.Background(), "SELECT count(*) FROM 'typed/**/*.parquet' WHERE CAST(s AS INTEGER) = 1")
	if !errors.Is(err, planner.ErrConversion) {
		t.Errorf("failing conjunct: %v, want a conversion error", err)
	}
}
