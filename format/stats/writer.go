package stats

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pqsql/pqsql/format/meta"
)

// A Writer is the application named by a footer's created_by, in the form
// "<application> version <version> (build <hash>)" that parquet.thrift asks
// for, e.g. "parquet-mr version 1.8.0 (build 0fda28af...)".
type Writer struct {
	// Raw is created_by as written; empty when the footer has none.
	Raw string
	// App is the application name in lower case ("parquet-mr", "parquet-cpp",
	// "parquet-cpp-arrow", "impala", ...); empty when created_by is absent.
	App string
	// Version is the release, valid when HasVersion.
	Version    Version
	HasVersion bool
	// Build is the text of "(build ...)", if any.
	Build string
}

// Version is a semantic version as parquet-java's SemanticVersion reads it:
// MAJOR.MINOR.PATCH, then anything up to "-" (Unknown), the pre-release after
// "-" and build metadata after "+", as in "1.5.0-cdh5.5.0".
type Version struct {
	Major, Minor, Patch int
	Unknown             string
	PreRelease          string
	BuildInfo           string
}

func (v Version) String() string {
	s := fmt.Sprintf("%d.%d.%d%s", v.Major, v.Minor, v.Patch, v.Unknown)
	if v.PreRelease != "" {
		s += "-" + v.PreRelease
	}
	if v.BuildInfo != "" {
		s += "+" + v.BuildInfo
	}
	return s
}

// Compare orders versions by semantic-version precedence: numbers first, then
// a pre-release sorts before the release it precedes. Build metadata and the
// unknown suffix do not count.
func (v Version) Compare(w Version) int {
	if c := cmp3(v.Major, w.Major); c != 0 {
		return c
	}
	if c := cmp3(v.Minor, w.Minor); c != 0 {
		return c
	}
	if c := cmp3(v.Patch, w.Patch); c != 0 {
		return c
	}
	switch {
	case v.PreRelease == "" && w.PreRelease == "":
		return 0
	case v.PreRelease == "":
		return 1
	case w.PreRelease == "":
		return -1
	}
	return comparePreRelease(v.PreRelease, w.PreRelease)
}

// comparePreRelease follows semver: dot-separated identifiers, numeric ones
// compared as numbers and before alphanumeric ones, a shorter list first.
func comparePreRelease(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errX := strconv.ParseUint(as[i], 10, 63)
		y, errY := strconv.ParseUint(bs[i], 10, 63)
		var c int
		switch {
		case errX == nil && errY == nil:
			c = cmp3(x, y)
		case errX == nil:
			c = -1
		case errY == nil:
			c = 1
		default:
			c = strings.Compare(as[i], bs[i])
		}
		if c != 0 {
			return c
		}
	}
	return cmp3(len(as), len(bs))
}

// ParseCreatedBy reads a footer's created_by. Text it cannot read leaves App
// or HasVersion unset rather than failing: an unreadable writer is simply not
// one of the known-bad ones, except where a rule says otherwise.
func ParseCreatedBy(s string) Writer {
	w := Writer{Raw: s}
	t := strings.TrimSpace(s)
	if t == "" {
		return w
	}
	lower := strings.ToLower(t)
	i := strings.Index(lower, " version")
	if i < 0 {
		app := lower
		if j := strings.Index(app, " ("); j >= 0 {
			app = app[:j]
		}
		w.App = strings.TrimSpace(app)
		return w
	}
	w.App = strings.TrimSpace(lower[:i])
	rest := strings.TrimSpace(t[i+len(" version"):])
	verText := rest
	if j := strings.Index(rest, "("); j >= 0 {
		verText = strings.TrimSpace(rest[:j])
		b := rest[j+1:]
		if k := strings.Index(b, ")"); k >= 0 {
			b = b[:k]
		}
		b = strings.TrimSpace(b)
		if strings.HasPrefix(strings.ToLower(b), "build") {
			b = strings.TrimSpace(b[len("build"):])
		}
		w.Build = b
	}
	if f := strings.Fields(verText); len(f) > 0 {
		verText = f[0]
	}
	w.Version, w.HasVersion = parseSemver(verText)
	return w
}

