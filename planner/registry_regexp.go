package planner

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// The regular expression functions. Go's regexp package speaks RE2's
// syntax, the one DuckDB uses.
func init() {
	registerScalar(
		&ScalarFunc{Name: "regexp_matches", Bind: fixed(2, 3, tBool, tVarchar), Eval: func(_ *Call, a []Datum) (Datum, error) {
			re, err := compileRegexp(a[1].S, optionsOf(a, 2))
			if err != nil {
				return Datum{}, err
			}
			return Datum{B: re.MatchString(a[0].S)}, nil
		}},
		&ScalarFunc{Name: "regexp_full_match", Bind: fixed(2, 3, tBool, tVarchar), Eval: func(_ *Call, a []Datum) (Datum, error) {
			re, err := compileRegexp(`\A(?:`+a[1].S+`)\z`, optionsOf(a, 2))
			if err != nil {
				return Datum{}, err
			}
			return Datum{B: re.MatchString(a[0].S)}, nil
		}},
		&ScalarFunc{Name: "regexp_replace", Bind: fixed(3, 4, tVarchar, tVarchar), Eval: evalRegexpReplace},
		&ScalarFunc{Name: "regexp_extract", Bind: fixed(2, 3, tVarchar, tVarchar, tVarchar, tInteger), Eval: evalRegexpExtract},
		&ScalarFunc{Name: "string_split_regex", Aliases: []string{"str_split_regex", "regexp_split_to_array"},
			Bind: fixed(2, 3, Type{ID: TypeNested, Name: "VARCHAR[]"}, tVarchar), SeesNulls: true, Eval: func(_ *Call, a []Datum) (Datum, error) {
				switch {
				case a[0].Null:
					return NullDatum, nil
				case a[1].Null:
					// DuckDB splits at no match: the text whole.
					return Datum{N: stringList([]string{a[0].S})}, nil
				}
				re, err := compileRegexp(a[1].S, optionsOf(a, 2))
				if err != nil {
					return Datum{}, err
				}
				return Datum{N: stringList(re.Split(a[0].S, -1))}, nil
			}},
	)
}

func optionsOf(a []Datum, i int) string {
	if i < len(a) {
		return a[i].S
	}
	return ""
}

var (
	regexpMu    sync.Mutex
	regexpCache = map[string]*regexp.Regexp{}
)

// compileRegexp compiles a pattern with DuckDB's option letters: i case
// insensitive, c case sensitive, s (the default) and n, p, m for how '.'
// and '^' treat newlines, g (global) for regexp_replace.
func compileRegexp(pattern, options string) (*regexp.Regexp, error) {
	flags := "s"
	for _, o := range options {
		switch o {
		case 'i':
			flags = strings.ReplaceAll(flags, "i", "") + "i"
		case 'c':
			flags = strings.ReplaceAll(flags, "i", "")
		case 's':
		case 'n', 'p':
			flags = strings.ReplaceAll(flags, "s", "")
		case 'm':
			flags = strings.ReplaceAll(flags, "s", "") + "m"
		case 'g':
		default:
			return nil, fmt.Errorf("%w: Unrecognized Regex option %c", ErrInvalidInput, o)
		}
	}
	key := flags + "\x00" + pattern
	regexpMu.Lock()
	re := regexpCache[key]
	regexpMu.Unlock()
	if re != nil {
		return re, nil
	}
	re, err := regexp.Compile("(?" + flags + ")" + pattern)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidInput, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	regexpMu.Lock()
	if len(regexpCache) > 1000 {
		regexpCache = map[string]*regexp.Regexp{}
	}
	regexpCache[key] = re
	regexpMu.Unlock()
	return re, nil
}

// expandRewrite writes RE2's rewrite string for one match: \0 to \9 are
// the groups, \\ a backslash.
func expandRewrite(dst []byte, rewrite, s string, m []int) []byte {
	for i := 0; i < len(rewrite); i++ {
		c := rewrite[i]
		if c != '\\' || i+1 == len(rewrite) {
			dst = append(dst, c)
			continue
		}
		i++
		n := rewrite[i]
		switch {
		case n >= '0' && n <= '9':
			g := int(n - '0')
			if 2*g+1 < len(m) && m[2*g] >= 0 {
				dst = append(dst, s[m[2*g]:m[2*g+1]]...)
			}
		default:
			dst = append(dst, n)
		}
	}
	return dst
}

func evalRegexpReplace(_ *Call, a []Datum) (Datum, error) {
	opts := optionsOf(a, 3)
	re, err := compileRegexp(a[1].S, opts)
	if err != nil {
		return Datum{}, err
	}
	s, global := a[0].S, strings.Contains(opts, "g")
	var out []byte
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, s[last:m[0]]...)
		out = expandRewrite(out, a[2].S, s, m)
		last = m[1]
		if !global {
			break
		}
	}
	out = append(out, s[last:]...)
	return Datum{S: string(out)}, nil
}

func evalRegexpExtract(_ *Call, a []Datum) (Datum, error) {
	re, err := compileRegexp(a[1].S, "")
	if err != nil {
		return Datum{}, err
	}
	g := int64(0)
	if len(a) > 2 {
		g = a[2].I
	}
	if g < 0 {
		return Datum{}, fmt.Errorf("%w: Group index must be non-negative", ErrInvalidInput)
	}
	// DuckDB answers '' for a group the pattern does not have.
	m := re.FindStringSubmatchIndex(a[0].S)
	if m == nil || g > int64(re.NumSubexp()) || m[2*g] < 0 {
		return Datum{S: ""}, nil
	}
	return Datum{S: a[0].S[m[2*g]:m[2*g+1]]}, nil
}
