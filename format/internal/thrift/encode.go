package thrift

import (
	"fmt"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/pqsql/pqsql/format/meta"
)

// The encoders write every field the Go value holds, in field id order:
// optional fields when their pointer (or slice) is non-nil, required ones
// always, union members whenever set. They do not validate, so a value with
// two union members or none is written as such.

// EncodeFileMetaData encodes a file footer, without its length and magic.
func EncodeFileMetaData(m *meta.FileMetaData) ([]byte, error) {
	if m == nil {
		return nil, fmt.Errorf("thrift: nil FileMetaData: %w", ErrInvalid)
	}
	e := newEncoder()
	e.structBody(func() { e.fileMetaData(m) })
	return e.bytes()
}

// EncodeColumnMetaData encodes a ColumnMetaData on its own, as it is stored
// in ColumnChunk.encrypted_column_metadata before encryption.
func EncodeColumnMetaData(m *meta.ColumnMetaData) ([]byte, error) {
	if m == nil {
		return nil, fmt.Errorf("thrift: nil ColumnMetaData: %w", ErrInvalid)
	}
	e := newEncoder()
	e.structBody(func() { e.columnMetaData(m) })
	return e.bytes()
}

// EncodePageHeader encodes a page header.
func EncodePageHeader(h *meta.PageHeader) ([]byte, error) {
	if h == nil {
		return nil, fmt.Errorf("thrift: nil PageHeader: %w", ErrInvalid)
	}
	e := newEncoder()
	e.structBody(func() { e.pageHeader(h) })
	return e.bytes()
}

// EncodeColumnIndex encodes a ColumnIndex.
func EncodeColumnIndex(ci *meta.ColumnIndex) ([]byte, error) {
	if ci == nil {
		return nil, fmt.Errorf("thrift: nil ColumnIndex: %w", ErrInvalid)
	}
	e := newEncoder()
	e.structBody(func() { e.columnIndex(ci) })
	return e.bytes()
}

// EncodeOffsetIndex encodes an OffsetIndex.
func EncodeOffsetIndex(oi *meta.OffsetIndex) ([]byte, error) {
	if oi == nil {
		return nil, fmt.Errorf("thrift: nil OffsetIndex: %w", ErrInvalid)
	}
	e := newEncoder()
	e.structBody(func() {
		e.structList(1, len(oi.PageLocations), func(i int) {
			pl := &oi.PageLocations[i]
			e.i64Field(1, pl.Offset)
			e.i32Field(2, pl.CompressedPageSize)
			e.i64Field(3, pl.FirstRowIndex)
		})
		if oi.UnencodedByteArrayDataBytes != nil {
			e.i64List(2, oi.UnencodedByteArrayDataBytes)
		}
	})
	return e.bytes()
}

// EncodeBloomFilterHeader encodes the header that precedes a Bloom filter's
// bitset. A false flag writes its union with no member.
func EncodeBloomFilterHeader(h *meta.BloomFilterHeader) ([]byte, error) {
	if h == nil {
		return nil, fmt.Errorf("thrift: nil BloomFilterHeader: %w", ErrInvalid)
	}
	e := newEncoder()
	e.structBody(func() {
		e.i32Field(1, h.NumBytes)
		for i, set := range []bool{h.AlgorithmBlock, h.HashXxHash, h.CompressionNone} {
			e.structField(int16(i+2), func() {
				if set {
					e.emptyField(1)
				}
			})
		}
	})
	return e.bytes()
}

func (e *encoder) fileMetaData(m *meta.FileMetaData) {
	e.i32Field(1, m.Version)
	e.structList(2, len(m.Schema), func(i int) { e.schemaElement(&m.Schema[i]) })
	e.i64Field(3, m.NumRows)
	e.structList(4, len(m.RowGroups), func(i int) { e.rowGroup(&m.RowGroups[i]) })
	e.keyValues(5, m.KeyValueMetadata)
	e.optString(6, m.CreatedBy)
	if m.ColumnOrders != nil {
		e.structList(7, len(m.ColumnOrders), func(i int) {
			switch co := m.ColumnOrders[i]; co.Kind {
			case meta.TypeDefinedOrder:
				e.emptyField(1)
			case meta.IEEE754TotalOrder:
				e.emptyField(2)
			default:
				e.emptyField(co.UnknownField)
			}
		})
	}
	if ea := m.EncryptionAlgorithm; ea != nil {
		e.structField(8, func() {
			if ea.AesGcmV1 {
				e.emptyField(1)
			}
			if ea.AesGcmCtrV1 {
				e.emptyField(2)
			}
		})
	}
	e.optBinary(9, m.FooterSigningKeyMetadata)
}

func (e *encoder) keyValues(id int16, kvs []meta.KeyValue) {
	if kvs == nil {
		return
	}
	e.structList(id, len(kvs), func(i int) {
		e.stringField(1, kvs[i].Key)
		e.optString(2, kvs[i].Value)
	})
}

