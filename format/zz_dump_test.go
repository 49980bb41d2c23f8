package format

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func dumpNode(n *Node, ind string) {
	e := n.Element
	t := "group"
	if e.Type != nil {
		t = fmt.Sprint(*e.Type)
	}
	lt := ""
	if e.LogicalType != nil {
		lt = fmt.Sprintf("%+v", *e.LogicalType)
		lt = strings.ReplaceAll(lt, "<nil>", "")
	}
	fmt.Printf("%s%v %s %s %s def=%d rep=%d\n", ind, n.Repetition, t, n.Name, lt, n.DefLevel, n.RepLevel)
	for _, c := range n.Children {
		dumpNode(c, ind+"  ")
	}
}

func TestZZDump(t *testing.T) {
	for _, p := range strings.Fields(os.Getenv("ZZFILES")) {
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("==", p)
		dumpNode(f.Schema.Root, "")
		for rg := range f.Meta.RowGroups {
			for _, l := range f.Schema.Leaves {
				d, err := f.ReadColumn(rg, l.Index)
				if err != nil {
					fmt.Println(l.Path, err)
					continue
				}
				fmt.Printf("  %s def=%v rep=%v vals=", l.Path, d.Def, d.Rep)
				for i := 0; i < d.Values.Len(); i++ {
					fmt.Printf("%x ", d.Values.PlainBytes(i, nil))
				}
				fmt.Println()
			}
		}
	}
}
