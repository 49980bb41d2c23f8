package stats

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/pqsql/pqsql/format/meta"
)

// Kind names one of the comparators a leaf can have.
type Kind int8

// The comparators. KindNone is a leaf without a defined order.
const (
	KindNone         Kind = iota
	KindBool              // 1 byte, false < true
	KindInt32             // 4-byte little-endian, signed
	KindUint32            // 4-byte little-endian, unsigned
	KindInt64             // 8-byte little-endian, signed
	KindUint64            // 8-byte little-endian, unsigned
	KindFloat32           // IEEE 754 binary32, little-endian
	KindFloat64           // IEEE 754 binary64, little-endian
	KindFloat16           // IEEE 754 binary16, 2-byte little-endian FIXED_LEN_BYTE_ARRAY
	KindBytes             // byte-wise, each byte unsigned; shorter prefix first
	KindDecimalBytes      // big-endian two's complement of any length
)

var kindNames = [...]string{
	KindNone:         "no order",
	KindBool:         "false before true",
	KindInt32:        "signed 32-bit integers",
	KindUint32:       "unsigned 32-bit integers",
	KindInt64:        "signed 64-bit integers",
	KindUint64:       "unsigned 64-bit integers",
	KindFloat32:      "32-bit floats by value",
	KindFloat64:      "64-bit floats by value",
	KindFloat16:      "16-bit floats by value",
	KindBytes:        "unsigned bytes",
	KindDecimalBytes: "decimals as big-endian two's complement",
}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// IsFloat reports whether the kind is one of the IEEE 754 float kinds, whose
// values may be NaN.
func (k Kind) IsFloat() bool { return k == KindFloat32 || k == KindFloat64 || k == KindFloat16 }

// Signed reports whether the deprecated Statistics.min/max, which writers
// computed with signed comparison, follow this order: true for the signed
// integers, floats and booleans, false for unsigned integers and every byte
// array (where old writers compared bytes as Java's signed byte).
func (k Kind) Signed() bool {
	switch k {
	case KindBool, KindInt32, KindInt64, KindFloat32, KindFloat64:
		return true
	}
	return false
}

// An Order compares two values of one leaf column, each in PLAIN physical
// form: 4- or 8-byte little-endian integers and floats, raw bytes for
// BYTE_ARRAY (no length prefix) and FIXED_LEN_BYTE_ARRAY, one byte 0 or 1 for
// BOOLEAN, 2-byte little-endian binary16 for FLOAT16.
//
// Floats compare as SQL (DuckDB) compares them: by value, so -0 equals +0,
// and NaN equals NaN and sorts above every number. The zero Order has no
// order (KindNone).
type Order struct {
	kind    Kind
	width   int   // FIXED_LEN_BYTE_ARRAY length; 0 for variable or fixed-width numbers
	scale   int32 // DECIMAL scale
	decimal bool  // the leaf is a DECIMAL (in any physical type)
	// lt and ct are the leaf's annotation, named by Name: the order is
	// chosen for every page of a page index, and its name is rarely asked.
	lt *meta.LogicalType
	ct *meta.ConvertedType
}

// Kind returns the comparator's kind.
func (o Order) Kind() Kind { return o.kind }

// Name says, for a user, how values are compared, e.g. "unsigned 32-bit
// integers (UINT_32)".
func (o Order) Name() string {
	if ann := annotationName(o.lt, o.ct); ann != "" {
		return o.kind.String() + " (" + ann + ")"
	}
	return o.kind.String()
}

// Width is the fixed byte length of a FIXED_LEN_BYTE_ARRAY leaf's values, or 0.
func (o Order) Width() int { return o.width }

// Decimal reports whether the leaf is a DECIMAL and, if so, its scale.
func (o Order) Decimal() (scale int32, ok bool) { return o.scale, o.decimal }

// Defined reports whether the order compares anything (kind is not KindNone).
func (o Order) Defined() bool { return o.kind != KindNone }