func (e *encoder) schemaElement(s *meta.SchemaElement) {
	if s.Type != nil {
		e.i32Field(1, int32(*s.Type))
	}
	e.optI32(2, s.TypeLength)
	if s.RepetitionType != nil {
		e.i32Field(3, int32(*s.RepetitionType))
	}
	e.stringField(4, s.Name)
	e.optI32(5, s.NumChildren)
	if s.ConvertedType != nil {
		e.i32Field(6, int32(*s.ConvertedType))
	}
	e.optI32(7, s.Scale)
	e.optI32(8, s.Precision)
	e.optI32(9, s.FieldID)
	if lt := s.LogicalType; lt != nil {
		e.structField(10, func() { e.logicalType(lt) })
	}
}

func (e *encoder) logicalType(lt *meta.LogicalType) {
	emptyMember := func(id int16, set *struct{}) {
		if set != nil {
			e.emptyField(id)
		}
	}
	emptyMember(1, lt.String)
	emptyMember(2, lt.Map)
	emptyMember(3, lt.List)
	emptyMember(4, lt.Enum)
	if d := lt.Decimal; d != nil {
		e.structField(5, func() {
			e.i32Field(1, d.Scale)
			e.i32Field(2, d.Precision)
		})
	}
	emptyMember(6, lt.Date)
	if t := lt.Time; t != nil {
		e.structField(7, func() { e.timeType(t.IsAdjustedToUTC, t.Unit) })
	}
	if t := lt.Timestamp; t != nil {
		e.structField(8, func() { e.timeType(t.IsAdjustedToUTC, t.Unit) })
	}
	if it := lt.Integer; it != nil {
		e.structField(10, func() {
			e.i8Field(1, it.BitWidth)
			e.boolField(2, it.IsSigned)
		})
	}
	emptyMember(11, lt.Null)
	emptyMember(12, lt.JSON)
	emptyMember(13, lt.BSON)
	emptyMember(14, lt.UUID)
	emptyMember(15, lt.Float16)
	if v := lt.Variant; v != nil {
		e.structField(16, func() { e.optI8(1, v.SpecificationVersion) })
	}
	if g := lt.Geometry; g != nil {
		e.structField(17, func() { e.optString(1, g.CRS) })
	}
	if g := lt.Geography; g != nil {
		e.structField(18, func() {
			e.optString(1, g.CRS)
			if g.Algorithm != nil {
				e.i32Field(2, int32(*g.Algorithm))
			}
		})
	}
	if lt.Unknown != 0 {
		e.emptyField(lt.Unknown)
	}
}

// timeType writes TimeType or TimestampType; the unit's value is its union
// field id.
func (e *encoder) timeType(utc bool, unit meta.TimeUnit) {
	e.boolField(1, utc)
	e.structField(2, func() { e.emptyField(int16(unit)) })
}

func (e *encoder) rowGroup(rg *meta.RowGroup) {
	e.structList(1, len(rg.Columns), func(i int) { e.columnChunk(&rg.Columns[i]) })
	e.i64Field(2, rg.TotalByteSize)
	e.i64Field(3, rg.NumRows)
	if rg.SortingColumns != nil {
		e.structList(4, len(rg.SortingColumns), func(i int) {
			sc := &rg.SortingColumns[i]
			e.i32Field(1, sc.ColumnIdx)
			e.boolField(2, sc.Descending)
			e.boolField(3, sc.NullsFirst)
		})
	}
	e.optI64(5, rg.FileOffset)
	e.optI64(6, rg.TotalCompressedSize)
	e.optI16(7, rg.Ordinal)
}

func (e *encoder) columnChunk(cc *meta.ColumnChunk) {
	e.optString(1, cc.FilePath)
	e.i64Field(2, cc.FileOffset)
	if cc.MetaData != nil {
		e.structField(3, func() { e.columnMetaData(cc.MetaData) })
	}
	e.optI64(4, cc.OffsetIndexOffset)
	e.optI32(5, cc.OffsetIndexLength)
	e.optI64(6, cc.ColumnIndexOffset)
	e.optI32(7, cc.ColumnIndexLength)
	if c := cc.CryptoMetadata; c != nil {
		e.structField(8, func() {
			if c.FooterKey {
				e.emptyField(1)
				return
			}
			e.structField(2, func() {
				e.stringList(1, c.PathInSchema)
				e.optBinary(2, c.KeyMetadata)
			})
		})
	}
	e.optBinary(9, cc.EncryptedColumnMetadata)
}

