package thrift

import (
	"github.com/apache/thrift/lib/go/thrift"

	"github.com/pqsql/pqsql/format/meta"
)

// DecodePageHeader decodes the page header at the start of b, which may run
// on into the page and beyond; n is the number of bytes the header took.
func DecodePageHeader(b []byte) (h *meta.PageHeader, n int, err error) {
	d := newDecoder(b)
	h = new(meta.PageHeader)
	if err := d.pageHeader(h); err != nil {
		return nil, 0, at(err, "PageHeader")
	}
	n = d.r.pos
	d.release()
	return h, n, nil
}

// A PageHeaderBuf holds a page header and its parts: a reader decoding a
// chunk's pages one after another decodes each into the same buffer
// (DecodePageHeaderInto) instead of allocating four structs a page.
type PageHeaderBuf struct {
	H      meta.PageHeader
	data   meta.DataPageHeader
	v2     meta.DataPageHeaderV2
	dict   meta.DictionaryPageHeader
	crc    int32
	sorted bool
}

// DecodePageHeaderInto decodes the page header at the start of b into
// buf.H, overwriting what buf held: pointers into an earlier header of buf
// are invalid afterwards. Page statistics are skipped: no reader uses them
// (the page index took their place), and decoding them allocates.
func DecodePageHeaderInto(b []byte, buf *PageHeaderBuf) (n int, err error) {
	d := newDecoder(b)
	d.into = buf
	buf.H = meta.PageHeader{}
	if err := d.pageHeader(&buf.H); err != nil {
		return 0, at(err, "PageHeader")
	}
	n = d.r.pos
	d.release()
	return n, nil
}

// DecodeColumnIndex decodes a column chunk's ColumnIndex.
func DecodeColumnIndex(b []byte) (*meta.ColumnIndex, error) {
	d := newDecoder(b)
	ci := new(meta.ColumnIndex)
	if err := d.columnIndex(ci); err != nil {
		return nil, at(err, "ColumnIndex")
	}
	d.release()
	return ci, nil
}

// A ColumnIndexBuf holds a column index and the arrays of its lists: a
// planner judging one chunk's page index after another decodes each into
// the same buffer (DecodeColumnIndexInto) instead of allocating its lists
// again.
type ColumnIndexBuf struct {
	CI         meta.ColumnIndex
	nullPages  []bool
	min, max   [][]byte
	nullCounts []int64
	repHist    []int64
	defHist    []int64
	nanCounts  []int64
}

// DecodeColumnIndexInto decodes a ColumnIndex into buf.CI, overwriting what
// buf held. Its min and max values are slices of b, not copies: they are
// valid as long as b is, and b must not change meanwhile.
func DecodeColumnIndexInto(b []byte, buf *ColumnIndexBuf) error {
	d := newDecoder(b)
	d.ciBuf = buf
	buf.CI = meta.ColumnIndex{}
	if err := d.columnIndex(&buf.CI); err != nil {
		buf.CI = meta.ColumnIndex{}
		return at(err, "ColumnIndex")
	}
	d.release()
	return nil
}

// DecodeOffsetIndex decodes a column chunk's OffsetIndex.
func DecodeOffsetIndex(b []byte) (*meta.OffsetIndex, error) {
	d := newDecoder(b)
	oi := new(meta.OffsetIndex)
	if err := d.offsetIndex(oi); err != nil {
		return nil, at(err, "OffsetIndex")
	}
	d.release()
	return oi, nil
}

// An OffsetIndexBuf holds an offset index and the arrays of its lists: a
// reader placing one chunk's pages after another decodes each into the
// same buffer (DecodeOffsetIndexInto).
type OffsetIndexBuf struct {
	OI    meta.OffsetIndex
	pages []meta.PageLocation
	unenc []int64
}

// DecodeOffsetIndexInto decodes an OffsetIndex into buf.OI, overwriting
// what buf held.
func DecodeOffsetIndexInto(b []byte, buf *OffsetIndexBuf) error {
	d := newDecoder(b)
	d.oiBuf = buf
	buf.OI = meta.OffsetIndex{}
	if err := d.offsetIndex(&buf.OI); err != nil {
		buf.OI = meta.OffsetIndex{}
		return at(err, "OffsetIndex")
	}
	d.release()
	return nil
}

