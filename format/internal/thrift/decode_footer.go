package thrift

import (
	"fmt"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/pqsql/pqsql/format/meta"
)

// DecodeFileMetaData decodes a file footer: the bytes between the start of
// the footer and its 4-byte length. Bytes after the struct are ignored: a
// plaintext footer of an encrypted file is followed by its 28-byte signature.
func DecodeFileMetaData(b []byte) (*meta.FileMetaData, error) {
	d := newDecoder(b)
	m := new(meta.FileMetaData)
	if err := d.fileMetaData(m); err != nil {
		return nil, at(err, "FileMetaData")
	}
	d.release()
	return m, nil
}

// DecodeColumnMetaData decodes a serialized ColumnMetaData, as found
// (after decryption) in ColumnChunk.encrypted_column_metadata.
func DecodeColumnMetaData(b []byte) (*meta.ColumnMetaData, error) {
	d := newDecoder(b)
	m := new(meta.ColumnMetaData)
	s := d.beginBody(columnMetaDataFields)
	if err := d.columnMetaData(&s, m); err != nil {
		return nil, at(err, "ColumnMetaData")
	}
	d.release()
	return m, nil
}

func (d *decoder) fileMetaData(m *meta.FileMetaData) error {
	s := d.beginBody(fileMetaDataFields)
	rowGroups := false
	for s.next() {
		var err error
		switch s.id {
		case 1:
			m.Version, err = d.i32(s.t)
		case 2:
			m.Schema, err = d.schemaList()
		case 3:
			m.NumRows, err = d.i64(s.t)
		case 4:
			if rowGroups {
				// Decoded or deferred, a list given twice would be read
				// differently: refused either way.
				err = fmt.Errorf("given twice")
				break
			}
			rowGroups = true
			if d.deferRowGroups {
				from := d.r.pos
				// The list's header is checked as decoding it would be.
				if _, err = d.listBegin(s.t, thrift.STRUCT); err != nil {
					break
				}
				d.r.pos = from
				if err = d.skipValue(s.t); err == nil {
					d.rowGroups = Deferred{from: from, to: d.r.pos, t: s.t}
				}
				break
			}
			m.RowGroups, err = readSizedStructList(d, s.t, func(n int) { d.rowGroupsLeft = n }, d.rowGroup)
		case 5:
			m.KeyValueMetadata, err = readStructList(d, s.t, d.keyValue)
		case 6:
			m.CreatedBy, err = d.optString(s.t)
		case 7:
			m.ColumnOrders, err = readStructList(d, s.t, d.columnOrder)
		case 8:
			m.EncryptionAlgorithm = new(meta.EncryptionAlgorithm)
			err = d.encryptionAlgorithm(s.t, m.EncryptionAlgorithm)
		case 9:
			m.FooterSigningKeyMetadata, err = d.binary(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3, 4))
}

func (d *decoder) keyValue(kv *meta.KeyValue) error {
	s := d.beginBody(keyValueFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			kv.Key, err = d.str(s.t)
		case 2:
			kv.Value, err = d.optString(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1))
}

func (d *decoder) schemaElement(e *meta.SchemaElement) error {
	s := d.beginBody(schemaElementFields)
	for s.next() {
		var err error
		var v int32
		switch s.id {
		case 1:
			if v, err = d.i32(s.t); err == nil {
				e.Type = ptr(meta.Type(v))
			}
		case 2:
			e.TypeLength, err = d.optI32(s.t)
		case 3:
			if v, err = d.i32(s.t); err == nil {
				e.RepetitionType = ptr(meta.Repetition(v))
			}
		case 4:
			e.Name, err = d.str(s.t)
		case 5:
			e.NumChildren, err = d.optI32(s.t)
		case 6:
			if v, err = d.i32(s.t); err == nil {
				e.ConvertedType = ptr(meta.ConvertedType(v))
			}
		case 7:
			e.Scale, err = d.optI32(s.t)
		case 8:
			e.Precision, err = d.optI32(s.t)
		case 9:
			e.FieldID, err = d.optI32(s.t)
		case 10:
			e.LogicalType = new(meta.LogicalType)
			err = d.logicalType(s.t, e.LogicalType)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(4))
}

func ptr[T any](v T) *T { return &v }

// The empty logical types carry no data; their members all point here.
var empty = &struct{}{}

func (d *decoder) logicalType(t thrift.TType, lt *meta.LogicalType) error {
	s := d.beginUnion(t, logicalTypeFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			lt.String, err = empty, d.emptyStruct(s.t)
		case 2:
			lt.Map, err = empty, d.emptyStruct(s.t)
		case 3:
			lt.List, err = empty, d.emptyStruct(s.t)
		case 4:
			lt.Enum, err = empty, d.emptyStruct(s.t)
		case 5:
			lt.Decimal = new(meta.DecimalType)
			err = d.decimalType(s.t, lt.Decimal)
		case 6:
			lt.Date, err = empty, d.emptyStruct(s.t)
		case 7:
			lt.Time = new(meta.TimeType)
			err = d.timeType(s.t, &lt.Time.IsAdjustedToUTC, &lt.Time.Unit)
		case 8:
			lt.Timestamp = new(meta.TimestampType)
			err = d.timeType(s.t, &lt.Timestamp.IsAdjustedToUTC, &lt.Timestamp.Unit)
		case 10:
			lt.Integer = new(meta.IntType)
			err = d.intType(s.t, lt.Integer)
		case 11:
			lt.Null, err = empty, d.emptyStruct(s.t)
		case 12:
			lt.JSON, err = empty, d.emptyStruct(s.t)
		case 13:
			lt.BSON, err = empty, d.emptyStruct(s.t)
		case 14:
			lt.UUID, err = empty, d.emptyStruct(s.t)
		case 15:
			lt.Float16, err = empty, d.emptyStruct(s.t)
		case 16:
			lt.Variant = new(meta.VariantType)
			err = d.variantType(s.t, lt.Variant)
		case 17:
			lt.Geometry = new(meta.GeometryType)
			err = d.geometryType(s.t, lt.Geometry)
		case 18:
			lt.Geography = new(meta.GeographyType)
			err = d.geographyType(s.t, lt.Geography)
		default:
			// A logical type newer than this reader (VECTOR is proposed as
			// 19): keep its id so the column is refused, not misread.
			lt.Unknown = s.id
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) decimalType(t thrift.TType, dt *meta.DecimalType) error {
	s := d.begin(t, decimalTypeFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			dt.Scale, err = d.i32(s.t)
		case 2:
			dt.Precision, err = d.i32(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2))
}

// timeType reads TimeType or TimestampType, which share their fields.
func (d *decoder) timeType(t thrift.TType, utc *bool, unit *meta.TimeUnit) error {
	s := d.begin(t, timeTypeFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			*utc, err = d.bool(s.t)
		case 2:
			err = d.timeUnit(s.t, unit)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2))
}

func (d *decoder) timeUnit(t thrift.TType, unit *meta.TimeUnit) error {
	s := d.beginUnion(t, timeUnitFields)
	for s.next() {
		// MILLIS, MICROS and NANOS are field ids 1 to 3, the values of
		// meta.TimeUnit. A newer unit keeps its id as the value, which no
		// caller recognises.
		if s.id > 127 {
			s.done(fmt.Errorf("time unit field id %d out of range", s.id))
			continue
		}
		*unit = meta.TimeUnit(s.id)
		s.done(d.emptyStruct(s.t))
	}
	return s.end(0)
}

func (d *decoder) intType(t thrift.TType, it *meta.IntType) error {
	s := d.begin(t, intTypeFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			it.BitWidth, err = d.i8(s.t)
		case 2:
			it.IsSigned, err = d.bool(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2))
}

func (d *decoder) variantType(t thrift.TType, vt *meta.VariantType) error {
	s := d.begin(t, variantTypeFields)
	for s.next() {
		var err error
		if s.id == 1 {
			vt.SpecificationVersion, err = d.optI8(s.t)
		} else {
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) geometryType(t thrift.TType, gt *meta.GeometryType) error {
	s := d.begin(t, geometryTypeFields)
	for s.next() {
		var err error
		if s.id == 1 {
			gt.CRS, err = d.optString(s.t)
		} else {
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) geographyType(t thrift.TType, gt *meta.GeographyType) error {
	s := d.begin(t, geographyTypeFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			gt.CRS, err = d.optString(s.t)
		case 2:
			var v int32
			if v, err = d.i32(s.t); err == nil {
				gt.Algorithm = ptr(meta.EdgeInterpolationAlgorithm(v))
			}
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) columnOrder(co *meta.ColumnOrder) error {
	s := d.beginUnion(thrift.STRUCT, columnOrderFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			co.Kind, err = meta.TypeDefinedOrder, d.emptyStruct(s.t)
		case 2:
			co.Kind, err = meta.IEEE754TotalOrder, d.emptyStruct(s.t)
		default:
			// Any other order (INT96_TIMESTAMP_ORDER or newer) is unknown
			// here: min_value and max_value must then be ignored.
			co.Kind, co.UnknownField = meta.OrderUnknown, s.id
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) encryptionAlgorithm(t thrift.TType, ea *meta.EncryptionAlgorithm) error {
	// The AES parameters (AAD prefix and file id) matter only to a
	// decryptor, which pqsql does not have; the struct bodies are skipped.
	s := d.beginUnion(t, encryptionAlgorithmFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			ea.AesGcmV1, err = true, d.emptyStruct(s.t)
		case 2:
			ea.AesGcmCtrV1, err = true, d.emptyStruct(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) rowGroup(rg *meta.RowGroup) error {
	s := d.beginBody(rowGroupFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			if d.rowGroupsLeft > 1 || len(d.lists) > 0 || d.keepLists {
				// Lists shared with other row groups, or footers; a
				// footer of one row group alone has none to share them
				// with.
				d.chunkAt = 0
			}
			d.place = 0
			rg.Columns, err = readSizedStructList(d, s.t, d.reserveChunks, d.columnChunk)
			d.chunkAt = -1
		case 2:
			rg.TotalByteSize, err = d.i64(s.t)
		case 3:
			rg.NumRows, err = d.i64(s.t)
		case 4:
			rg.SortingColumns, err = readStructList(d, s.t, d.sortingColumn)
		case 5:
			rg.FileOffset, err = d.optI64(s.t)
		case 6:
			rg.TotalCompressedSize, err = d.optI64(s.t)
		case 7:
			rg.Ordinal, err = d.optI16(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	d.rowGroupsLeft--
	return s.end(ids(1, 2, 3))
}

func (d *decoder) sortingColumn(sc *meta.SortingColumn) error {
	s := d.beginBody(sortingColumnFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			sc.ColumnIdx, err = d.i32(s.t)
		case 2:
			sc.Descending, err = d.bool(s.t)
		case 3:
			sc.NullsFirst, err = d.bool(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3))
}

func (d *decoder) columnChunk(cc *meta.ColumnChunk) error {
	s := d.beginBody(columnChunkFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			cc.FilePath, err = d.optString(s.t)
		case 2:
			cc.FileOffset, err = d.i64(s.t)
		case 3:
			if !d.keeps(d.place) {
				err = d.discardColumnMetaData(s.t)
				break
			}
			cc.MetaData = d.cmds.alloc()
			ms := d.begin(s.t, columnMetaDataFields)
			err = d.columnMetaData(&ms, cc.MetaData)
		case 4:
			cc.OffsetIndexOffset, err = d.optI64(s.t)
		case 5:
			cc.OffsetIndexLength, err = d.optI32(s.t)
		case 6:
			cc.ColumnIndexOffset, err = d.optI64(s.t)
		case 7:
			cc.ColumnIndexLength, err = d.optI32(s.t)
		case 8:
			cc.CryptoMetadata = new(meta.ColumnCryptoMetaData)
			err = d.columnCryptoMetaData(s.t, cc.CryptoMetadata)
		case 9:
			cc.EncryptedColumnMetadata, err = d.binary(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	if d.chunkAt >= 0 {
		d.chunkAt++
	}
	d.place++
	// file_offset is required but has a default of 0 in parquet.thrift and
	// is deprecated, so its absence is not an error.
	return s.end(0)
}

// discardColumnMetaData decodes the metadata of a column chunk the caller
// does not keep, checked as strictly as one it keeps (a footer malformed
// anywhere is refused whatever is read of it), into memory the next one
// is decoded into. Its lists are not shared with the row groups after.
func (d *decoder) discardColumnMetaData(t thrift.TType) error {
	if d.discard == nil {
		d.discard = new(arenas)
	}
	kept := d.arenas
	d.arenas, d.discarding = *d.discard, true
	d.arenas.rewind()
	d.dropped = meta.ColumnMetaData{}
	ms := d.begin(t, columnMetaDataFields)
	err := d.columnMetaData(&ms, &d.dropped)
	*d.discard = d.arenas
	d.arenas, d.discarding = kept, false
	d.dropped = meta.ColumnMetaData{}
	return err
}

func (d *decoder) columnCryptoMetaData(t thrift.TType, c *meta.ColumnCryptoMetaData) error {
	s := d.beginUnion(t, columnCryptoFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			c.FooterKey, err = true, d.emptyStruct(s.t)
		case 2:
			err = d.encryptionWithColumnKey(s.t, c)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) encryptionWithColumnKey(t thrift.TType, c *meta.ColumnCryptoMetaData) error {
	s := d.begin(t, encryptionWithColumnKeyFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			c.PathInSchema, err = d.stringList(s.t)
		case 2:
			c.KeyMetadata, err = d.binary(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1))
}

// columnMetaData reads the fields of a ColumnMetaData whose reading s began.
func (d *decoder) columnMetaData(s *structReader, m *meta.ColumnMetaData) error {
	for s.next() {
		var err error
		var v int32
		switch s.id {
		case 1:
			v, err = d.i32(s.t)
			m.Type = meta.Type(v)
		case 2:
			var before *[]meta.Encoding
			if l := d.listsBefore(); l != nil {
				before = &l.enc
			}
			m.Encodings, err = sharedList(d, s.t, thrift.I32, &d.encodings, &d.encScratch, before, func(e *meta.Encoding) error {
				v, err := d.p.ReadI32(d.ctx)
				*e = meta.Encoding(v)
				return err
			})
		case 3:
			m.PathInSchema, err = d.pathList(s.t)
		case 4:
			v, err = d.i32(s.t)
			m.Codec = meta.CompressionCodec(v)
		case 5:
			m.NumValues, err = d.i64(s.t)
		case 6:
			m.TotalUncompressedSize, err = d.i64(s.t)
		case 7:
			m.TotalCompressedSize, err = d.i64(s.t)
		case 8:
			m.KeyValueMetadata, err = readStructList(d, s.t, d.keyValue)
		case 9:
			m.DataPageOffset, err = d.i64(s.t)
		case 10:
			m.IndexPageOffset, err = d.optI64(s.t)
		case 11:
			m.DictionaryPageOffset, err = d.optI64(s.t)
		case 12:
			m.Statistics = d.stats.alloc()
			err = d.statistics(s.t, m.Statistics)
		case 13:
			var before *[]meta.PageEncodingStats
			if l := d.listsBefore(); l != nil {
				before = &l.encStats
			}
			m.EncodingStats, err = sharedList(d, s.t, thrift.STRUCT, &d.encStats, &d.encStatsScratch, before, d.pageEncodingStats)
		case 14:
			m.BloomFilterOffset, err = d.optI64(s.t)
		case 15:
			m.BloomFilterLength, err = d.optI32(s.t)
		case 16:
			m.SizeStatistics = new(meta.SizeStatistics)
			err = d.sizeStatistics(s.t, m.SizeStatistics)
		case 17:
			m.GeospatialStatistics = new(meta.GeospatialStatistics)
			err = d.geospatialStatistics(s.t, m.GeospatialStatistics)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3, 4, 5, 6, 7, 9))
}

func (d *decoder) statistics(t thrift.TType, st *meta.Statistics) error {
	s := d.begin(t, statisticsFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			st.Max, err = d.binary(s.t)
			st.HasMax = err == nil
		case 2:
			st.Min, err = d.binary(s.t)
			st.HasMin = err == nil
		case 3:
			st.NullCount, err = d.optI64(s.t)
		case 4:
			st.DistinctCount, err = d.optI64(s.t)
		case 5:
			st.MaxValue, err = d.binary(s.t)
			st.HasMaxValue = err == nil
		case 6:
			st.MinValue, err = d.binary(s.t)
			st.HasMinValue = err == nil
		case 7:
			st.IsMaxValueExact, err = d.optBool(s.t)
		case 8:
			st.IsMinValueExact, err = d.optBool(s.t)
		case 9:
			st.NanCount, err = d.optI64(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) pageEncodingStats(es *meta.PageEncodingStats) error {
	s := d.beginBody(pageEncodingStatsFields)
	for s.next() {
		var err error
		var v int32
		switch s.id {
		case 1:
			v, err = d.i32(s.t)
			es.PageType = meta.PageType(v)
		case 2:
			v, err = d.i32(s.t)
			es.Encoding = meta.Encoding(v)
		case 3:
			es.Count, err = d.i32(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3))
}

func (d *decoder) sizeStatistics(t thrift.TType, ss *meta.SizeStatistics) error {
	s := d.begin(t, sizeStatisticsFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			ss.UnencodedByteArrayDataBytes, err = d.optI64(s.t)
		case 2:
			ss.RepetitionLevelHistogram, err = d.i64List(s.t)
		case 3:
			ss.DefinitionLevelHistogram, err = d.i64List(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) geospatialStatistics(t thrift.TType, g *meta.GeospatialStatistics) error {
	s := d.begin(t, geospatialStatisticsFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			g.BBox = new(meta.BoundingBox)
			err = d.boundingBox(s.t, g.BBox)
		case 2:
			g.GeospatialTypes, err = d.i32List(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(0)
}

func (d *decoder) boundingBox(t thrift.TType, bb *meta.BoundingBox) error {
	s := d.begin(t, boundingBoxFields)
	for s.next() {
		var err error
		switch s.id {
		case 1:
			bb.XMin, err = d.double(s.t)
		case 2:
			bb.XMax, err = d.double(s.t)
		case 3:
			bb.YMin, err = d.double(s.t)
		case 4:
			bb.YMax, err = d.double(s.t)
		case 5:
			bb.ZMin, err = d.optDouble(s.t)
		case 6:
			bb.ZMax, err = d.optDouble(s.t)
		case 7:
			bb.MMin, err = d.optDouble(s.t)
		case 8:
			bb.MMax, err = d.optDouble(s.t)
		default:
			err = s.skip()
		}
		s.done(err)
	}
	return s.end(ids(1, 2, 3, 4))
}
