package exec

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/sql"
)

// tableFunction produces the rows of the metadata table functions:
// what each file's footer says, file by file in the order matched, with
// DuckDB's values (its type names, its rendering of statistics).
func (x *executor) tableFunction(ctx context.Context, fn *planner.TableFunction) ([]*batch, error) {
	types := make([]Type, len(fn.Columns))
	for i, c := range fn.Columns {
		types[i] = c.Type
	}
	if fn.Series != nil {
		return seriesBatches(ctx, fn.Series) // series.go
	}
	var rows [][]planner.Datum
	switch fn.Name {
	case sql.SecretsFunction:
		rows = x.secretRows()
	case sql.SettingsFunction:
		rows = x.settingRows()
	}
	for _, path := range fn.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f, cs, closer, err := x.openCounted(path)
		if err != nil {
			return nil, err
		}
		x.keepMeter(cs)
		switch fn.Name {
		case "parquet_metadata":
			rows, err = appendMetadataRows(rows, path, f)
		case "parquet_schema":
			rows = appendSchemaRows(rows, path, f)
		case "parquet_file_metadata":
			rows = appendFileMetadataRows(rows, path, f)
		case "parquet_kv_metadata":
			rows = appendKVMetadataRows(rows, path, f)
		default:
			err = fmt.Errorf("%w: %s()", ErrNotImplemented, fn.Name)
		}
		st := cs.Stats()
		closer.Close()
		x.stats.Files++
		x.stats.IO.Bytes += st.Bytes
		x.stats.IO.Requests += st.Requests
		if err != nil {
			return nil, err
		}
	}
	var out []*batch
	for start := 0; start < len(rows); start += BatchSize {
		out = append(out, batchOfRows(rows[start:min(start+BatchSize, len(rows))], types))
	}
	return out, nil
}

func str(s string) planner.Datum   { return planner.Datum{S: s} }
func i64(v int64) planner.Datum    { return planner.Datum{I: v} }
func boolean(v bool) planner.Datum { return planner.Datum{B: v} }

func optI64(p *int64) planner.Datum {
	if p == nil {
		return planner.NullDatum
	}
	return i64(*p)
}

func optI32(p *int32) planner.Datum {
	if p == nil {
		return planner.NullDatum
	}
	return i64(int64(*p))
}

func optBool(p *bool) planner.Datum {
	if p == nil {
		return planner.NullDatum
	}
	return boolean(*p)
}

// enumText is a thrift enum as DuckDB's thrift prints it: its name, or its
// number when the name is unknown.
func enumText(name string, v int32) string {
	if strings.HasSuffix(name, ")") {
		return strconv.Itoa(int(v))
	}
	return name
}

// appendMetadataRows adds parquet_metadata's rows for one file: one per
// column chunk, row group by row group.
func appendMetadataRows(rows [][]planner.Datum, path string, f *format.File) ([][]planner.Datum, error) {
	leaves := f.Schema.Leaves
	for rgi := range f.Meta.RowGroups {
		rg := &f.Meta.RowGroups[rgi]
		if len(rg.Columns) < len(leaves) {
			return nil, fmt.Errorf("%w: %s: row group %d has %d columns, the schema %d leaves", ErrCorrupt, path, rgi, len(rg.Columns), len(leaves))
		}
		for ci, leaf := range leaves {
			cc := &rg.Columns[ci]
			md := cc.MetaData
			if md == nil {
				// DuckDB reads the absent metadata as thrift's defaults.
				md = &meta.ColumnMetaData{}
			}
			st := md.Statistics
			if st == nil {
				st = &meta.Statistics{}
			}
			r := make([]planner.Datum, 0, 31)
			r = append(r, str(path), i64(int64(rgi)), i64(rg.NumRows), i64(int64(len(rg.Columns))), i64(rg.TotalByteSize), i64(int64(ci)))
			if rg.FileOffset != nil {
				// DuckDB tests the row group's file_offset and shows the chunk's.
				r = append(r, i64(cc.FileOffset))
			} else {
				r = append(r, planner.NullDatum)
			}
			r = append(r, i64(md.NumValues), str(strings.Join(md.PathInSchema, ", ")), str(enumText(md.Type.String(), int32(md.Type))))
			for _, b := range []struct {
				set bool
				v   []byte
			}{{st.HasMin, st.Min}, {st.HasMax, st.Max}} {
				d, err := statText(leaf, b.set, b.v)
				if err != nil {
					return nil, err
				}
				r = append(r, d)
			}
			r = append(r, optI64(st.NullCount), optI64(st.DistinctCount))
			for _, b := range []struct {
				set bool
				v   []byte
			}{{st.HasMinValue, st.MinValue}, {st.HasMaxValue, st.MaxValue}} {
				d, err := statText(leaf, b.set, b.v)
				if err != nil {
					return nil, err
				}
				r = append(r, d)
			}
			encs := make([]string, len(md.Encodings))
			for i, e := range md.Encodings {
				encs[i] = enumText(e.String(), int32(e))
			}
			r = append(r, str(enumText(md.Codec.String(), int32(md.Codec))), str(strings.Join(encs, ", ")),
				optI64(md.IndexPageOffset), optI64(md.DictionaryPageOffset), i64(md.DataPageOffset),
				i64(md.TotalCompressedSize), i64(md.TotalUncompressedSize), planner.Datum{N: kvMap(md.KeyValueMetadata)},
				optI64(md.BloomFilterOffset), optI32(md.BloomFilterLength),
				optBool(st.IsMinValueExact), optBool(st.IsMaxValueExact), optI64(rg.TotalCompressedSize))
			bbox, types, err := geoStats(md.GeospatialStatistics)
			if err != nil {
				return nil, err
			}
			rows = append(rows, append(r, bbox, types))
		}
	}
	return rows, nil
}

