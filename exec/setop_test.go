package exec

import (
	"context"
	"testing"
	"time"
)

// UNION ALL streams: its branches run one after the other, each batch
// passed on as it is made, so the first reaches the reader while the first
// branch still scans, and the live heap does not grow with the input.
func TestUnionAllStreams(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	const q = "SELECT * FROM " + ordersTimes5 + " UNION ALL SELECT * FROM " + ordersTimes5
	res, err := s.Stream(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	first, err := res.Next()
	if err != nil || first == nil {
		t.Fatalf("first batch: %v, %v", first, err)
	}
	time.Sleep(300 * time.Millisecond)
	rs := res.stream
	if rs.ended.Load() {
		t.Fatal("the query ended before its reader took a second batch")
	}
	if sent := rs.sent.Load(); sent > streamBuffer+1 {
		t.Fatalf("%d batches handed over with one read, want at most %d", sent, streamBuffer+1)
	}
	rows := first.Len
	for {
		b, err := res.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		rows += b.Len
	}
	if rows != 200000 {
		t.Fatalf("%d rows, want 200000", rows)
	}

	// Three times the input takes about the heap of once.
	run := func(q string) uint64 {
		return peakHeap(t, func() error {
			res, err := s.Stream(context.Background(), q)
			if err != nil {
				return err
			}
			defer res.Close()
			for {
				b, err := res.Next()
				if b == nil || err != nil {
					return err
				}
			}
		})
	}
	once := run("SELECT * FROM " + ordersTimes5)
	twice := run("SELECT * FROM " + ordersTimes5 + " UNION ALL SELECT * FROM " + ordersTimes5 + " UNION ALL SELECT * FROM " + ordersTimes5)
	if twice > once+once/2+(8<<20) {
		t.Errorf("peak heap %d MB for three branches, %d MB for one", twice>>20, once>>20)
	}
}
