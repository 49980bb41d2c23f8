package format

import (
	"encoding/binary"
	"unsafe"

	"github.com/pqsql/pqsql/format/meta"
)

// A dictionary of fixed-width numbers is its decompressed page: on a
// little-endian machine the PLAIN bytes of INT32, INT64, FLOAT and DOUBLE
// entries are the numbers themselves, so the dictionary's Values are a view
// of the page, read in place, rather than a copy of it. A chunk of unique
// int64s carries a dictionary of a megabyte, row group after row group; the
// page comes from the fetch pool, which outlives garbage collections, and
// goes back there once the dictionary's reader is closed (PageReader.Close)
// or its holder is done with it (ReleaseDictionary).

// littleEndian: this machine stores numbers as PLAIN encoding does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// viewWidth is the width of a value of type t when a dictionary of that
// type can be a view of its page; 0 when its values are decoded.
func viewWidth(t meta.Type) int {
	switch t {
	case meta.Int32, meta.Float:
		return 4
	case meta.Int64, meta.Double:
		return 8
	}
	return 0
}

// decodeDict decodes the n entries of a dictionary page, PLAIN-encoded in
// data, into v, an empty dictionary. owned says data is the decoder's own
// buffer, decompressed for this page; otherwise it is a view of bytes read,
// which numbers must not point into.
func decodeDict(v *Values, data []byte, n, width int, owned bool) error {
	w := viewWidth(v.Type)
	if w == 0 {
		err := decodePlain(v, data, n, width)
		if owned && !byteValues(v.Type) {
			// Booleans and INT96 are copied out of the page, which can
			// serve the next read.
			putFetchBuffer(data)
		}
		return err
	}
	if littleEndian && n > 0 && n <= len(data)/w {
		page := data
		if !owned {
			page = fetchBuffer(int64(n * w))
			copy(page, data)
		}
		if viewPage(v, page[:n*w], n, w) {
			v.page = page
			return nil
		}
		if !owned {
			putFetchBuffer(page)
		}
	}
	// A page too short for its values fails here, as any PLAIN page does.
	err := decodePlain(v, data, n, width)
	if owned {
		putFetchBuffer(data)
	}
	return err
}

// viewPage points v's values at b, n values of w bytes, when b is aligned
// for them; it reports whether it did.
func viewPage(v *Values, b []byte, n, w int) bool {
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%uintptr(w) != 0 {
		return false
	}
	switch v.Type {
	case meta.Int32:
		v.Int32 = unsafe.Slice((*int32)(p), n)
	case meta.Int64:
		v.Int64 = unsafe.Slice((*int64)(p), n)
	case meta.Float:
		v.Float = unsafe.Slice((*float32)(p), n)
	case meta.Double:
		v.Double = unsafe.Slice((*float64)(p), n)
	default:
		return false
	}
	return true
}

// releaseDict hands the page v is a view of back to the fetch pool; v is
// empty after. A dictionary of decoded values is left to the collector.
func releaseDict(v *Values) {
	if v.page == nil {
		return
	}
	putFetchBuffer(v.page)
	*v = Values{Type: v.Type}
}

// ReleaseDictionary says the caller is done with d, a dictionary
// ReadDictionary returned, and with every value it took from d without
// copying: the page d's numbers are read from may serve later reads. d is
// empty after when its storage was pooled; nil is ignored.
func ReleaseDictionary(d *Values) {
	if d != nil {
		releaseDict(d)
	}
}