// blobScalar is a BLOB value inside a nested value.
func blobScalar(b []byte) format.Value {
	return format.Scalar{Logical: format.Logical{Kind: format.KindBlob}, Values: &format.Values{Type: meta.ByteArray, Bytes: [][]byte{b}}}
}

// kvMap is a column chunk's key/value metadata as a MAP(BLOB, BLOB).
func kvMap(kvs []meta.KeyValue) *format.Map {
	m := &format.Map{}
	for _, kv := range kvs {
		v := ""
		if kv.Value != nil {
			v = *kv.Value
		}
		m.Keys = append(m.Keys, blobScalar([]byte(kv.Key)))
		m.Values = append(m.Values, blobScalar([]byte(v)))
	}
	return m
}

// geometryNames are the geometry types of the Parquet spec, codes 1 to 7.
var geometryNames = []string{"point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection"}

// geoStats renders a chunk's geospatial statistics as DuckDB's geo_bbox
// STRUCT and geo_types list (NULL when absent).
func geoStats(g *meta.GeospatialStatistics) (bbox, types planner.Datum, err error) {
	bbox, types = planner.NullDatum, planner.NullDatum
	if g == nil {
		return bbox, types, nil
	}
	if b := g.BBox; b != nil {
		s := &format.Struct{}
		for i, v := range []*float64{&b.XMin, &b.XMax, &b.YMin, &b.YMax, b.ZMin, b.ZMax, b.MMin, b.MMax} {
			s.Fields = append(s.Fields, &format.Field{Name: planner.GeoBBoxFields[i]})
			if v == nil {
				s.Values = append(s.Values, nil)
				continue
			}
			s.Values = append(s.Values, format.Scalar{Logical: format.Logical{Kind: format.KindDouble},
				Values: &format.Values{Type: meta.Double, Double: []float64{*v}}})
		}
		bbox = planner.Datum{N: s}
	}
	if g.GeospatialTypes != nil {
		// DuckDB lists the set of types by dimension (XY, Z, M, ZM), then code.
		var seen [4][8]bool
		for _, t := range g.GeospatialTypes {
			geom, vert := t%1000, t/1000
			if geom < 1 || geom > 7 {
				return bbox, types, fmt.Errorf("%w: Unsupported geometry type in Parquet geo metadata", planner.ErrInvalidInput)
			}
			if vert < 0 || vert > 3 {
				return bbox, types, fmt.Errorf("%w: Unsupported geometry vertex type in Parquet geo metadata", planner.ErrInvalidInput)
			}
			seen[vert][geom] = true
		}
		list := format.List{}
		for vert, suffix := range []string{"", "_z", "_m", "_zm"} {
			for geom := 1; geom <= 7; geom++ {
				if seen[vert][geom] {
					name := geometryNames[geom-1] + suffix
					list = append(list, format.Scalar{Logical: format.Logical{Kind: format.KindString},
						Values: &format.Values{Type: meta.ByteArray, Bytes: [][]byte{[]byte(name)}}})
				}
			}
		}
		types = planner.Datum{N: list}
	}
	return bbox, types, nil
}

