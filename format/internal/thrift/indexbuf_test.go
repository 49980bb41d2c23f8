package thrift

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/pqsql/pqsql/format/meta"
)

// TestDecodeColumnIndexInto decodes column indexes one after another into
// one buffer: each must read as a fresh decode does, with nothing left over
// from the one before (a list the next one lacks, longer lists), and its
// values must be the input's own bytes.
func TestDecodeColumnIndexInto(t *testing.T) {
	cis := []*meta.ColumnIndex{
		{
			NullPages: []bool{false, true, false}, MinValues: [][]byte{{1}, {}, {3, 3}},
			MaxValues: [][]byte{{2}, {}, {4}}, BoundaryOrder: meta.Ascending,
			NullCounts: []int64{0, 10, 1}, RepetitionLevelHistograms: []int64{1, 2, 3, 4, 5, 6},
			DefinitionLevelHistograms: []int64{7, 8, 9, 10, 11, 12}, NanCounts: []int64{0, 0, 2},
		},
		{NullPages: []bool{false}, MinValues: [][]byte{{5, 6, 7}}, MaxValues: [][]byte{{8}}, BoundaryOrder: meta.Descending},
		{NullPages: []bool{}, MinValues: [][]byte{}, MaxValues: [][]byte{}, BoundaryOrder: meta.Unordered},
		{
			NullPages: []bool{false, false, false, false, false}, MinValues: [][]byte{{1}, {2}, {3}, {4}, {5}},
			MaxValues: [][]byte{{1}, {2}, {3}, {4}, {5}}, NullCounts: []int64{0, 0, 0, 0, 0},
		},
	}
	var buf ColumnIndexBuf
	for i, ci := range cis {
		b, err := EncodeColumnIndex(ci)
		if err != nil {
			t.Fatal(err)
		}
		want, err := DecodeColumnIndex(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := DecodeColumnIndexInto(b, &buf); err != nil {
			t.Fatalf("column index %d: %v", i, err)
		}
		if !reflect.DeepEqual(&buf.CI, want) {
			t.Errorf("column index %d:\n got %+v\nwant %+v", i, buf.CI, *want)
		}
		start, end := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))+uintptr(len(b))
		for j, v := range append(buf.CI.MinValues, buf.CI.MaxValues...) {
			if p := uintptr(unsafe.Pointer(unsafe.SliceData(v))); len(v) > 0 && (p < start || p >= end) {
				t.Errorf("column index %d: value %d is a copy, not the input's bytes", i, j)
			}
			if cap(v) != len(v) {
				t.Errorf("column index %d: value %d has capacity %d past its %d bytes", i, j, cap(v), len(v))
			}
		}
	}
	// What the buffer is for: a column index the buffer has room for
	// costs no allocation.
	b, err := EncodeColumnIndex(cis[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := DecodeColumnIndexInto(b, &buf); err != nil {
			t.Fatal(err)
		}
	}); n > 0 && !raceEnabled {
		t.Errorf("%v allocations a column index, want none", n)
	}
}

// TestDecodeOffsetIndexInto is TestDecodeColumnIndexInto for offset
// indexes.
func TestDecodeOffsetIndexInto(t *testing.T) {
	ois := []*meta.OffsetIndex{
		{PageLocations: []meta.PageLocation{{Offset: 4, CompressedPageSize: 100, FirstRowIndex: 0},
			{Offset: 104, CompressedPageSize: 1 << 30, FirstRowIndex: 1 << 40}},
			UnencodedByteArrayDataBytes: []int64{10, 20}},
		{PageLocations: []meta.PageLocation{{Offset: 9, CompressedPageSize: 3, FirstRowIndex: 0}}},
		{PageLocations: []meta.PageLocation{}},
		{PageLocations: []meta.PageLocation{{Offset: 1, CompressedPageSize: 1}, {Offset: 2, CompressedPageSize: 1, FirstRowIndex: 1},
			{Offset: 3, CompressedPageSize: 1, FirstRowIndex: 2}}, UnencodedByteArrayDataBytes: []int64{1, 2, 3}},
	}
	var buf OffsetIndexBuf
	for i, oi := range ois {
		b, err := EncodeOffsetIndex(oi)
		if err != nil {
			t.Fatal(err)
		}
		want, err := DecodeOffsetIndex(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := DecodeOffsetIndexInto(b, &buf); err != nil {
			t.Fatalf("offset index %d: %v", i, err)
		}
		if !reflect.DeepEqual(&buf.OI, want) {
			t.Errorf("offset index %d:\n got %+v\nwant %+v", i, buf.OI, *want)
		}
	}
	b, err := EncodeOffsetIndex(ois[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := DecodeOffsetIndexInto(b, &buf); err != nil {
			t.Fatal(err)
		}
	}); n > 0 && !raceEnabled {
		t.Errorf("%v allocations an offset index, want none", n)
	}
}