func (e *encoder) columnMetaData(m *meta.ColumnMetaData) {
	e.i32Field(1, int32(m.Type))
	e.listField(2, thrift.I32, len(m.Encodings), func(i int) { e.check(e.p.WriteI32(e.ctx, int32(m.Encodings[i]))) })
	e.stringList(3, m.PathInSchema)
	e.i32Field(4, int32(m.Codec))
	e.i64Field(5, m.NumValues)
	e.i64Field(6, m.TotalUncompressedSize)
	e.i64Field(7, m.TotalCompressedSize)
	e.keyValues(8, m.KeyValueMetadata)
	e.i64Field(9, m.DataPageOffset)
	e.optI64(10, m.IndexPageOffset)
	e.optI64(11, m.DictionaryPageOffset)
	if m.Statistics != nil {
		e.structField(12, func() { e.statistics(m.Statistics) })
	}
	if m.EncodingStats != nil {
		e.structList(13, len(m.EncodingStats), func(i int) {
			s := &m.EncodingStats[i]
			e.i32Field(1, int32(s.PageType))
			e.i32Field(2, int32(s.Encoding))
			e.i32Field(3, s.Count)
		})
	}
	e.optI64(14, m.BloomFilterOffset)
	e.optI32(15, m.BloomFilterLength)
	if s := m.SizeStatistics; s != nil {
		e.structField(16, func() {
			e.optI64(1, s.UnencodedByteArrayDataBytes)
			if s.RepetitionLevelHistogram != nil {
				e.i64List(2, s.RepetitionLevelHistogram)
			}
			if s.DefinitionLevelHistogram != nil {
				e.i64List(3, s.DefinitionLevelHistogram)
			}
		})
	}
	if g := m.GeospatialStatistics; g != nil {
		e.structField(17, func() {
			if bb := g.BBox; bb != nil {
				e.structField(1, func() {
					e.doubleField(1, bb.XMin)
					e.doubleField(2, bb.XMax)
					e.doubleField(3, bb.YMin)
					e.doubleField(4, bb.YMax)
					e.optDouble(5, bb.ZMin)
					e.optDouble(6, bb.ZMax)
					e.optDouble(7, bb.MMin)
					e.optDouble(8, bb.MMax)
				})
			}
			if g.GeospatialTypes != nil {
				e.i32List(2, g.GeospatialTypes)
			}
		})
	}
}

// statistics writes a bound when its Has flag is set or its slice is non-nil.
func (e *encoder) statistics(s *meta.Statistics) {
	bound := func(id int16, has bool, b []byte) {
		if has || b != nil {
			e.binaryField(id, b)
		}
	}
	bound(1, s.HasMax, s.Max)
	bound(2, s.HasMin, s.Min)
	e.optI64(3, s.NullCount)
	e.optI64(4, s.DistinctCount)
	bound(5, s.HasMaxValue, s.MaxValue)
	bound(6, s.HasMinValue, s.MinValue)
	e.optBool(7, s.IsMaxValueExact)
	e.optBool(8, s.IsMinValueExact)
	e.optI64(9, s.NanCount)
}

func (e *encoder) pageHeader(h *meta.PageHeader) {
	e.i32Field(1, int32(h.Type))
	e.i32Field(2, h.UncompressedPageSize)
	e.i32Field(3, h.CompressedPageSize)
	e.optI32(4, h.CRC)
	if dp := h.DataPageHeader; dp != nil {
		e.structField(5, func() {
			e.i32Field(1, dp.NumValues)
			e.i32Field(2, int32(dp.Encoding))
			e.i32Field(3, int32(dp.DefinitionLevelEncoding))
			e.i32Field(4, int32(dp.RepetitionLevelEncoding))
			if dp.Statistics != nil {
				e.structField(5, func() { e.statistics(dp.Statistics) })
			}
		})
	}
	if h.IndexPageHeader != nil {
		e.emptyField(6)
	}
	if dict := h.DictionaryPageHeader; dict != nil {
		e.structField(7, func() {
			e.i32Field(1, dict.NumValues)
			e.i32Field(2, int32(dict.Encoding))
			e.optBool(3, dict.IsSorted)
		})
	}
	if v2 := h.DataPageHeaderV2; v2 != nil {
		e.structField(8, func() {
			e.i32Field(1, v2.NumValues)
			e.i32Field(2, v2.NumNulls)
			e.i32Field(3, v2.NumRows)
			e.i32Field(4, int32(v2.Encoding))
			e.i32Field(5, v2.DefinitionLevelsByteLength)
			e.i32Field(6, v2.RepetitionLevelsByteLength)
			e.boolField(7, v2.IsCompressed)
			if v2.Statistics != nil {
				e.structField(8, func() { e.statistics(v2.Statistics) })
			}
		})
	}
}

func (e *encoder) columnIndex(ci *meta.ColumnIndex) {
	e.boolList(1, ci.NullPages)
	e.binaryList(2, ci.MinValues)
	e.binaryList(3, ci.MaxValues)
	e.i32Field(4, int32(ci.BoundaryOrder))
	for _, l := range []struct {
		id int16
		v  []int64
	}{{5, ci.NullCounts}, {6, ci.RepetitionLevelHistograms}, {7, ci.DefinitionLevelHistograms}, {8, ci.NanCounts}} {
		if l.v != nil {
			e.i64List(l.id, l.v)
		}
	}
}
