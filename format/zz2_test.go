package format

import (
	"fmt"
	"testing"
)

func TestZZ2(t *testing.T) {
	for _, n := range []string{"041", "087", "088", "127", "128", "131", "132", "138", "137"} {
		f, err := Open("/work/shared/parquet-testing/shredded_variant/case-" + n + ".parquet")
		if err != nil {
			t.Fatal(err)
		}
		rows, err := renderFile(f)
		fmt.Println(n, f.Schema.Fields[1].TypeName(), err)
		for _, r := range rows {
			fmt.Println("   ", show(r[1]))
		}
	}
}
