package stats

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/pqsql/pqsql/format/internal/thrift"
	"github.com/pqsql/pqsql/format/meta"
)

// parquetFile is a file's bytes and decoded footer.
type parquetFile struct {
	data []byte
	md   *meta.FileMetaData
}

func readParquet(t testing.TB, path string) *parquetFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := len(data)
	if n < 12 || string(data[n-4:]) != "PAR1" {
		t.Fatalf("%s: not a Parquet file", path)
	}
	size := int(binary.LittleEndian.Uint32(data[n-8 : n-4]))
	if size > n-12 {
		t.Fatalf("%s: footer length %d exceeds the file", path, size)
	}
	md, err := thrift.DecodeFileMetaData(data[n-8-size : n-8])
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &parquetFile{data: data, md: md}
}

// columnIndex decodes a chunk's column index, or returns nil when it has none.
func (f *parquetFile) columnIndex(t testing.TB, rg, col int) *meta.ColumnIndex {
	t.Helper()
	cc := f.md.RowGroups[rg].Columns[col]
	if cc.ColumnIndexOffset == nil || cc.ColumnIndexLength == nil {
		return nil
	}
	off, n := *cc.ColumnIndexOffset, int64(*cc.ColumnIndexLength)
	if off < 0 || n < 0 || off+n > int64(len(f.data)) {
		t.Fatalf("column index of row group %d column %d lies outside the file", rg, col)
	}
	ci, err := thrift.DecodeColumnIndex(f.data[off : off+n])
	if err != nil {
		t.Fatalf("column index of row group %d column %d: %v", rg, col, err)
	}
	return ci
}

// roundTrip thrift-encodes a footer and decodes it again, as a reader would see it.
func roundTrip(t testing.TB, md *meta.FileMetaData) *meta.FileMetaData {
	t.Helper()
	b, err := thrift.EncodeFileMetaData(md)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	out, err := thrift.DecodeFileMetaData(b)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return out
}

func ptr[T any](v T) *T { return &v }
