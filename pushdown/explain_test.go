package pushdown

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the EXPLAIN golden files in testdata/")

// TestExplainGolden pins what EXPLAIN prints for the example
// queries. Run with -update after an intended change and review the diff.
func TestExplainGolden(t *testing.T) {
	tests := []struct {
		golden  string
		file    string
		pred    Expr
		cols    []int
		opt     Options
		verbose bool
		// noFile explains without the file, as Format does: pages are
		// counted in kept row groups only.
		noFile bool
	}{
		{"explain_order_id_431.golden", "orders_sorted.parquet", eq("order_id", IntLiteral(431)), []int{0, 4}, AllMechanisms(), true, false},
		{"explain_absent_customer.golden", "orders_shuffled.parquet", eq("customer_id", IntLiteral(424242)), nil, AllMechanisms(), false, false},
		{"explain_or.golden", "orders_sorted.parquet",
			&Or{Xs: []Expr{eq("order_id", IntLiteral(431)), eq("customer_id", IntLiteral(424242))}}, nil, AllMechanisms(), false, false},
		{"explain_no_page_index.golden", "orders_sorted.parquet", eq("order_id", IntLiteral(431)), []int{0, 4}, Options{Statistics: true, Bloom: true, Dictionary: true}, false, false},
		{"explain_no_file.golden", "orders_sorted.parquet", eq("order_id", IntLiteral(431)), []int{0, 4}, AllMechanisms(), false, true},
		{"explain_or_verbose.golden", "orders_sorted.parquet",
			&Or{Xs: []Expr{cmpx("order_id", Le, IntLiteral(300)), cmpx("customer_id", Lt, IntLiteral(3))}}, []int{0}, AllMechanisms(), true, false},
		{"explain_types.golden", "statistics.parquet",
			&And{Xs: []Expr{cmpx("temp_c", Gt, IntLiteral(1000)), &Not{X: &InList{Col: Column{Path: "coupon"}, List: []Literal{StringLiteral("VIP20")}}},
				cmpx("amount", Le, dec(t, "99.995")), &Residual{Text: "note <> city", Columns: []string{"note", "city"}}}}, nil, AllMechanisms(), true, false},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			f := openFixture(t, tt.file)
			p, err := Plan(f, tt.pred, tt.cols, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			o := ExplainOptions{Verbose: tt.verbose, File: f}
			if tt.noFile {
				o.File = nil
			}
			if err := p.Explain(&b, o); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tt.golden)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("EXPLAIN differs from %s (run with -update if intended):\n%s", path, b.String())
			}
		})
	}
}
