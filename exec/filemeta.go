package exec

import (
	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
)

// appendFileMetadataRows adds parquet_file_metadata's row for one file:
// what its footer says about the whole file, with DuckDB's rendering.
func appendFileMetadataRows(rows [][]planner.Datum, path string, f *format.File) [][]planner.Datum {
	md := f.Meta
	createdBy := planner.NullDatum
	if md.CreatedBy != nil {
		createdBy = str(*md.CreatedBy)
	}
	encryption, signing := planner.NullDatum, planner.NullDatum
	if a := md.EncryptionAlgorithm; a != nil {
		// DuckDB prints the thrift union as its printTo does.
		switch {
		case a.AesGcmV1:
			encryption = str("EncryptionAlgorithm(AES_GCM_V1=AesGcmV1())")
		case a.AesGcmCtrV1:
			encryption = str("EncryptionAlgorithm(AES_GCM_CTR_V1=AesGcmCtrV1())")
		default:
			encryption = str("EncryptionAlgorithm()")
		}
	}
	if md.FooterSigningKeyMetadata != nil {
		signing = str(string(md.FooterSigningKeyMetadata))
	}
	orders := planner.NullDatum
	if md.ColumnOrders != nil {
		list := format.List{}
		for _, o := range md.ColumnOrders {
			list = append(list, stringScalar(columnOrderText(o)))
		}
		orders = planner.Datum{N: list}
	}
	return append(rows, []planner.Datum{
		str(path), createdBy, i64(md.NumRows), i64(int64(len(md.RowGroups))), i64(int64(md.Version)),
		encryption, signing, i64(f.Source.Size()), i64(f.FooterSize - 8), orders,
	})
}

// columnOrderText is one ColumnOrder as thrift's printTo writes it, the
// text DuckDB shows.
func columnOrderText(o meta.ColumnOrder) string {
	switch o.Kind {
	case meta.TypeDefinedOrder:
		return "ColumnOrder(TYPE_ORDER=TypeDefinedOrder())"
	case meta.IEEE754TotalOrder:
		return "ColumnOrder(IEEE_754_TOTAL_ORDER=IEEE754TotalOrder())"
	}
	return "ColumnOrder()"
}

// appendKVMetadataRows adds parquet_kv_metadata's rows for one file: one
// per key/value entry of its footer, in the order written.
func appendKVMetadataRows(rows [][]planner.Datum, path string, f *format.File) [][]planner.Datum {
	for _, kv := range f.Meta.KeyValueMetadata {
		v := planner.NullDatum
		if kv.Value != nil {
			v = planner.Datum{Bytes: []byte(*kv.Value)}
		}
		rows = append(rows, []planner.Datum{str(path), {Bytes: []byte(kv.Key)}, v})
	}
	return rows
}

// stringScalar is a VARCHAR value inside a nested value.
func stringScalar(s string) format.Value {
	return format.Scalar{Logical: format.Logical{Kind: format.KindString}, Values: &format.Values{Type: meta.ByteArray, Bytes: [][]byte{[]byte(s)}}}
}