// OrderOf chooses the comparator of a leaf from its physical type and its
// logical (else converted) annotation. A leaf without a defined order gets
// ok=false and a reason a user can read.
func OrderOf(leaf *meta.SchemaElement) (o Order, ok bool, why string) {
	if leaf == nil || leaf.Type == nil {
		return Order{}, false, "the schema gives this column no physical type"
	}
	t := *leaf.Type
	lt := leaf.LogicalType
	var ct *meta.ConvertedType
	if lt == nil {
		ct = leaf.ConvertedType // the logical type supersedes the converted type when both are set
	}
	width := 0
	if t == meta.FixedLenByteArray {
		if leaf.TypeLength == nil || *leaf.TypeLength <= 0 {
			return Order{}, false, "FIXED_LEN_BYTE_ARRAY without a positive type_length"
		}
		width = int(*leaf.TypeLength)
	}
	none := func(reason string) (Order, bool, string) { return Order{}, false, reason }

	// Annotations that leave values without an order.
	if lt != nil {
		switch {
		case lt.Unknown != 0:
			return none(fmt.Sprintf("its logical type (thrift union field %d) is unknown to this reader, so the order of its values is unknown", lt.Unknown))
		case lt.Geometry != nil:
			return none("GEOMETRY values have no sort order (their bounds are a bounding box, not min/max)")
		case lt.Geography != nil:
			return none("GEOGRAPHY values have no sort order (their bounds are a bounding box, not min/max)")
		case lt.Variant != nil, lt.Map != nil, lt.List != nil:
			return none("a VARIANT, MAP or LIST annotation on a leaf has no sort order")
		}
	}
	if ct != nil {
		switch *ct {
		case meta.ConvInterval:
			return none("INTERVAL values have no sort order (months, days and milliseconds do not compare as one number)")
		case meta.ConvMap, meta.ConvList, meta.ConvMapKeyValue:
			return none("a MAP or LIST annotation on a leaf has no sort order")
		}
	}

	unsigned := false
	if lt != nil && lt.Integer != nil && !lt.Integer.IsSigned {
		unsigned = true
	}
	if ct != nil && (*ct == meta.ConvUint8 || *ct == meta.ConvUint16 || *ct == meta.ConvUint32 || *ct == meta.ConvUint64) {
		unsigned = true
	}
	decimal := (lt != nil && lt.Decimal != nil) || (ct != nil && *ct == meta.ConvDecimal)
	var scale int32
	if decimal {
		switch {
		case lt != nil && lt.Decimal != nil:
			scale = lt.Decimal.Scale
		case leaf.Scale != nil:
			scale = *leaf.Scale
		}
	}
	mk := func(k Kind) (Order, bool, string) {
		return Order{kind: k, width: width, scale: scale, decimal: decimal, lt: lt, ct: ct}, true, ""
	}

	switch t {
	case meta.Boolean:
		return mk(KindBool)
	case meta.Int32:
		if unsigned {
			return mk(KindUint32)
		}
		return mk(KindInt32)
	case meta.Int64:
		if unsigned {
			return mk(KindUint64)
		}
		return mk(KindInt64)
	case meta.Int96:
		return none("INT96 (legacy timestamps) has no sort order that statistics may use")
	case meta.Float:
		return mk(KindFloat32)
	case meta.Double:
		return mk(KindFloat64)
	case meta.ByteArray, meta.FixedLenByteArray:
		if lt != nil && lt.Float16 != nil {
			if t != meta.FixedLenByteArray || width != 2 {
				return none("FLOAT16 must be a FIXED_LEN_BYTE_ARRAY of length 2")
			}
			return mk(KindFloat16)
		}
		if decimal {
			return mk(KindDecimalBytes)
		}
		return mk(KindBytes)
	}
	return none(fmt.Sprintf("physical type %v is unknown to this reader", t))
}

