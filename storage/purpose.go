package storage

import "time"

// A Purpose is what a remote request is for, as EXPLAIN ANALYZE reports it.
type Purpose int8

const (
	// Footer: the suffix read that opens a file, and the file's head magic.
	Footer Purpose = iota
	// Index: column and offset indexes.
	Index
	// Bloom: Bloom filter headers and blocks.
	Bloom
	// Dictionary: dictionary pages read to plan.
	Dictionary
	// Data: column chunk bytes read by the scan.
	Data
	// NumPurposes counts the purposes.
	NumPurposes
)

var purposeNames = [NumPurposes]string{"footer", "page index", "bloom", "dictionary", "data"}

func (p Purpose) String() string { return purposeNames[p] }

// cached reports whether reads of this purpose are kept in the store's
// metadata cache.
func (p Purpose) cached() bool { return p != Data }

// PurposeStats counts the requests of one purpose.
type PurposeStats struct {
	// Requests and Bytes are the requests sent that succeeded and the
	// bytes they returned; Retries the attempts that failed and were
	// tried again.
	Requests, Bytes, Retries int64
	// Wait is the time spent waiting on the network, summed over
	// requests (parallel requests overlap).
	Wait time.Duration
	// CacheHits counts reads the session cache or an earlier prefetch
	// served without a request.
	CacheHits int64
}
