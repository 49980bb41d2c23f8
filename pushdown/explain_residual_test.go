package pushdown

import (
	"strings"
	"testing"
)

func TestNotPushedDown(t *testing.T) {
	tests := []struct {
		text string
		cols []string
		want string
	}{
		{"((order_id + 1) < 1000)", []string{"order_id"},
			"((order_id + 1) < 1000): an expression of a column, which no statistics bound; order_id < 999 would push down"},
		{"((amount - 0.5) >= 10.25)", []string{"amount"},
			"((amount - 0.5) >= 10.25): an expression of a column, which no statistics bound; amount >= 10.75 would push down"},
		{"(CAST(shipped_at AS DATE) = CAST('2024-02-29' AS DATE))", []string{"shipped_at"},
			"(CAST(shipped_at AS DATE) = CAST('2024-02-29' AS DATE)): a cast of a column, which no statistics bound; shipped_at >= '2024-02-29' AND shipped_at < '2024-03-01' would push down"},
		{"(note != city)", []string{"note", "city"}, "(note != city): it compares columns with each other, which no statistics bound"},
		{"(lower(city) = 'paris')", []string{"city"},
			"(lower(city) = 'paris'): no mechanism judges it: statistics, page index, Bloom filters and dictionaries bound bare columns and struct fields against constants"},
	}
	for _, tc := range tests {
		pred := &And{Xs: []Expr{&Const{True}, &Residual{Text: tc.text, Columns: tc.cols}}}
		got := notPushedDown(pred, nil, nil)
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("notPushedDown(%s) = %q, want %q", tc.text, got, tc.want)
		}
	}
	// Two fields of one struct are one column, not columns compared with
	// each other.
	f := openFixture(t, "structs.parquet")
	for _, tc := range []struct {
		cols []string
		want string
	}{
		{[]string{"pt.x", "pt.y"}, "no mechanism judges it"},
		{[]string{"pt.x", "address.zip"}, "it compares columns with each other"},
	} {
		pred := &Residual{Text: "(e)", Columns: tc.cols}
		if got := notPushedDown(pred, f, nil); len(got) != 1 || !strings.HasPrefix(got[0], "(e): "+tc.want) {
			t.Errorf("notPushedDown over %v = %q, want %q", tc.cols, got, tc.want)
		}
	}
	partition := &Residual{Text: "(year = 2024)"}
	noted := &Residual{Text: "(x = 1)", Columns: []string{"x"}}
	if got := notPushedDown(&And{Xs: []Expr{partition, noted}}, nil, []string{"not pushed down: (x = 1): a reason"}); got != nil {
		t.Errorf("a partition condition or one the notes explain is reported: %q", got)
	}
	if got := notPushedDown(eq("order_id", IntLiteral(1)), nil, nil); got != nil {
		t.Errorf("a pushed-down condition is reported: %q", got)
	}
}
