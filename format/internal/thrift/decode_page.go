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
	if err := d.readStructBody(pageHeaderFields, ids(1, 2, 3), d.pageHeader(h)); err != nil {
		return nil, 0, at(err, "PageHeader")
	}
	return h, d.r.pos, nil
}

// DecodeColumnIndex decodes a column chunk's ColumnIndex.
func DecodeColumnIndex(b []byte) (*meta.ColumnIndex, error) {
	d := newDecoder(b)
	ci := new(meta.ColumnIndex)
	if err := d.readStructBody(columnIndexFields, ids(1, 2, 3, 4), d.columnIndex(ci)); err != nil {
		return nil, at(err, "ColumnIndex")
	}
	return ci, nil
}

// DecodeOffsetIndex decodes a column chunk's OffsetIndex.
func DecodeOffsetIndex(b []byte) (*meta.OffsetIndex, error) {
	d := newDecoder(b)
	oi := new(meta.OffsetIndex)
	if err := d.readStructBody(offsetIndexFields, ids(1), d.offsetIndex(oi)); err != nil {
		return nil, at(err, "OffsetIndex")
	}
	return oi, nil
}

// DecodeBloomFilterHeader decodes the header at the start of b that precedes
// a Bloom filter's bitset; n is the number of bytes the header took.
func DecodeBloomFilterHeader(b []byte) (h *meta.BloomFilterHeader, n int, err error) {
	d := newDecoder(b)
	h = new(meta.BloomFilterHeader)
	if err := d.readStructBody(bloomFilterHeaderFields, ids(1, 2, 3, 4), d.bloomFilterHeader(h)); err != nil {
		return nil, 0, at(err, "BloomFilterHeader")
	}
	return h, d.r.pos, nil
}

func (d *decoder) pageHeader(h *meta.PageHeader) fieldFunc {
	return func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			var v int32
			v, err = d.i32(t)
			h.Type = meta.PageType(v)
		case 2:
			h.UncompressedPageSize, err = d.i32(t)
		case 3:
			h.CompressedPageSize, err = d.i32(t)
		case 4:
			h.CRC, err = optI32(d.i32(t))
		case 5:
			h.DataPageHeader = new(meta.DataPageHeader)
			err = d.dataPageHeader(t, h.DataPageHeader)
		case 6:
			h.IndexPageHeader = empty
			err = d.emptyStruct(t)
		case 7:
			h.DictionaryPageHeader = new(meta.DictionaryPageHeader)
			err = d.dictionaryPageHeader(t, h.DictionaryPageHeader)
		case 8:
			h.DataPageHeaderV2 = new(meta.DataPageHeaderV2)
			err = d.dataPageHeaderV2(t, h.DataPageHeaderV2)
		default:
			return false, nil
		}
		return true, err
	}
}

func (d *decoder) dataPageHeader(t thrift.TType, h *meta.DataPageHeader) error {
	return d.readStruct(t, dataPageHeaderFields, ids(1, 2, 3, 4), func(id int16, t thrift.TType) (known bool, err error) {
		var v int32
		switch id {
		case 1:
			h.NumValues, err = d.i32(t)
		case 2:
			v, err = d.i32(t)
			h.Encoding = meta.Encoding(v)
		case 3:
			v, err = d.i32(t)
			h.DefinitionLevelEncoding = meta.Encoding(v)
		case 4:
			v, err = d.i32(t)
			h.RepetitionLevelEncoding = meta.Encoding(v)
		case 5:
			h.Statistics = new(meta.Statistics)
			err = d.statistics(t, h.Statistics)
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) dictionaryPageHeader(t thrift.TType, h *meta.DictionaryPageHeader) error {
	return d.readStruct(t, dictionaryPageHeaderFields, ids(1, 2), func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			h.NumValues, err = d.i32(t)
		case 2:
			var v int32
			v, err = d.i32(t)
			h.Encoding = meta.Encoding(v)
		case 3:
			h.IsSorted, err = optBool(d.bool(t))
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) dataPageHeaderV2(t thrift.TType, h *meta.DataPageHeaderV2) error {
	h.IsCompressed = true // parquet.thrift: "If missing it is considered compressed"
	return d.readStruct(t, dataPageHeaderV2Fields, ids(1, 2, 3, 4, 5, 6), func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			h.NumValues, err = d.i32(t)
		case 2:
			h.NumNulls, err = d.i32(t)
		case 3:
			h.NumRows, err = d.i32(t)
		case 4:
			var v int32
			v, err = d.i32(t)
			h.Encoding = meta.Encoding(v)
		case 5:
			h.DefinitionLevelsByteLength, err = d.i32(t)
		case 6:
			h.RepetitionLevelsByteLength, err = d.i32(t)
		case 7:
			h.IsCompressed, err = d.bool(t)
		case 8:
			h.Statistics = new(meta.Statistics)
			err = d.statistics(t, h.Statistics)
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) columnIndex(ci *meta.ColumnIndex) fieldFunc {
	return func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			ci.NullPages, err = d.boolList(t)
		case 2:
			ci.MinValues, err = d.binaryList(t)
		case 3:
			ci.MaxValues, err = d.binaryList(t)
		case 4:
			var v int32
			v, err = d.i32(t)
			ci.BoundaryOrder = meta.BoundaryOrder(v)
		case 5:
			ci.NullCounts, err = d.i64List(t)
		case 6:
			ci.RepetitionLevelHistograms, err = d.i64List(t)
		case 7:
			ci.DefinitionLevelHistograms, err = d.i64List(t)
		case 8:
			ci.NanCounts, err = d.i64List(t)
		default:
			return false, nil
		}
		return true, err
	}
}

func (d *decoder) offsetIndex(oi *meta.OffsetIndex) fieldFunc {
	return func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			oi.PageLocations, err = readStructList(d, t, d.pageLocation)
		case 2:
			oi.UnencodedByteArrayDataBytes, err = d.i64List(t)
		default:
			return false, nil
		}
		return true, err
	}
}

func (d *decoder) pageLocation(pl *meta.PageLocation) error {
	return d.readStructBody(pageLocationFields, ids(1, 2, 3), func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			pl.Offset, err = d.i64(t)
		case 2:
			pl.CompressedPageSize, err = d.i32(t)
		case 3:
			pl.FirstRowIndex, err = d.i64(t)
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) bloomFilterHeader(h *meta.BloomFilterHeader) fieldFunc {
	// Each union has one defined member; any other member leaves its flag
	// false, which tells the caller it cannot use the filter.
	member := func(t thrift.TType, fs fields, flag *bool) error {
		return d.union(t, fs, func(id int16, t thrift.TType) error {
			if id != 1 {
				return d.skip(t)
			}
			*flag = true
			return d.emptyStruct(t)
		})
	}
	return func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			h.NumBytes, err = d.i32(t)
		case 2:
			err = member(t, bloomAlgorithmFields, &h.AlgorithmBlock)
		case 3:
			err = member(t, bloomHashFields, &h.HashXxHash)
		case 4:
			err = member(t, bloomCompressionFields, &h.CompressionNone)
		default:
			return false, nil
		}
		return true, err
	}
}
