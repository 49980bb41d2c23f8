package exec

import "testing"

// A row group the workers aggregate passes one message, its partial
// aggregate: its channel holds one, not a batch buffer's worth, until the
// partial aggregation is turned off.
func TestAggregatedTaskChannelHoldsOne(t *testing.T) {
	s := &scanner{q: &scanQuery{partial: true}}
	if got := cap(s.taskOut()); got != 1 {
		t.Errorf("an aggregated row group's channel holds %d messages, want 1", got)
	}
	s.partialOff.Store(true)
	if got := cap(s.taskOut()); got != taskBuffer {
		t.Errorf("once partial aggregation is off, a row group's channel holds %d messages, want %d", got, taskBuffer)
	}
	s = &scanner{q: &scanQuery{}}
	if got := cap(s.taskOut()); got != taskBuffer {
		t.Errorf("a row group passing batches has a channel of %d messages, want %d", got, taskBuffer)
	}
}
