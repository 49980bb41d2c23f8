package thrift

import (
	"fmt"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/pqsql/pqsql/format/meta"
)

// DecodeFileMetaData decodes a file footer: the bytes between the start of
// the footer and its 4-byte length.
func DecodeFileMetaData(b []byte) (*meta.FileMetaData, error) {
	d := newDecoder(b)
	m := new(meta.FileMetaData)
	if err := d.readStructBody(fileMetaDataFields, ids(1, 2, 3, 4), d.fileMetaData(m)); err != nil {
		return nil, at(err, "FileMetaData")
	}
	return m, nil
}

// DecodeColumnMetaData decodes a serialized ColumnMetaData, as found
// (after decryption) in ColumnChunk.encrypted_column_metadata.
func DecodeColumnMetaData(b []byte) (*meta.ColumnMetaData, error) {
	d := newDecoder(b)
	m := new(meta.ColumnMetaData)
	if err := d.readStructBody(columnMetaDataFields, columnMetaDataRequired, d.columnMetaData(m)); err != nil {
		return nil, at(err, "ColumnMetaData")
	}
	return m, nil
}

func (d *decoder) fileMetaData(m *meta.FileMetaData) fieldFunc {
	return func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			m.Version, err = d.i32(t)
		case 2:
			m.Schema, err = readStructList(d, t, d.schemaElement)
		case 3:
			m.NumRows, err = d.i64(t)
		case 4:
			m.RowGroups, err = readStructList(d, t, d.rowGroup)
		case 5:
			m.KeyValueMetadata, err = readStructList(d, t, d.keyValue)
		case 6:
			m.CreatedBy, err = optString(d.str(t))
		case 7:
			m.ColumnOrders, err = readStructList(d, t, d.columnOrder)
		case 8:
			m.EncryptionAlgorithm = new(meta.EncryptionAlgorithm)
			err = d.encryptionAlgorithm(t, m.EncryptionAlgorithm)
		case 9:
			m.FooterSigningKeyMetadata, err = d.binary(t)
		default:
			return false, nil
		}
		return true, err
	}
}