// statText renders a statistics bound as DuckDB's parquet_metadata does:
// the PLAIN bytes read as the column's SQL type and cast to VARCHAR. A
// value the type cannot hold (a float that is not finite, a decimal wider
// than its precision, an integer outside a narrow type) is NULL; a bound
// of the wrong size is an error, as in DuckDB.
func statText(leaf *format.Leaf, set bool, v []byte) (planner.Datum, error) {
	if !set {
		return planner.NullDatum, nil
	}
	t := schemaTypeOf(leaf)
	lg := format.LogicalOf(leaf)
	sizeErr := func(name string) (planner.Datum, error) {
		return planner.Datum{}, fmt.Errorf("%w: Incorrect stats size for type %s", planner.ErrInvalidInput, name)
	}
	var d planner.Datum
	switch t.ID {
	case TypeBoolean:
		if len(v) != 1 {
			return sizeErr("BOOLEAN")
		}
		d.B = v[0] != 0
	case TypeUTinyInt, TypeUSmallInt, TypeUInteger:
		if len(v) != 4 {
			return sizeErr("UINTEGER")
		}
		d.I = int64(binary.LittleEndian.Uint32(v))
	case TypeUBigInt:
		if len(v) != 8 {
			return sizeErr("UBIGINT")
		}
		d.I = int64(binary.LittleEndian.Uint64(v))
	case TypeTinyInt, TypeSmallInt, TypeInteger:
		if len(v) != 4 {
			return sizeErr("INTEGER")
		}
		d.I = int64(int32(binary.LittleEndian.Uint32(v)))
	case TypeBigInt:
		if len(v) != 8 {
			return sizeErr("BIGINT")
		}
		d.I = int64(binary.LittleEndian.Uint64(v))
	case TypeFloat:
		var f float64
		if lg.Kind == format.KindFloat16 {
			if len(v) != 2 {
				return sizeErr("FLOAT16")
			}
			f = float64(format.Float16(v))
		} else {
			if len(v) != 4 {
				return sizeErr("FLOAT")
			}
			f = float64(math.Float32frombits(binary.LittleEndian.Uint32(v)))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return planner.NullDatum, nil
		}
		d.F = f
	case TypeDouble:
		var f float64
		if lg.Precision > 0 && (leaf.Type == meta.ByteArray || leaf.Type == meta.FixedLenByteArray) {
			// A decimal DuckDB reads as DOUBLE. The scale comes from the
			// file and may be huge: math.Pow10 saturates, big.Int.Exp would not.
			u, _ := new(big.Float).SetInt(twos(v)).Float64()
			f = u / math.Pow10(lg.Scale)
		} else {
			if len(v) != 8 {
				return sizeErr("DOUBLE")
			}
			f = math.Float64frombits(binary.LittleEndian.Uint64(v))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return planner.NullDatum, nil
		}
		d.F = f
	case TypeDecimal:
		var u *big.Int
		switch leaf.Type {
		case meta.Int32:
			if len(v) != 4 {
				return sizeErr(t.String())
			}
			u = big.NewInt(int64(int32(binary.LittleEndian.Uint32(v))))
		case meta.Int64:
			if len(v) != 8 {
				return sizeErr(t.String())
			}
			u = big.NewInt(int64(binary.LittleEndian.Uint64(v)))
		default:
			u = twos(v)
		}
		limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Precision)), nil)
		if new(big.Int).Abs(u).Cmp(limit) >= 0 {
			return planner.NullDatum, nil
		}
		return str(string(format.AppendDecimal(nil, u, t.Scale))), nil
	case TypeVarchar, TypeBlob:
		if t.ID == TypeBlob || !utf8.Valid(v) {
			return str(string(format.AppendBlob(nil, v))), nil
		}
		return str(string(v)), nil
	case TypeDate:
		if len(v) != 4 {
			return sizeErr("DATE")
		}
		d.I = int64(int32(binary.LittleEndian.Uint32(v)))
	case TypeTime, TypeTimeTZ:
		var n int64
		switch len(v) {
		case 4:
			n = int64(int32(binary.LittleEndian.Uint32(v)))
		case 8:
			n = int64(binary.LittleEndian.Uint64(v))
		default:
			if t.ID == TypeTimeTZ {
				return sizeErr("TIMETZ")
			}
			return sizeErr("TIME")
		}
		switch lg.Unit {
		case meta.Millis:
			n *= 1000
		case meta.Nanos:
			if t.ID == TypeTimeTZ {
				n /= 1000
			}
		}
		d.I = n
	case TypeTimeNS:
		if len(v) != 8 {
			return sizeErr("TIME_NS")
		}
		d.I = int64(binary.LittleEndian.Uint64(v))
	case TypeTimestamp, TypeTimestampTZ:
		if lg.Kind == format.KindInt96 {
			if len(v) != 12 {
				return sizeErr("TIMESTAMP")
			}
			var b [12]byte
			copy(b[:], v)
			d.I = format.Int96Micros(b)
			break
		}
		if len(v) != 8 {
			return sizeErr("TIMESTAMP")
		}
		d.I = int64(binary.LittleEndian.Uint64(v))
		switch lg.Unit {
		case meta.Millis:
			d.I *= 1000
		case meta.Nanos:
			d.I = planner.MicrosOfNanosTZ(d.I)
		}
	case TypeTimestampNS:
		if len(v) != 8 {
			return sizeErr("TIMESTAMP_NS")
		}
		d.I = int64(binary.LittleEndian.Uint64(v))
	case TypeUUID:
		if len(v) != 16 {
			return sizeErr("UUID")
		}
		d.Bytes = v
	default:
		return planner.Datum{}, fmt.Errorf("%w: Unsupported type for stats %s", planner.ErrInvalidInput, t)
	}
	// DuckDB reads narrow integers wide and casts them back: a bound
	// outside the type is NULL.
	if lo, hi, ok := narrowRange(t.ID); ok && (d.I < lo || d.I > hi) {
		return planner.NullDatum, nil
	}
	return str(string(planner.AppendText(nil, d, t))), nil
}

