package planner

import (
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pqsql/pqsql/internal/testcorpus"
)

// oracleRecords returns the SQL of every record in testdata/queries whose
// expected answer comes from DuckDB: all but those marked "oracle: skip".
func oracleRecords(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testcorpus.ModuleRoot(t), "testdata", "queries", "*.test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files: %v", err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		skip := false
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			switch {
			case strings.HasPrefix(l, "# oracle: skip"):
				skip = true
			case strings.HasPrefix(l, "query") || strings.HasPrefix(l, "statement"):
				var sql []string
				for i++; i < len(lines) && lines[i] != "----" && strings.TrimSpace(lines[i]) != ""; i++ {
					sql = append(sql, lines[i])
				}
				if !skip {
					out = append(out, strings.Join(sql, "\n"))
				}
				skip = false
			case strings.TrimSpace(l) == "":
				skip = false
			}
		}
	}
	return out
}

// uncovered returns the names no record matches with the pattern made by
// pat (a regular expression with %s for the quoted name).
func uncovered(records []string, names []string, pat string) []string {
	var missing []string
	for _, n := range names {
		re := regexp.MustCompile("(?i)" + strings.ReplaceAll(pat, "%s", regexp.QuoteMeta(n)))
		found := false
		for _, r := range records {
			if re.MatchString(r) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	return missing
}

// TestEveryFunctionHasOracleRecords walks the registry: a function, under
// any of its names, that no DuckDB-checked record calls fails the test.
func TestEveryFunctionHasOracleRecords(t *testing.T) {
	records := oracleRecords(t)
	var names []string
	for n, f := range scalarFuncs {
		if f.Extension == "" { // see TestExtensionFunctionsHaveRecords
			names = append(names, n)
		}
	}
	for n := range aggregateFuncs {
		names = append(names, n)
	}
	if missing := uncovered(records, names, `(^|[^a-z0-9_.])%s\s*\(`); len(missing) > 0 {
		t.Errorf("functions without an oracle-checked record in testdata/queries: %s", strings.Join(missing, ", "))
	}
}

// TestEveryDatePartHasOracleRecords does the same for every date_part
// specifier, and for every part date_trunc and date_diff accept.
func TestEveryDatePartHasOracleRecords(t *testing.T) {
	records := oracleRecords(t)
	var names []string
	for n := range dateParts {
		names = append(names, n)
	}
	if missing := uncovered(records, names, `date_part\('%s'`); len(missing) > 0 {
		t.Errorf("date_part specifiers without an oracle-checked record: %s", strings.Join(missing, ", "))
	}
	var parts []string
	for p := datePart(0); p < numDateParts; p++ {
		if p != partNanosecond && p != partEpoch && p != partEra && p != partTimezone && p != partTimezoneHour && p != partTimezoneMinute {
			parts = append(parts, partName(p))
		}
	}
	if missing := uncovered(records, parts, `date_trunc\('%s'`); len(missing) > 0 {
		t.Errorf("date_trunc parts without an oracle-checked record: %s", strings.Join(missing, ", "))
	}
	if missing := uncovered(records, parts, `date_diff\('%s'`); len(missing) > 0 {
		t.Errorf("date_diff parts without an oracle-checked record: %s", strings.Join(missing, ", "))
	}
}

// TestDatePartsNeverDefault computes every part on DATE, TIMESTAMP,
// TIMESTAMP_NS and TIMESTAMPTZ: each is a value or an error, and the
// parts DuckDB refuses on DATE are errors rather than zero.
func TestDatePartsNeverDefault(t *testing.T) {
	types := []Type{tDate, tTimestamp, {ID: TypeTimestampNS}, {ID: TypeTimestampTZ}}
	for p := datePart(0); p < numDateParts; p++ {
		if partName(p) == "" {
			t.Errorf("part %d has no name and no function", p)
		}
		for _, ty := range types {
			d, err := partOf(p, Datum{I: 12345}, ty)
			refused := ty.ID == TypeDate && (p == partTimezone || p == partTimezoneHour || p == partTimezoneMinute)
			switch {
			case refused && !errors.Is(err, ErrNotImplemented):
				t.Errorf("%s of %s = %v, %v; want DuckDB's not-implemented error", partName(p), ty, d, err)
			case !refused && err != nil:
				t.Errorf("%s of %s: %v", partName(p), ty, err)
			case !refused && d.Null:
				t.Errorf("%s of %s is NULL", partName(p), ty)
			}
		}
	}
	if _, err := partOf(numDateParts, Datum{}, tDate); !errors.Is(err, ErrNotImplemented) {
		t.Errorf("an unknown part gave %v, want ErrNotImplemented", err)
	}
}

// TestUnknownNamesFail checks that names the registry lacks fail at bind
// time with DuckDB's catalog error and a suggestion, and that unknown date
// parts fail instead of computing zero.
func TestUnknownNamesFail(t *testing.T) {
	tests := []struct {
		name, want string
	}{
		{"lenght", `Scalar Function with name lenght does not exist!` + "\n" + `Did you mean "length"?`},
		{"uper", `Did you mean "upper"?`},
		{"foo", `Did you mean "floor"?`},
		{"sum_foo", `Did you mean "sum"?`},
		{"medain", `Did you mean "median"?`},
		{"xyzzy_quux_frob", `Scalar Function with name xyzzy_quux_frob does not exist!`},
	}
	for _, tt := range tests {
		_, err := call(tt.name, nil)
		if !errors.Is(err, ErrCatalog) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a catalog error containing %q", tt.name, err, tt.want)
		}
	}
	for _, name := range []string{"kurtosis", "now", "row_number"} {
		if _, err := call(name, nil); !errors.Is(err, ErrNotImplemented) {
			t.Errorf("%s: %v, want ErrNotImplemented for a DuckDB function pqsql lacks", name, err)
		}
	}
	for name := range notYet {
		if scalarFuncs[name] != nil || aggregateFuncs[name] != nil {
			t.Errorf("%s is registered and also listed as not implemented", name)
		}
	}
	if _, err := call("xyzzy_quux_frob", nil); strings.Contains(err.Error(), "Did you mean") {
		t.Errorf("a name like no function got a suggestion: %v", err)
	}
	arg := &Const{Value: Datum{I: 0}, T: tDate}
	for _, part := range []string{"nonsense", "", "nanosecond", "fortnight"} {
		for _, fn := range []string{"date_part", "date_trunc"} {
			_, err := call(fn, []Expr{&Const{Value: Datum{S: part}, T: tVarchar}, arg})
			if !errors.Is(err, ErrConversion) || !strings.Contains(err.Error(), "not recognized") {
				t.Errorf("%s('%s', DATE): %v, want DuckDB's conversion error", fn, part, err)
			}
		}
	}
}

// TestEveryCastTargetComputesOrFails casts a value of every type to every
// type: each cast gives a value or an error, never a silent zero for a
// value that is not zero.
func TestEveryCastTargetComputesOrFails(t *testing.T) {
	samples := map[TypeID]Datum{
		TypeBoolean: {B: true}, TypeTinyInt: {I: 7}, TypeSmallInt: {I: 7}, TypeInteger: {I: 7}, TypeBigInt: {I: 7},
		TypeUTinyInt: {I: 7}, TypeUSmallInt: {I: 7}, TypeUInteger: {I: 7}, TypeUBigInt: {I: 7},
		TypeFloat: {F: 7}, TypeDouble: {F: 7}, TypeVarchar: {S: "7"}, TypeDate: {I: 7}, TypeTimestamp: {I: 7 * microsPerDay},
		TypeTimestampNS: {I: 7 * microsPerDay * 1000}, TypeTimestampTZ: {I: 7 * microsPerDay}, TypeBlob: {Bytes: []byte("7")},
	}
	var ids []TypeID
	for id := range samples {
		ids = append(ids, id)
	}
	for _, from := range ids {
		for _, to := range ids {
			d, err := CastDatum(samples[from], Type{ID: from}, Type{ID: to})
			if err != nil {
				if !errors.Is(err, ErrConversion) {
					t.Errorf("CAST(%s AS %s): %v is not a conversion error", Type{ID: from}, Type{ID: to}, err)
				}
				continue
			}
			if d.Null {
				t.Errorf("CAST(%s AS %s) of a value is NULL", Type{ID: from}, Type{ID: to})
			}
			if d.I == 0 && d.F == 0 && d.S == "" && d.Big == nil && d.Bytes == nil && !d.B && d.N == nil {
				t.Errorf("CAST(%s AS %s) of a non-zero value gave the zero value", Type{ID: from}, Type{ID: to})
			}
		}
	}
}

// TestEveryOperatorComputesOrFails applies every arithmetic and comparison
// operator to every pair of sample types: binding either fails, or the
// result of non-NULL operands is a value (never NULL, never an evaluation
// that silently gives the zero value for operands where it cannot be
// zero), or an error.
func TestEveryOperatorComputesOrFails(t *testing.T) {
	seven := map[TypeID]Datum{
		TypeTinyInt: {I: 7}, TypeInteger: {I: 7}, TypeBigInt: {I: 7}, TypeUBigInt: {I: 7},
		TypeHugeInt: {Big: big.NewInt(7)}, TypeFloat: {F: 7}, TypeDouble: {F: 7},
		TypeVarchar: {S: "7"}, TypeDate: {I: 7}, TypeTimestamp: {I: 7 * microsPerDay},
	}
	three := map[TypeID]Datum{
		TypeTinyInt: {I: 3}, TypeInteger: {I: 3}, TypeBigInt: {I: 3}, TypeUBigInt: {I: 3},
		TypeHugeInt: {Big: big.NewInt(3)}, TypeFloat: {F: 3}, TypeDouble: {F: 3},
		TypeVarchar: {S: "3"}, TypeDate: {I: 3}, TypeTimestamp: {I: 3 * microsPerDay},
	}
	ops := []string{"+", "-", "*", "/", "%", "div", "||", "^", "&", "|", "<<", ">>", "//", "**"}
	for lt, l := range seven {
		for rt, r := range three {
			for _, op := range ops {
				x, err := arithmetic(op, &ColRef{Index: 0, Name: "l", T: Type{ID: lt}}, &ColRef{Index: 1, Name: "r", T: Type{ID: rt}})
				if known := !strings.ContainsAny(op, "&|<>") && op != "//" && op != "**" || op == "||"; !known && !errors.Is(err, ErrNotImplemented) {
					t.Errorf("%s %s %s: %v, want ErrNotImplemented at bind time", Type{ID: lt}, op, Type{ID: rt}, err)
				}
				if err != nil {
					continue
				}
				d, err := Eval(x, []Datum{l, r})
				if err != nil {
					if errors.Is(err, ErrNotImplemented) {
						t.Errorf("%s %s %s binds but does not evaluate: %v", Type{ID: lt}, op, Type{ID: rt}, err)
					}
					continue
				}
				if d.Null {
					t.Errorf("%s %s %s of 7 and 3 is NULL", Type{ID: lt}, op, Type{ID: rt})
				}
				if d.I == 0 && d.F == 0 && d.S == "" && (d.Big == nil || d.Big.Sign() == 0) && d.Bytes == nil && !d.B {
					t.Errorf("%s %s %s of 7 and 3 is the zero value", Type{ID: lt}, op, Type{ID: rt})
				}
			}
		}
	}
}