func annotationName(lt *meta.LogicalType, ct *meta.ConvertedType) string {
	if lt != nil {
		switch {
		case lt.String != nil:
			return "STRING"
		case lt.Enum != nil:
			return "ENUM"
		case lt.JSON != nil:
			return "JSON"
		case lt.BSON != nil:
			return "BSON"
		case lt.UUID != nil:
			return "UUID"
		case lt.Float16 != nil:
			return "FLOAT16"
		case lt.Date != nil:
			return "DATE"
		case lt.Time != nil:
			return "TIME"
		case lt.Timestamp != nil:
			return "TIMESTAMP"
		case lt.Null != nil:
			return "UNKNOWN (always null)"
		case lt.Decimal != nil:
			return fmt.Sprintf("DECIMAL(%d,%d)", lt.Decimal.Precision, lt.Decimal.Scale)
		case lt.Integer != nil:
			if lt.Integer.IsSigned {
				return fmt.Sprintf("INTEGER(%d, signed)", lt.Integer.BitWidth)
			}
			return fmt.Sprintf("INTEGER(%d, unsigned)", lt.Integer.BitWidth)
		}
		return ""
	}
	if ct != nil {
		return ct.String()
	}
	return ""
}

// Valid checks that v has the length the column's physical type needs, so
// that Compare reads it as intended.
func (o Order) Valid(v []byte) error {
	want := 0
	switch o.kind {
	case KindNone:
		return ErrNoOrder
	case KindBool:
		if len(v) == 1 && v[0] <= 1 {
			return nil
		}
		return fmt.Errorf("%w: a BOOLEAN is 1 byte holding 0 or 1, found %d bytes", ErrBadValue, len(v))
	case KindInt32, KindUint32, KindFloat32:
		want = 4
	case KindInt64, KindUint64, KindFloat64:
		want = 8
	case KindFloat16:
		want = 2
	case KindBytes, KindDecimalBytes:
		want = o.width // 0: any length
	}
	if want != 0 && len(v) != want {
		return fmt.Errorf("%w: expected %d bytes for %s, found %d", ErrBadValue, want, o.kind, len(v))
	}
	return nil
}

// Compare returns -1, 0 or +1 as a sorts before, equal to or after b. Values
// must be Valid; invalid ones compare deterministically without panicking.
func (o Order) Compare(a, b []byte) int {
	switch o.kind {
	case KindBool:
		return cmpUnsignedBytes(a, b)
	case KindInt32:
		if len(a) == 4 && len(b) == 4 {
			return cmp3(int32(binary.LittleEndian.Uint32(a)), int32(binary.LittleEndian.Uint32(b)))
		}
	case KindUint32:
		if len(a) == 4 && len(b) == 4 {
			return cmp3(binary.LittleEndian.Uint32(a), binary.LittleEndian.Uint32(b))
		}
	case KindInt64:
		if len(a) == 8 && len(b) == 8 {
			return cmp3(int64(binary.LittleEndian.Uint64(a)), int64(binary.LittleEndian.Uint64(b)))
		}
	case KindUint64:
		if len(a) == 8 && len(b) == 8 {
			return cmp3(binary.LittleEndian.Uint64(a), binary.LittleEndian.Uint64(b))
		}
	case KindFloat32, KindFloat64, KindFloat16:
		x, okA := o.float(a)
		y, okB := o.float(b)
		if okA && okB {
			return CompareFloat(x, y)
		}
	case KindBytes:
		return cmpUnsignedBytes(a, b)
	case KindDecimalBytes:
		return cmpBigEndianSigned(a, b)
	}
	// Invalid input or no order: fall back to a total order on the bytes.
	if c := cmp3(len(a), len(b)); c != 0 {
		return c
	}
	return bytes.Compare(a, b)
}

// IsNaN reports whether v is a NaN of a float column; always false for other kinds.
func (o Order) IsNaN(v []byte) bool {
	if !o.kind.IsFloat() {
		return false
	}
	f, ok := o.float(v)
	return ok && math.IsNaN(f)
}

// negative reports whether a float value has its sign bit set (so -0 and -NaN are negative).
func (o Order) negative(v []byte) bool {
	if !o.kind.IsFloat() || len(v) == 0 {
		return false
	}
	return v[len(v)-1]&0x80 != 0
}

// isZero reports whether a float value is -0 or +0.
func (o Order) isZero(v []byte) bool {
	f, ok := o.float(v)
	return ok && f == 0
}

