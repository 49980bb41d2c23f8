package main

import (
	"bufio"
	"context"
	"io"
	"testing"
)

// benchResult is 100,000 rows of an integer, a text and a double column.
func benchResult() *col3 {
	n := 100000
	ids, names, vals := make([]any, n), make([]any, n), make([]any, n)
	for i := range n {
		ids[i], names[i], vals[i] = i, "Zürich", float64(i)/3
	}
	return &col3{col{"id", tBig, ids}, col{"city", tVarchar, names}, col{"v", tDouble, vals}}
}

type col3 [3]col

// BenchmarkRender measures printing a result in the modes people pipe,
// straight to the writer and through the cancellable writer Ctrl-C stops.
func BenchmarkRender(b *testing.B) {
	c := benchResult()
	res := fakeResult(2048, c[0], c[1], c[2])
	for _, m := range []outputMode{modeCSV, modeList, modeJSON, modeBox} {
		o := defaultRenderOptions()
		o.setMode(m)
		o.maxRows = 0
		b.Run(m.String(), func(b *testing.B) {
			w := bufio.NewWriterSize(io.Discard, 64<<10)
			for b.Loop() {
				render(w, res, o)
				w.Flush()
			}
		})
		b.Run(m.String()+"/cancellable", func(b *testing.B) {
			w := bufio.NewWriterSize(io.Discard, 64<<10)
			for b.Loop() {
				if err := renderCancellable(context.Background(), w, res, o); err != nil {
					b.Fatal(err)
				}
				w.Flush()
			}
		})
	}
}