// narrowRange is the range of the integer types DuckDB reads through a
// wider one.
func narrowRange(id planner.TypeID) (lo, hi int64, ok bool) {
	switch id {
	case TypeTinyInt:
		return math.MinInt8, math.MaxInt8, true
	case TypeSmallInt:
		return math.MinInt16, math.MaxInt16, true
	case TypeUTinyInt:
		return 0, math.MaxUint8, true
	case TypeUSmallInt:
		return 0, math.MaxUint16, true
	}
	return 0, 0, false
}

// twos reads big-endian two's complement bytes.
func twos(b []byte) *big.Int {
	n := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return n
}

// appendSchemaRows adds parquet_schema's rows for one file: one per
// schema element, the root included, in the footer's order.
func appendSchemaRows(rows [][]planner.Datum, path string, f *format.File) [][]planner.Datum {
	leafOf := map[*meta.SchemaElement]*format.Leaf{}
	for _, l := range f.Schema.Leaves {
		leafOf[l.Element] = l
	}
	for i := range f.Meta.Schema {
		e := &f.Meta.Schema[i]
		r := make([]planner.Datum, 0, 13)
		r = append(r, str(path), str(e.Name))
		if e.Type != nil {
			r = append(r, str(enumText(e.Type.String(), int32(*e.Type))))
		} else {
			r = append(r, planner.NullDatum)
		}
		if e.TypeLength != nil {
			r = append(r, str(strconv.Itoa(int(*e.TypeLength))))
		} else {
			r = append(r, planner.NullDatum)
		}
		if e.RepetitionType != nil {
			r = append(r, str(enumText(e.RepetitionType.String(), int32(*e.RepetitionType))))
		} else {
			r = append(r, planner.NullDatum)
		}
		r = append(r, optI32(e.NumChildren))
		if e.ConvertedType != nil {
			r = append(r, str(enumText(e.ConvertedType.String(), int32(*e.ConvertedType))))
		} else {
			r = append(r, planner.NullDatum)
		}
		r = append(r, optI32(e.Scale), optI32(e.Precision), optI32(e.FieldID), logicalTypeText(e.LogicalType))
		duck := planner.NullDatum
		if e.Type != nil {
			leaf := leafOf[e]
			if leaf == nil {
				leaf = &format.Leaf{Element: e, Type: *e.Type}
				if e.TypeLength != nil {
					leaf.TypeLength = int(*e.TypeLength)
				}
			}
			duck = str(schemaTypeOf(leaf).String())
		}
		rows = append(rows, append(r, duck, i64(int64(i))))
	}
	return rows
}