// parseSemver reads MAJOR.MINOR.PATCH[unknown][-pre][+build], with an
// optional leading "v" as some writers print it.
func parseSemver(s string) (Version, bool) {
	var v Version
	s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
	if k := strings.IndexByte(s, '+'); k >= 0 {
		v.BuildInfo, s = s[k+1:], s[:k]
	}
	if k := strings.IndexByte(s, '-'); k >= 0 {
		v.PreRelease, s = s[k+1:], s[:k]
	}
	nums := [3]*int{&v.Major, &v.Minor, &v.Patch}
	for n, p := range nums {
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == 0 || j > 9 {
			return Version{}, false
		}
		*p, _ = strconv.Atoi(s[:j])
		s = s[j:]
		if n < 2 {
			if len(s) == 0 || s[0] != '.' {
				return Version{}, false
			}
			s = s[1:]
		}
	}
	v.Unknown = s
	return v, true
}

func (w Writer) String() string {
	switch {
	case w.App == "":
		return "an unnamed writer"
	case w.HasVersion:
		return w.App + " " + w.Version.String()
	}
	return w.App
}

func (w Writer) before(app string, major, minor, patch int) bool {
	return w.App == app && w.HasVersion && w.Version.Compare(Version{Major: major, Minor: minor, Patch: patch}) < 0
}

// The releases that fixed known statistics bugs.
var (
	// PARQUET-251: parquet-mr before 1.8.0 could write another value's bytes as
	// a binary column's min or max (a reused buffer).
	parquet251Fixed = Version{Major: 1, Minor: 8, Patch: 0}
	// Cloudera backported the PARQUET-251 fix into 1.5.0-cdh5.5.0 and later CDH 5 builds.
	cdh251FixedStart = Version{Major: 1, Minor: 5, Patch: 0, PreRelease: "cdh5.5.0"}
	cdh251FixedEnd   = Version{Major: 1, Minor: 5, Patch: 0}
)

// distrust says why statistics this writer wrote for the column may be wrong,
// or "" if no known bug applies. The rules are those parquet-java's
// CorruptStatistics and Arrow's ApplicationVersion::HasCorrectStatistics
// apply; equal says the pair's min and max bytes are equal (then the order
// they were compared in cannot matter). anonymous says whether a missing
// created_by counts against binary columns (PARQUET-297), which matters only
// for the deprecated min/max.
func (w Writer) distrust(o Order, phys meta.Type, equal, anonymous bool) string {
	// arrow-go (created_by "parquet-go version ...") orders FLOAT16 bounds by
	// the values' bits as signed 16-bit integers: a chunk holding -65504 and
	// -0 records -0 as its minimum. No release is known to be fixed.
	if o.kind == KindFloat16 && w.App == "parquet-go" && !equal {
		return fmt.Sprintf("they were written by %s, which orders FLOAT16 bounds by their bits as signed integers, not as numbers", w)
	}
	binary := phys == meta.ByteArray || phys == meta.FixedLenByteArray
	// PARQUET-686 / PARQUET-1025: until parquet-mr 1.10.0 and parquet-cpp 1.3.0
	// every value was compared as signed, strings and decimals byte by byte as
	// Java's signed byte.
	if w.before("parquet-mr", 1, 10, 0) || w.before("parquet-cpp", 1, 3, 0) {
		if !o.kind.Signed() && !equal {
			return fmt.Sprintf("they were written by %s, which compared every value as signed (PARQUET-686), but this column is ordered as %s", w, o.Name())
		}
		if !binary {
			return ""
		}
	}
	if !binary {
		return ""
	}
	if w.App == "" {
		if anonymous {
			return "the footer does not name its writer, and the parquet-mr releases that wrote corrupt binary statistics (PARQUET-251) sometimes left created_by empty (PARQUET-297)"
		}
		return ""
	}
	if w.App != "parquet-mr" {
		return ""
	}
	if !w.HasVersion {
		return fmt.Sprintf("created_by (%q) names parquet-mr without a readable version, so it may predate the fix for corrupt binary statistics (PARQUET-251)", w.Raw)
	}
	if w.Version.Compare(parquet251Fixed) < 0 &&
		!(w.Version.Compare(cdh251FixedStart) >= 0 && w.Version.Compare(cdh251FixedEnd) < 0) {
		return fmt.Sprintf("they were written by %s, and parquet-mr before 1.8.0 could store the wrong bytes as a binary column's min or max (PARQUET-251)", w)
	}
	return ""
}
