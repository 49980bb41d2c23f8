package format

import "testing"

// A footer smaller than the fetch pools' smallest buffers is read into one
// all the same, and handed back once decoded: the next file's footer, in a
// glob of such files, is read into it rather than into bytes of its own.
func TestSmallFooterReadIntoPooledBuffer(t *testing.T) {
	src, closer, err := OpenLocal("../fixtures/nested.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	f, err := OpenSource(src, "nested.parquet", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.FooterSize - footerTail; sizeClass(n) >= 0 {
		t.Fatalf("the fixture's footer of %d bytes is not smaller than the pools' buffers", n)
	}
	defer keepIdleBuffers()()
	for i := range 3 {
		if _, err := OpenSource(src, "nested.parquet", DefaultLimits); err != nil {
			t.Fatal(err)
		}
		if got := idleOfClass(1 << minPooledBits); got != 1 {
			t.Fatalf("%d idle buffers after opening the file %d times, want the one its footer was read into", got, i+1)
		}
	}
}
