package pushdown

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/pqsql/pqsql/format"
)

// variantFixture opens fixtures/variant_shredded.parquet and its VARIANT field v of fixtures/variant_shredded.parquet.
func variantFixture(t *testing.T) (*format.File, *format.Field) {
	t.Helper()
	f := openFixture(t, "variant_shredded.parquet")
	for _, fd := range f.Schema.Fields {
		if fd.Name == "v" {
			return f, fd
		}
	}
	t.Fatal("variant_shredded.parquet has no field v")
	return nil, nil
}

// variantPred is CAST(variant_extract(v, key) AS target) op lit as the
// planner pushes it.
func variantPred(key string, target VariantTarget, op Op, lit Literal) *VariantCompare {
	return &VariantCompare{Col: "v", Path: []string{key}, Target: target, Op: op, Lit: lit,
		Text: fmt.Sprintf("CAST(v.%s AS %d) %s %s", key, target, op, lit)}
}

func leafIndex(t *testing.T, f *format.File, path string) int {
	t.Helper()
	for i, l := range f.Schema.Leaves {
		if l.Path == path {
			return i
		}
	}
	t.Fatalf("no leaf %s", path)
	return -1
}

func TestVariantShreddedRowGroups(t *testing.T) {
	f, v := variantFixture(t)
	all := []int{0, 1, 2, 3, 4, 5, 6}
	plan := func(op Op, n int64) *FilePlan {
		p, err := Plan(f, variantPred("a", VariantInteger, op, IntLiteral(n)), all, AllMechanisms())
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("residual not null keeps the row group", func(t *testing.T) {
		// Row group 1's a.typed_value statistics are [100, 199], which
		// exclude 5, but id 150 holds the string '5' in a.value: it casts
		// to 5, so the row group must be read, and that row with it.
		p := plan(Eq, 5)
		if got := verdicts(p); got != "kkkk" {
			t.Fatalf("verdicts %s, want kkkk", got)
		}
		if !p.RowGroups[1].Rows.Contains(50) {
			t.Fatalf("row group 1 keeps %s, not row 50 (id 150)", p.RowGroups[1].Rows)
		}
		// The same file judged on typed_value alone skips row group 1:
		// the fixture has the shape that misleads such a reader.
		typedOnly := &Compare{Col: Column{Path: "v.typed_value.a.typed_value"}, Op: Eq, Lit: IntLiteral(5)}
		q, err := Plan(f, typedOnly, all, AllMechanisms())
		if err != nil {
			t.Fatal(err)
		}
		if q.RowGroups[1].Verdict != Skip {
			t.Fatalf("typed_value alone keeps row group 1 (%s): the fixture lost its point", q.RowGroups[1].Reason)
		}
	})
	t.Run("fully shredded row group is skipped", func(t *testing.T) {
		p := plan(Gt, 297)
		if p.RowGroups[0].Verdict != Skip {
			t.Fatalf("row group 0 kept (%s), though a is in [0, 99] and both residuals are null", p.RowGroups[0].Reason)
		}
		// Row group 2's top-level value holds non-objects in its first page
		// only: the page index keeps that page and the one with 298 and 299.
		if got := p.RowGroups[2].Rows.String(); got != "[0, 20) [80, 100)" {
			t.Errorf("row group 2 keeps %s, want [0, 20) [80, 100)", got)
		}
		if p.RowGroups[1].Verdict == Skip || !p.RowGroups[1].Rows.Contains(50) {
			t.Errorf("row group 1 must keep row 50, whose residual a may be anything: %s", p.RowGroups[1].Reason)
		}
	})
	t.Run("not shredded as asked", func(t *testing.T) {
		for _, c := range []struct {
			key    string
			target VariantTarget
		}{{"c", VariantInteger}, {"a", VariantVarchar}, {"b", VariantInteger}} {
			if _, err := variantPred(c.key, c.target, Eq, IntLiteral(5)).implied(v, Eq); !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s as %d: err %v, want ErrUnsupported", c.key, c.target, err)
			}
		}
		id := f.Schema.Fields[0]
		if _, err := variantPred("a", VariantInteger, Eq, IntLiteral(5)).implied(id, Eq); !errors.Is(err, ErrUnsupported) {
			t.Errorf("non-VARIANT column: err %v, want ErrUnsupported", err)
		}
		if _, err := Plan(f, &VariantCompare{Col: "w", Path: []string{"a"}, Op: Eq, Lit: IntLiteral(5)}, nil, AllMechanisms()); !errors.Is(err, ErrUnknownColumn) {
			t.Errorf("missing column: err %v, want ErrUnknownColumn", err)
		}
	})
}