// schemaTypeOf is the type DuckDB derives from a leaf's schema element
// alone: as a scan reads it, except that GEOMETRY and GEOGRAPHY (which
// DuckDB recognizes only from the file's GeoParquet metadata) are BLOB and
// the UNKNOWN (null) annotation is DuckDB's "NULL" type.
func schemaTypeOf(leaf *format.Leaf) Type {
	switch format.LogicalOf(leaf).Kind {
	case format.KindGeometry, format.KindGeography:
		return Type{ID: TypeBlob}
	case format.KindNull:
		return Type{ID: TypeNull}
	}
	return planner.TypeOf(&format.Field{Kind: format.ScalarField, Leaf: leaf})
}

// timeUnitText prints a TimeUnit union as DuckDB's thrift does.
func timeUnitText(u meta.TimeUnit) string {
	parts := []string{"MILLIS=<null>", "MICROS=<null>", "NANOS=<null>"}
	switch u {
	case meta.Millis:
		parts[0] = "MILLIS=MilliSeconds()"
	case meta.Micros:
		parts[1] = "MICROS=MicroSeconds()"
	case meta.Nanos:
		parts[2] = "NANOS=NanoSeconds()"
	}
	return "TimeUnit(" + strings.Join(parts, ", ") + ")"
}

// thriftBool and thriftByte print as C++ streams print bool and int8_t: a
// digit, and the byte itself.
func thriftBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// logicalTypeText prints a LogicalType as DuckDB's parquet_schema does:
// thrift's printTo of the member that is set, NULL for VARIANT and for
// members DuckDB does not know.
func logicalTypeText(lt *meta.LogicalType) planner.Datum {
	if lt == nil {
		return planner.NullDatum
	}
	var s string
	switch {
	case lt.String != nil:
		s = "StringType()"
	case lt.Map != nil:
		s = "MapType()"
	case lt.List != nil:
		s = "ListType()"
	case lt.Enum != nil:
		s = "EnumType()"
	case lt.Decimal != nil:
		s = fmt.Sprintf("DecimalType(scale=%d, precision=%d)", lt.Decimal.Scale, lt.Decimal.Precision)
	case lt.Date != nil:
		s = "DateType()"
	case lt.Time != nil:
		s = "TimeType(isAdjustedToUTC=" + thriftBool(lt.Time.IsAdjustedToUTC) + ", unit=" + timeUnitText(lt.Time.Unit) + ")"
	case lt.Timestamp != nil:
		s = "TimestampType(isAdjustedToUTC=" + thriftBool(lt.Timestamp.IsAdjustedToUTC) + ", unit=" + timeUnitText(lt.Timestamp.Unit) + ")"
	case lt.Integer != nil:
		// bitWidth is an int8_t, which a C++ stream prints as a character.
		s = "IntType(bitWidth=" + string([]byte{byte(lt.Integer.BitWidth)}) + ", isSigned=" + thriftBool(lt.Integer.IsSigned) + ")"
	case lt.Null != nil:
		s = "NullType()"
	case lt.JSON != nil:
		s = "JsonType()"
	case lt.BSON != nil:
		s = "BsonType()"
	case lt.UUID != nil:
		s = "UUIDType()"
	case lt.Float16 != nil:
		s = "Float16Type()"
	case lt.Geometry != nil:
		s = "GeometryType(crs=" + optString(lt.Geometry.CRS) + ")"
	case lt.Geography != nil:
		alg := "<null>"
		if a := lt.Geography.Algorithm; a != nil {
			alg = enumText(a.String(), int32(*a))
		}
		s = "GeographyType(crs=" + optString(lt.Geography.CRS) + ", algorithm=" + alg + ")"
	default:
		return planner.NullDatum
	}
	return str(s)
}

func optString(p *string) string {
	if p == nil {
		return "<null>"
	}
	return *p
}