func (d *decoder) keyValue(kv *meta.KeyValue) error {
	return d.readStructBody(keyValueFields, ids(1), func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			kv.Key, err = d.str(t)
		case 2:
			kv.Value, err = optString(d.str(t))
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) schemaElement(e *meta.SchemaElement) error {
	return d.readStructBody(schemaElementFields, ids(4), func(id int16, t thrift.TType) (known bool, err error) {
		var v int32
		switch id {
		case 1:
			if v, err = d.i32(t); err == nil {
				e.Type = ptr(meta.Type(v))
			}
		case 2:
			e.TypeLength, err = optI32(d.i32(t))
		case 3:
			if v, err = d.i32(t); err == nil {
				e.RepetitionType = ptr(meta.Repetition(v))
			}
		case 4:
			e.Name, err = d.str(t)
		case 5:
			e.NumChildren, err = optI32(d.i32(t))
		case 6:
			if v, err = d.i32(t); err == nil {
				e.ConvertedType = ptr(meta.ConvertedType(v))
			}
		case 7:
			e.Scale, err = optI32(d.i32(t))
		case 8:
			e.Precision, err = optI32(d.i32(t))
		case 9:
			e.FieldID, err = optI32(d.i32(t))
		case 10:
			e.LogicalType = new(meta.LogicalType)
			err = d.logicalType(t, e.LogicalType)
		default:
			return false, nil
		}
		return true, err
	})
}

func ptr[T any](v T) *T { return &v }

// The empty logical types carry no data; their members all point here.
var empty = &struct{}{}

func (d *decoder) logicalType(t thrift.TType, lt *meta.LogicalType) error {
	return d.union(t, logicalTypeFields, func(id int16, t thrift.TType) error {
		var member **struct{}
		switch id {
		case 1:
			member = &lt.String
		case 2:
			member = &lt.Map
		case 3:
			member = &lt.List
		case 4:
			member = &lt.Enum
		case 6:
			member = &lt.Date
		case 11:
			member = &lt.Null
		case 12:
			member = &lt.JSON
		case 13:
			member = &lt.BSON
		case 14:
			member = &lt.UUID
		case 15:
			member = &lt.Float16
		case 5:
			lt.Decimal = new(meta.DecimalType)
			return d.readStruct(t, decimalTypeFields, ids(1, 2), func(id int16, t thrift.TType) (known bool, err error) {
				switch id {
				case 1:
					lt.Decimal.Scale, err = d.i32(t)
				case 2:
					lt.Decimal.Precision, err = d.i32(t)
				default:
					return false, nil
				}
				return true, err
			})
		case 7:
			lt.Time = new(meta.TimeType)
			return d.timeType(t, &lt.Time.IsAdjustedToUTC, &lt.Time.Unit)
		case 8:
			lt.Timestamp = new(meta.TimestampType)
			return d.timeType(t, &lt.Timestamp.IsAdjustedToUTC, &lt.Timestamp.Unit)
		case 10:
			lt.Integer = new(meta.IntType)
			return d.readStruct(t, intTypeFields, ids(1, 2), func(id int16, t thrift.TType) (known bool, err error) {
				switch id {
				case 1:
					lt.Integer.BitWidth, err = d.i8(t)
				case 2:
					lt.Integer.IsSigned, err = d.bool(t)
				default:
					return false, nil
				}
				return true, err
			})
		case 16:
			lt.Variant = new(meta.VariantType)
			return d.readStruct(t, variantTypeFields, 0, func(id int16, t thrift.TType) (known bool, err error) {
				if id != 1 {
					return false, nil
				}
				lt.Variant.SpecificationVersion, err = optI8(d.i8(t))
				return true, err
			})
		case 17:
			lt.Geometry = new(meta.GeometryType)
			return d.readStruct(t, geometryTypeFields, 0, func(id int16, t thrift.TType) (known bool, err error) {
				if id != 1 {
					return false, nil
				}
				lt.Geometry.CRS, err = optString(d.str(t))
				return true, err
			})
		case 18:
			lt.Geography = new(meta.GeographyType)
			return d.readStruct(t, geographyTypeFields, 0, func(id int16, t thrift.TType) (known bool, err error) {
				switch id {
				case 1:
					lt.Geography.CRS, err = optString(d.str(t))
				case 2:
					var v int32
					if v, err = d.i32(t); err == nil {
						lt.Geography.Algorithm = ptr(meta.EdgeInterpolationAlgorithm(v))
					}
				default:
					return false, nil
				}
				return true, err
			})
		default:
			// A logical type newer than this reader: keep its id so the
			// column can be reported as unsupported rather than misread.
			lt.Unknown = id
			return d.skip(t)
		}
		*member = empty
		return d.emptyStruct(t)
	})
}

// timeType reads TimeType or TimestampType, which share their fields.
func (d *decoder) timeType(t thrift.TType, utc *bool, unit *meta.TimeUnit) error {
	return d.readStruct(t, timeTypeFields, ids(1, 2), func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			*utc, err = d.bool(t)
		case 2:
			err = d.union(t, timeUnitFields, func(id int16, t thrift.TType) error {
				// MILLIS, MICROS and NANOS are field ids 1 to 3, the values
				// of meta.TimeUnit. A newer unit keeps its id as the value,
				// which no caller recognises.
				if id < 1 || id > 127 {
					return fmt.Errorf("time unit field id %d out of range", id)
				}
				*unit = meta.TimeUnit(id)
				return d.emptyStruct(t)
			})
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) columnOrder(co *meta.ColumnOrder) error {
	return d.union(thrift.STRUCT, columnOrderFields, func(id int16, t thrift.TType) error {
		switch id {
		case 1:
			co.Kind = meta.TypeDefinedOrder
		case 2:
			co.Kind = meta.IEEE754TotalOrder
		default:
			// Any other order (INT96_TIMESTAMP_ORDER or newer) is unknown
			// here: min_value and max_value must then be ignored.
			co.Kind = meta.OrderUnknown
			co.UnknownField = id
			return d.skip(t)
		}
		return d.emptyStruct(t)
	})
}

func (d *decoder) encryptionAlgorithm(t thrift.TType, ea *meta.EncryptionAlgorithm) error {
	// The AES parameters (AAD prefix and file id) matter only to a
	// decryptor, which pqsql does not have; the struct bodies are skipped.
	return d.union(t, encryptionAlgorithmFields, func(id int16, t thrift.TType) error {
		switch id {
		case 1:
			ea.AesGcmV1 = true
		case 2:
			ea.AesGcmCtrV1 = true
		default:
			return d.skip(t)
		}
		return d.emptyStruct(t)
	})
}

func (d *decoder) rowGroup(rg *meta.RowGroup) error {
	return d.readStructBody(rowGroupFields, ids(1, 2, 3), func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			rg.Columns, err = readStructList(d, t, d.columnChunk)
		case 2:
			rg.TotalByteSize, err = d.i64(t)
		case 3:
			rg.NumRows, err = d.i64(t)
		case 4:
			rg.SortingColumns, err = readStructList(d, t, d.sortingColumn)
		case 5:
			rg.FileOffset, err = optI64(d.i64(t))
		case 6:
			rg.TotalCompressedSize, err = optI64(d.i64(t))
		case 7:
			rg.Ordinal, err = optI16(d.i16(t))
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) sortingColumn(sc *meta.SortingColumn) error {
	return d.readStructBody(sortingColumnFields, ids(1, 2, 3), func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			sc.ColumnIdx, err = d.i32(t)
		case 2:
			sc.Descending, err = d.bool(t)
		case 3:
			sc.NullsFirst, err = d.bool(t)
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) columnChunk(cc *meta.ColumnChunk) error {
	// file_offset is required but has a default of 0 in parquet.thrift and
	// is deprecated, so its absence is not an error.
	return d.readStructBody(columnChunkFields, 0, func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			cc.FilePath, err = optString(d.str(t))
		case 2:
			cc.FileOffset, err = d.i64(t)
		case 3:
			if err = wantType(t, thrift.STRUCT); err == nil {
				cc.MetaData = new(meta.ColumnMetaData)
				err = d.readStructBody(columnMetaDataFields, columnMetaDataRequired, d.columnMetaData(cc.MetaData))
			}
		case 4:
			cc.OffsetIndexOffset, err = optI64(d.i64(t))
		case 5:
			cc.OffsetIndexLength, err = optI32(d.i32(t))
		case 6:
			cc.ColumnIndexOffset, err = optI64(d.i64(t))
		case 7:
			cc.ColumnIndexLength, err = optI32(d.i32(t))
		case 8:
			cc.CryptoMetadata = new(meta.ColumnCryptoMetaData)
			err = d.columnCryptoMetaData(t, cc.CryptoMetadata)
		case 9:
			cc.EncryptedColumnMetadata, err = d.binary(t)
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) columnCryptoMetaData(t thrift.TType, c *meta.ColumnCryptoMetaData) error {
	return d.union(t, columnCryptoFields, func(id int16, t thrift.TType) error {
		switch id {
		case 1:
			c.FooterKey = true
			return d.emptyStruct(t)
		case 2:
			return d.readStruct(t, encryptionWithColumnKeyFields, ids(1), func(id int16, t thrift.TType) (known bool, err error) {
				switch id {
				case 1:
					c.PathInSchema, err = d.stringList(t)
				case 2:
					c.KeyMetadata, err = d.binary(t)
				default:
					return false, nil
				}
				return true, err
			})
		}
		return d.skip(t)
	})
}

var columnMetaDataRequired = ids(1, 2, 3, 4, 5, 6, 7, 9)

func (d *decoder) columnMetaData(m *meta.ColumnMetaData) fieldFunc {
	return func(id int16, t thrift.TType) (known bool, err error) {
		var v int32
		switch id {
		case 1:
			if v, err = d.i32(t); err == nil {
				m.Type = meta.Type(v)
			}
		case 2:
			m.Encodings, err = readList(d, t, thrift.I32, func(e *meta.Encoding) error {
				v, err := d.p.ReadI32(d.ctx)
				*e = meta.Encoding(v)
				return err
			})
		case 3:
			m.PathInSchema, err = d.stringList(t)
		case 4:
			if v, err = d.i32(t); err == nil {
				m.Codec = meta.CompressionCodec(v)
			}
		case 5:
			m.NumValues, err = d.i64(t)
		case 6:
			m.TotalUncompressedSize, err = d.i64(t)
		case 7:
			m.TotalCompressedSize, err = d.i64(t)
		case 8:
			m.KeyValueMetadata, err = readStructList(d, t, d.keyValue)
		case 9:
			m.DataPageOffset, err = d.i64(t)
		case 10:
			m.IndexPageOffset, err = optI64(d.i64(t))
		case 11:
			m.DictionaryPageOffset, err = optI64(d.i64(t))
		case 12:
			m.Statistics = new(meta.Statistics)
			err = d.statistics(t, m.Statistics)
		case 13:
			m.EncodingStats, err = readStructList(d, t, d.pageEncodingStats)
		case 14:
			m.BloomFilterOffset, err = optI64(d.i64(t))
		case 15:
			m.BloomFilterLength, err = optI32(d.i32(t))
		case 16:
			m.SizeStatistics = new(meta.SizeStatistics)
			err = d.sizeStatistics(t, m.SizeStatistics)
		case 17:
			m.GeospatialStatistics = new(meta.GeospatialStatistics)
			err = d.geospatialStatistics(t, m.GeospatialStatistics)
		default:
			return false, nil
		}
		return true, err
	}
}

func (d *decoder) statistics(t thrift.TType, s *meta.Statistics) error {
	return d.readStruct(t, statisticsFields, 0, func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			s.Max, err = d.binary(t)
			s.HasMax = err == nil
		case 2:
			s.Min, err = d.binary(t)
			s.HasMin = err == nil
		case 3:
			s.NullCount, err = optI64(d.i64(t))
		case 4:
			s.DistinctCount, err = optI64(d.i64(t))
		case 5:
			s.MaxValue, err = d.binary(t)
			s.HasMaxValue = err == nil
		case 6:
			s.MinValue, err = d.binary(t)
			s.HasMinValue = err == nil
		case 7:
			s.IsMaxValueExact, err = optBool(d.bool(t))
		case 8:
			s.IsMinValueExact, err = optBool(d.bool(t))
		case 9:
			s.NanCount, err = optI64(d.i64(t))
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) pageEncodingStats(s *meta.PageEncodingStats) error {
	return d.readStructBody(pageEncodingStatsFields, ids(1, 2, 3), func(id int16, t thrift.TType) (known bool, err error) {
		var v int32
		switch id {
		case 1:
			v, err = d.i32(t)
			s.PageType = meta.PageType(v)
		case 2:
			v, err = d.i32(t)
			s.Encoding = meta.Encoding(v)
		case 3:
			s.Count, err = d.i32(t)
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) sizeStatistics(t thrift.TType, s *meta.SizeStatistics) error {
	return d.readStruct(t, sizeStatisticsFields, 0, func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			s.UnencodedByteArrayDataBytes, err = optI64(d.i64(t))
		case 2:
			s.RepetitionLevelHistogram, err = d.i64List(t)
		case 3:
			s.DefinitionLevelHistogram, err = d.i64List(t)
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) geospatialStatistics(t thrift.TType, g *meta.GeospatialStatistics) error {
	return d.readStruct(t, geospatialStatisticsFields, 0, func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			g.BBox = new(meta.BoundingBox)
			err = d.boundingBox(t, g.BBox)
		case 2:
			g.GeospatialTypes, err = d.i32List(t)
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *decoder) boundingBox(t thrift.TType, bb *meta.BoundingBox) error {
	return d.readStruct(t, boundingBoxFields, ids(1, 2, 3, 4), func(id int16, t thrift.TType) (known bool, err error) {
		switch id {
		case 1:
			bb.XMin, err = d.double(t)
		case 2:
			bb.XMax, err = d.double(t)
		case 3:
			bb.YMin, err = d.double(t)
		case 4:
			bb.YMax, err = d.double(t)
		case 5:
			bb.ZMin, err = optDouble(d.double(t))
		case 6:
			bb.ZMax, err = optDouble(d.double(t))
		case 7:
			bb.MMin, err = optDouble(d.double(t))
		case 8:
			bb.MMax, err = optDouble(d.double(t))
		default:
			return false, nil
		}
		return true, err
	})
}