// DecodeBloomFilterHeader decodes the header at the start of b that precedes
// a Bloom filter's bitset; n is the number of bytes the header took.
func DecodeBloomFilterHeader(b []byte) (h *meta.BloomFilterHeader, n int, err error) {
	d := newDecoder(b)
	h = new(meta.BloomFilterHeader)
	if err := d.bloomFilterHeader(h); err != nil {
		return nil, 0, at(err, "BloomFilterHeader")
	}
	n = d.r.pos
	d.release()
	return h, n, nil
}

func (d *decoder) pageHeader(h *meta.PageHeader) error {
	s := d.beginBody(pageHeaderFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			var v int32
			v, err = d.i32(s.t)
			h.Type = meta.PageType(v)
		case 2:
			h.UncompressedPageSize, err = d.i32(s.t)
		case 3:
			h.CompressedPageSize, err = d.i32(s.t)
		case 4:
			if b := d.into; b != nil {
				b.crc, err = d.i32(s.t)
				h.CRC = &b.crc
			} else {
				h.CRC, err = d.optI32(s.t)
			}
		case 5:
			if b := d.into; b != nil {
				b.data, h.DataPageHeader = meta.DataPageHeader{}, &b.data
			} else {
				h.DataPageHeader = new(meta.DataPageHeader)
			}
			err = d.dataPageHeader(s.t, h.DataPageHeader)
		case 6:
			h.IndexPageHeader, err = empty, d.emptyStruct(s.t)
		case 7:
			if b := d.into; b != nil {
				b.dict, h.DictionaryPageHeader = meta.DictionaryPageHeader{}, &b.dict
			} else {
				h.DictionaryPageHeader = new(meta.DictionaryPageHeader)
			}
			err = d.dictionaryPageHeader(s.t, h.DictionaryPageHeader)
		case 8:
			if b := d.into; b != nil {
				b.v2, h.DataPageHeaderV2 = meta.DataPageHeaderV2{}, &b.v2
			} else {
				h.DataPageHeaderV2 = new(meta.DataPageHeaderV2)
			}
			err = d.dataPageHeaderV2(s.t, h.DataPageHeaderV2)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3))
}

// skipStatistics passes over page statistics without allocating: their
// binary values are sliced, not copied (thrift.Skip copies them).
func (d *decoder) skipStatistics(t thrift.TType) error {
	s := d.begin(t, nil)
	for s.next() {
		var err error
		if s.t == thrift.STRING {
			_, err = d.raw()
		} else {
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) dataPageHeader(t thrift.TType, h *meta.DataPageHeader) error {
	s := d.begin(t, dataPageHeaderFields)
	for s.next() {
		var err error
		var v int32
		switch s.id {
		case 1:
			h.NumValues, err = d.i32(s.t)
		case 2:
			v, err = d.i32(s.t)
			h.Encoding = meta.Encoding(v)
		case 3:
			v, err = d.i32(s.t)
			h.DefinitionLevelEncoding = meta.Encoding(v)
		case 4:
			v, err = d.i32(s.t)
			h.RepetitionLevelEncoding = meta.Encoding(v)
		case 5:
			if d.into != nil {
				err = d.skipStatistics(s.t)
				break
			}
			h.Statistics = new(meta.Statistics)
			err = d.statistics(s.t, h.Statistics)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3, 4))
}

func (d *decoder) dictionaryPageHeader(t thrift.TType, h *meta.DictionaryPageHeader) error {
	s := d.begin(t, dictionaryPageHeaderFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			h.NumValues, err = d.i32(s.t)
		case 2:
			var v int32
			v, err = d.i32(s.t)
			h.Encoding = meta.Encoding(v)
		case 3:
			if b := d.into; b != nil {
				b.sorted, err = d.bool(s.t)
				h.IsSorted = &b.sorted
			} else {
				h.IsSorted, err = d.optBool(s.t)
			}
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2))
}

func (d *decoder) dataPageHeaderV2(t thrift.TType, h *meta.DataPageHeaderV2) error {
	h.IsCompressed = true // parquet.thrift: "If missing it is considered compressed"
	s := d.begin(t, dataPageHeaderV2Fields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			h.NumValues, err = d.i32(s.t)
		case 2:
			h.NumNulls, err = d.i32(s.t)
		case 3:
			h.NumRows, err = d.i32(s.t)
		case 4:
			var v int32
			v, err = d.i32(s.t)
			h.Encoding = meta.Encoding(v)
		case 5:
			h.DefinitionLevelsByteLength, err = d.i32(s.t)
		case 6:
			h.RepetitionLevelsByteLength, err = d.i32(s.t)
		case 7:
			h.IsCompressed, err = d.bool(s.t)
		case 8:
			if d.into != nil {
				err = d.skipStatistics(s.t)
				break
			}
			h.Statistics = new(meta.Statistics)
			err = d.statistics(s.t, h.Statistics)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3, 4, 5, 6))
}

