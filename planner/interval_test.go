package planner

import (
	"errors"
	"math"
	"math/rand"
	"testing"
)

// An interval printed as DuckDB prints it reads back as the same three
// fields, whatever their signs.
func TestIntervalTextRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	field := func(limit int64) int64 {
		switch rng.Intn(4) {
		case 0:
			return 0
		case 1:
			return rng.Int63n(100) - 50
		}
		return rng.Int63n(2*limit) - limit
	}
	cases := []Interval{
		{}, {Months: 1}, {Months: -1}, {Days: -1, Micros: -1}, {Months: 14, Days: 3, Micros: 14706700000},
		{Months: math.MaxInt32, Days: math.MaxInt32, Micros: 999999999 * microsPerHour},
		{Months: math.MinInt32 + 1, Days: math.MinInt32 + 1, Micros: -999999999 * microsPerHour},
	}
	for range 2000 {
		// Up to nine digits of hours, the most DuckDB's clock reads back.
		cases = append(cases, Interval{Months: int32(field(math.MaxInt32)), Days: int32(field(math.MaxInt32)), Micros: field(999999999 * microsPerHour)})
	}
	for _, iv := range cases {
		text := string(AppendInterval(nil, iv))
		got, err := parseInterval(text)
		if err != nil || got != iv {
			t.Errorf("%+v printed as %q reads back as %+v, %v", iv, text, got, err)
		}
	}
}

// Text that is not an interval fails with a Conversion Error naming it,
// never a panic or a partial value. DuckDB 1.5.6 refuses each of these
// (TRY_CAST gives NULL).
func TestParseIntervalRefuses(t *testing.T) {
	for _, s := range []string{
		"", " ", "-", "day", "1 day 5", "P1D", "1 fortnight", "3 dow", "ago", "1 day ago ago",
		"10:xx", "10:00 x", "1234567890:00", "99999999999999999999 days", "1 day -",
		"2147483648 months", "9223372036854775807 hours", "@",
	} {
		if iv, err := parseInterval(s); !errors.Is(err, ErrConversion) && !errors.Is(err, ErrOutOfRange) {
			t.Errorf("parseInterval(%q) = %+v, %v; want a conversion error", s, iv, err)
		}
	}
}

func FuzzParseInterval(f *testing.F) {
	for _, s := range []string{"1 day", "-04:05:06.7", "1.5 quarters ago", "@ 3 weeks 2 mons", "5", "100:00:00 x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		iv, err := parseInterval(s)
		if err != nil {
			return
		}
		// What reads as an interval prints as one that reads the same,
		// unless its clock has more hours than DuckDB's clock reads.
		if iv.Micros/microsPerHour > 999999999 || iv.Micros/microsPerHour < -999999999 {
			return
		}
		text := string(AppendInterval(nil, iv))
		if back, err := parseInterval(text); err != nil || back != iv {
			t.Fatalf("%q reads as %+v, printed %q, reads back as %+v, %v", s, iv, text, back, err)
		}
	})
}
