package objtest

import (
	"testing"
	"time"
)

func TestRounds(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(start, end int) Request {
		return Request{At: t0.Add(time.Duration(start) * time.Millisecond), Done: t0.Add(time.Duration(end) * time.Millisecond)}
	}
	for _, c := range []struct {
		name string
		reqs []Request
		want int
	}{
		{"none", nil, 0},
		{"one", []Request{at(0, 20)}, 1},
		{"parallel", []Request{at(0, 20), at(2, 23), at(5, 26)}, 1},
		{"sequential", []Request{at(0, 20), at(21, 41), at(42, 62)}, 3},
		{"footer, two indexes, three data", []Request{at(0, 20), at(21, 41), at(22, 42), at(43, 63), at(44, 64), at(45, 65)}, 3},
		{"out of order", []Request{at(43, 63), at(0, 20), at(21, 41)}, 3},
	} {
		if got := Rounds(c.reqs); got != c.want {
			t.Errorf("%s: %d rounds, want %d", c.name, got, c.want)
		}
	}
}