// TestVariantSoundnessProperty plans random comparisons of the fixture's
// shredded fields and checks every row that truly matches, decoded from
// its Variant bytes as DuckDB casts them, against the plan: no skipped row
// group or page holds one.
func TestVariantSoundnessProperty(t *testing.T) {
	f, _ := variantFixture(t)
	d := decodeFile(t, f)
	leaf := func(p string) int { return leafIndex(t, f, p) }
	meta, top := leaf("v.metadata"), leaf("v.value")
	fields := map[string][2]int{
		"a": {leaf("v.typed_value.a.value"), leaf("v.typed_value.a.typed_value")},
		"b": {leaf("v.typed_value.b.value"), leaf("v.typed_value.b.typed_value")},
	}
	// field is the row's key member, nil when v is NULL, not an object or
	// lacks the key.
	field := func(row *rowView, key string) (format.Value, bool) {
		md, ok := row.Value(meta)
		if !ok {
			return nil, false
		}
		lv := fields[key]
		if b, ok := row.Value(lv[1]); ok {
			if key == "a" {
				return format.VariantPrimitive{Type: format.VariantInt64, Int: int64(binary.LittleEndian.Uint64(b))}, true
			}
			return format.VariantPrimitive{Type: format.VariantString, Bytes: b}, true
		}
		for _, l := range []int{lv[0], top} {
			b, ok := row.Value(l)
			if !ok {
				continue
			}
			x, err := format.DecodeVariant(md, b)
			if err != nil {
				t.Fatalf("row %d: %v", row.i, err)
			}
			if l == lv[0] {
				return x, true
			}
			if o, ok := x.(*format.VariantObject); ok {
				for i, k := range o.Keys {
					if k == key {
						return o.Values[i], true
					}
				}
			}
		}
		return nil, false
	}
	holds := func(c int, op Op) bool {
		switch op {
		case Eq:
			return c == 0
		case Ne:
			return c != 0
		case Lt:
			return c < 0
		case Le:
			return c <= 0
		case Gt:
			return c > 0
		}
		return c >= 0
	}
	ops := []Op{Eq, Ne, Lt, Le, Gt, Ge}
	r := rand.New(rand.NewSource(12))
	matched := 0
	for k := 0; k < 300; k++ {
		op := ops[r.Intn(len(ops))]
		key, target := "a", VariantInteger
		n := int64(r.Intn(430) - 10)
		s := fmt.Sprintf("s%03d", r.Intn(420))
		lit := IntLiteral(n)
		if r.Intn(3) == 0 {
			key, target, lit = "b", VariantVarchar, StringLiteral(s)
		}
		p, err := Plan(f, variantPred(key, target, op, lit), []int{0, 1, 2, 3, 4, 5, 6}, randomOptions(r))
		if err != nil {
			t.Fatal(err)
		}
		for rg, rd := range d.rgs {
			rp := p.RowGroups[rg]
			row := &rowView{d: rd}
			for i := int64(0); i < rd.rows; i++ {
				row.i = int(i)
				x, ok := field(row, key)
				pv, isPrim := x.(format.VariantPrimitive)
				if !ok || !isPrim {
					continue
				}
				var c int
				if target == VariantInteger {
					m := pv.Int
					if pv.Type == format.VariantString {
						if m, err = strconv.ParseInt(string(pv.Bytes), 10, 64); err != nil {
							continue
						}
					}
					c = cmp.Compare(m, n)
				} else {
					c = cmp.Compare(string(pv.Bytes), s)
				}
				if !holds(c, op) {
					continue
				}
				matched++
				if rp.Verdict == Skip || !rp.Rows.Contains(i) {
					t.Fatalf("%s %s %s: row group %d keeps %s (%s: %s) but row %d matches", key, op, lit, rg, rp.Rows, rp.Mechanism, rp.Reason, i)
				}
			}
		}
	}
	if matched == 0 {
		t.Fatal("no row matched any predicate: the property checked nothing")
	}
}

// TestVariantNarrowingCastKeepsOverflow: CAST(v.o.x AS TINYINT) raises an
// error in DuckDB on a value beyond 127, so a row group whose typed values
// lie beyond it is kept (the query then fails with pruning as without),
// while the BIGINT cast, which cannot fail, skips it.
func TestVariantNarrowingCastKeepsOverflow(t *testing.T) {
	f := openFixture(t, "variant_typed.parquet")
	cmp := func(bits int) *VariantCompare {
		return &VariantCompare{Col: "v", Path: []string{"o", "x"}, Target: VariantInteger, Bits: bits, Op: Eq, Lit: IntLiteral(5), Text: "x = 5"}
	}
	wide, err := Plan(f, cmp(64), nil, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := Plan(f, cmp(8), nil, AllMechanisms())
	if err != nil {
		t.Fatal(err)
	}
	// Row group 4 is fully shredded with x in [4000, 4999].
	if wide.RowGroups[4].Verdict != Skip {
		t.Errorf("BIGINT: row group 4 kept (%s)", wide.RowGroups[4].Reason)
	}
	if narrow.RowGroups[4].Verdict == Skip {
		t.Errorf("TINYINT: row group 4 skipped (%s), though its values overflow the cast", narrow.RowGroups[4].Reason)
	}
}