// float decodes a float column's value, widening binary16 and binary32 exactly.
func (o Order) float(v []byte) (float64, bool) {
	switch o.kind {
	case KindFloat32:
		if len(v) == 4 {
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(v))), true
		}
	case KindFloat64:
		if len(v) == 8 {
			return math.Float64frombits(binary.LittleEndian.Uint64(v)), true
		}
	case KindFloat16:
		if len(v) == 2 {
			return Float16(binary.LittleEndian.Uint16(v)), true
		}
	}
	return 0, false
}

// Format renders a valid value for a user: integers in decimal, decimals with
// their scale, floats in shortest form, strings quoted, other bytes in hex.
func (o Order) Format(v []byte) string {
	if o.Valid(v) != nil {
		return fmt.Sprintf("<%d bytes: %x>", len(v), v)
	}
	switch o.kind {
	case KindBool:
		return strconv.FormatBool(v[0] == 1)
	case KindInt32:
		n := int64(int32(binary.LittleEndian.Uint32(v)))
		if o.decimal {
			return formatDecimal(big.NewInt(n), o.scale)
		}
		return strconv.FormatInt(n, 10)
	case KindUint32:
		return strconv.FormatUint(uint64(binary.LittleEndian.Uint32(v)), 10)
	case KindInt64:
		n := int64(binary.LittleEndian.Uint64(v))
		if o.decimal {
			return formatDecimal(big.NewInt(n), o.scale)
		}
		return strconv.FormatInt(n, 10)
	case KindUint64:
		return strconv.FormatUint(binary.LittleEndian.Uint64(v), 10)
	case KindFloat32, KindFloat64, KindFloat16:
		f, _ := o.float(v)
		bits := 64
		if o.kind == KindFloat32 {
			bits = 32
		}
		if math.IsNaN(f) && o.negative(v) {
			return "-NaN"
		}
		if f == 0 && o.negative(v) {
			return "-0"
		}
		return strconv.FormatFloat(f, 'g', -1, bits)
	case KindDecimalBytes:
		return formatDecimal(bigFromTwos(v), o.scale)
	case KindBytes:
		if utf8.Valid(v) {
			return strconv.Quote(string(v))
		}
		return "0x" + fmt.Sprintf("%x", v)
	}
	return fmt.Sprintf("%x", v)
}

func formatDecimal(unscaled *big.Int, scale int32) string {
	s := unscaled.String()
	if scale <= 0 || scale > 1000 {
		return s
	}
	neg := false
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	for len(s) <= int(scale) {
		s = "0" + s
	}
	s = s[:len(s)-int(scale)] + "." + s[len(s)-int(scale):]
	if neg {
		s = "-" + s
	}
	return s
}

type ordered interface {
	~int | ~int32 | ~int64 | ~uint32 | ~uint64 | ~float64
}

func cmp3[T ordered](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpUnsignedBytes(a, b []byte) int { return bytes.Compare(a, b) }

// CompareFloat orders floats as DuckDB does: NaN equals NaN and is greater
// than every number; -0 equals +0. The planner and pushdown use it too, so
// that pruning and filtering agree.
func CompareFloat(x, y float64) int {
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	}
	return cmp3(x, y)
}

// cmpBigEndianSigned compares two's complement big-endian integers of any
// lengths by sign-extending the shorter; an empty value reads as zero.
func cmpBigEndianSigned(a, b []byte) int {
	an := len(a) > 0 && a[0]&0x80 != 0
	bn := len(b) > 0 && b[0]&0x80 != 0
	if an != bn {
		if an {
			return -1
		}
		return 1
	}
	var ext byte
	if an {
		ext = 0xff
	}
	n := max(len(a), len(b))
	for i := range n {
		x, y := ext, ext
		if j := i - (n - len(a)); j >= 0 {
			x = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			y = b[j]
		}
		if x != y {
			// Same sign: the remaining bytes compare as unsigned.
			return cmp3(uint32(x), uint32(y))
		}
	}
	return 0
}

// bigFromTwos reads a big-endian two's complement integer.
func bigFromTwos(v []byte) *big.Int {
	n := new(big.Int).SetBytes(v)
	if len(v) > 0 && v[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(v))))
	}
	return n
}

// Float16 widens an IEEE 754 binary16 value, given as its bits, exactly.
func Float16(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}