func (d *decoder) columnIndex(ci *meta.ColumnIndex) error {
	if buf := d.ciBuf; buf != nil {
		return d.columnIndexInto(ci, buf)
	}
	s := d.beginBody(columnIndexFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			ci.NullPages, err = d.boolList(s.t)
		case 2:
			ci.MinValues, err = d.binaryList(s.t)
		case 3:
			ci.MaxValues, err = d.binaryList(s.t)
		case 4:
			var v int32
			v, err = d.i32(s.t)
			ci.BoundaryOrder = meta.BoundaryOrder(v)
		case 5:
			ci.NullCounts, err = d.i64List(s.t)
		case 6:
			ci.RepetitionLevelHistograms, err = d.i64List(s.t)
		case 7:
			ci.DefinitionLevelHistograms, err = d.i64List(s.t)
		case 8:
			ci.NanCounts, err = d.i64List(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3, 4))
}

// columnIndexInto is columnIndex with its lists in buf's arrays and its
// binary values sliced from the input.
func (d *decoder) columnIndexInto(ci *meta.ColumnIndex, buf *ColumnIndexBuf) error {
	s := d.beginBody(columnIndexFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			ci.NullPages, err = readListInto(d, s.t, thrift.BOOL, &buf.nullPages, d.readBool)
		case 2:
			ci.MinValues, err = readListInto(d, s.t, thrift.STRING, &buf.min, d.readRaw)
		case 3:
			ci.MaxValues, err = readListInto(d, s.t, thrift.STRING, &buf.max, d.readRaw)
		case 4:
			var v int32
			v, err = d.i32(s.t)
			ci.BoundaryOrder = meta.BoundaryOrder(v)
		case 5:
			ci.NullCounts, err = readListInto(d, s.t, thrift.I64, &buf.nullCounts, d.readI64)
		case 6:
			ci.RepetitionLevelHistograms, err = readListInto(d, s.t, thrift.I64, &buf.repHist, d.readI64)
		case 7:
			ci.DefinitionLevelHistograms, err = readListInto(d, s.t, thrift.I64, &buf.defHist, d.readI64)
		case 8:
			ci.NanCounts, err = readListInto(d, s.t, thrift.I64, &buf.nanCounts, d.readI64)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3, 4))
}

func (d *decoder) offsetIndex(oi *meta.OffsetIndex) error {
	s := d.beginBody(offsetIndexFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			if buf := d.oiBuf; buf != nil {
				oi.PageLocations, err = readListInto(d, s.t, thrift.STRUCT, &buf.pages, d.pageLocation)
			} else {
				oi.PageLocations, err = readStructList(d, s.t, d.pageLocation)
			}
		case 2:
			if buf := d.oiBuf; buf != nil {
				oi.UnencodedByteArrayDataBytes, err = readListInto(d, s.t, thrift.I64, &buf.unenc, d.readI64)
			} else {
				oi.UnencodedByteArrayDataBytes, err = d.i64List(s.t)
			}
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1))
}

func (d *decoder) pageLocation(pl *meta.PageLocation) error {
	s := d.beginBody(pageLocationFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			pl.Offset, err = d.i64(s.t)
		case 2:
			pl.CompressedPageSize, err = d.i32(s.t)
		case 3:
			pl.FirstRowIndex, err = d.i64(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3))
}

func (d *decoder) bloomFilterHeader(h *meta.BloomFilterHeader) error {
	s := d.beginBody(bloomFilterHeaderFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			h.NumBytes, err = d.i32(s.t)
		case 2:
			err = d.bloomUnion(s.t, bloomAlgorithmFields, &h.AlgorithmBlock)
		case 3:
			err = d.bloomUnion(s.t, bloomHashFields, &h.HashXxHash)
		case 4:
			err = d.bloomUnion(s.t, bloomCompressionFields, &h.CompressionNone)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3, 4))
}

// bloomUnion reads one of the Bloom filter header's unions, each with one
// defined member; any other member leaves flag false, which tells the caller
// it cannot use the filter.
func (d *decoder) bloomUnion(t thrift.TType, fs fields, flag *bool) error {
	s := d.beginUnion(t, fs)
	for s.next() {
		if s.id == 1 {
			*flag = true
			s.done(d.emptyStruct(s.t))
		} else {
			s.done(s.skip())
		}
	}
	return s.end(0)
}
