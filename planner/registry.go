package planner

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// A ScalarFunc is one scalar function, defined once: its names, how a call
// binds (which overload its argument types pick, the casts they need and
// DuckDB's result type) and how it evaluates on one row. The binder and the
// evaluator know functions only through these entries, so a name without
// one fails at bind time and can never evaluate to a default.
type ScalarFunc struct {
	// Name is the canonical name, the one EXPLAIN prints.
	Name string
	// Aliases are the other names DuckDB accepts for the same function.
	Aliases []string
	// Bind checks and casts args and returns the bound expression: usually
	// a *Call with this entry and its result type, or a constant.
	Bind func(f *ScalarFunc, args []Expr) (Expr, error)
	// Eval computes one row's value. Unless SeesNulls is set, it is not
	// called when an argument is NULL: the result is NULL.
	Eval func(c *Call, args []Datum) (Datum, error)
	// SeesNulls marks functions whose value on a NULL argument is not NULL
	// (coalesce, concat, ...).
	SeesNulls bool
	// Lazy, when set, replaces Eval for functions that evaluate only some
	// of their arguments (coalesce, if), so the others cannot fail.
	Lazy func(c *Call, row []Datum) (Datum, error)
	// Extension names the DuckDB extension that defines the function
	// ("spatial"), when DuckDB's core lacks it: records of such functions
	// may be derived by hand where the oracle cannot load the extension.
	Extension string
}

// An AggregateFunc is one aggregate function: its names and DuckDB's
// result type for an argument type. Its accumulation lives in the
// executor, keyed by Name.
type AggregateFunc struct {
	Name    string
	Aliases []string
	// Result is the result type for an argument of type arg (a zero Type
	// for count(*)), or DuckDB's binder error.
	Result func(arg Type) (Type, error)
	// SeesNulls marks aggregates whose accumulator takes NULL values too
	// (list, first, last); they refuse FILTER and DISTINCT, which pqsql
	// plans by turning filtered rows into NULLs.
	SeesNulls bool
	// Pair marks two-argument aggregates (arg_max, corr): both arguments
	// reach the accumulator as one pair value.
	Pair bool
	// Params is how many constant arguments may follow the value
	// (quantile_cont's fraction, string_agg's separator).
	Params int
	// New makes one group's accumulator; nil for the aggregates the
	// executor accumulates itself.
	New func(a *AggCall) Accumulator
}

var (
	scalarFuncs    = map[string]*ScalarFunc{}
	aggregateFuncs = map[string]*AggregateFunc{}
)

// registerScalar adds functions to the registry under every name.
func registerScalar(fs ...*ScalarFunc) {
	for _, f := range fs {
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			if _, dup := scalarFuncs[n]; dup {
				panic("planner: function " + n + " registered twice")
			}
			scalarFuncs[n] = f
		}
	}
}

func registerAggregate(fs ...*AggregateFunc) {
	for _, f := range fs {
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			aggregateFuncs[n] = f
		}
	}
}

// ScalarFuncs lists every scalar function once, by canonical name.
func ScalarFuncs() []*ScalarFunc {
	var out []*ScalarFunc
	for n, f := range scalarFuncs {
		if n == f.Name {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// AggregateFuncs lists every aggregate function once, by canonical name.
func AggregateFuncs() []*AggregateFunc {
	var out []*AggregateFunc
	for n, f := range aggregateFuncs {
		if n == f.Name {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// FuncNames lists every name a function answers to, aliases included.
func FuncNames(f *ScalarFunc) []string { return append([]string{f.Name}, f.Aliases...) }

// IsAggregate reports whether name is an aggregate function.
func IsAggregate(name string) bool { return aggregateFuncs[strings.ToLower(name)] != nil }

// call binds a scalar function call by name.
func call(name string, args []Expr) (Expr, error) {
	f := scalarFuncs[name]
	if t := tableSeriesFuncs[name]; t != nil {
		f = t
	}
	if f == nil {
		if aggregateFuncs[name] != nil {
			return nil, binderError("aggregate function %s cannot be used here", name)
		}
		return nil, unknownFunction(name)
	}
	x, err := f.Bind(f, args)
	if err != nil && errors.Is(err, ErrBinder) && !f.SeesNulls && f.Lazy == nil && slices.ContainsFunc(args, isNullConst) {
		// A NULL of DuckDB's NULL type (a folded call, fold_null.go) fits
		// any parameter, and the call is NULL: round(NULL) is NULL.
		return &Const{Value: NullDatum, T: Type{ID: TypeNull}}, nil
	}
	return x, err
}

// notYet are functions DuckDB has and pqsql does not compute yet: naming
// one is a not-implemented error, not a claim that it does not exist.
var notYet = map[string]string{
	"kurtosis": "aggregate", "skewness": "aggregate", "entropy": "aggregate", "bit_and": "aggregate",
	"bit_or": "aggregate", "bit_xor": "aggregate", "sum_no_overflow": "aggregate", "fsum": "aggregate",
	"mad": "aggregate", "regr_slope": "aggregate", "regr_intercept": "aggregate", "favg": "aggregate",
	"random": "scalar", "uuid": "scalar", "gen_random_uuid": "scalar", "now": "scalar",
	"current_date": "scalar", "current_timestamp": "scalar", "today": "scalar",
	"nfc_normalize": "scalar", "strip_accents": "scalar",
	"json_extract": "scalar", "json_extract_string": "scalar", "row_number": "window", "rank": "window",
	"dense_rank": "window", "lag": "window", "lead": "window", "ntile": "window",
}

// unknownFunction is DuckDB's catalog error for a function name it lacks,
// with the closest known name.
func unknownFunction(name string) error {
	if kind, ok := notYet[name]; ok {
		return fmt.Errorf("%w: %s function %s", ErrNotImplemented, kind, name)
	}
	msg := fmt.Sprintf("Scalar Function with name %s does not exist!", name)
	if s := closestFunction(name); s != "" {
		msg += fmt.Sprintf("\nDid you mean \"%s\"?", s)
	}
	return fmt.Errorf("%w: %s", ErrCatalog, msg)
}

// closestFunction is the known function name most like name by
// Jaro-Winkler similarity (which favours a shared beginning, as DuckDB's
// suggestions do), when it is alike enough to be a likely typo.
func closestFunction(name string) string {
	best, bestScore := "", 0.0
	consider := func(n string) {
		sc := jaroWinkler(name, n)
		if sc > bestScore || sc == bestScore && n < best {
			best, bestScore = n, sc
		}
	}
	for n := range scalarFuncs {
		consider(n)
	}
	for n := range aggregateFuncs {
		consider(n)
	}
	if bestScore < 0.8 {
		return ""
	}
	return best
}

// jaroWinkler is the Jaro-Winkler similarity of a and b, from 0 (nothing
// alike) to 1 (equal).
func jaroWinkler(a, b string) float64 {
	if a == b {
		return 1
	}
	if a == "" || b == "" {
		return 0
	}
	window := max(len(a), len(b))/2 - 1
	window = max(window, 0)
	ma, mb := make([]bool, len(a)), make([]bool, len(b))
	matches := 0
	for i := range len(a) {
		for j := max(0, i-window); j < min(len(b), i+window+1); j++ {
			if !mb[j] && a[i] == b[j] {
				ma[i], mb[j] = true, true
				matches++
				break
			}
		}
	}
	if matches == 0 {
		return 0
	}
	transpositions, k := 0, 0
	for i := range len(a) {
		if !ma[i] {
			continue
		}
		for !mb[k] {
			k++
		}
		if a[i] != b[k] {
			transpositions++
		}
		k++
	}
	m := float64(matches)
	jaro := (m/float64(len(a)) + m/float64(len(b)) + (m-float64(transpositions)/2)/m) / 3
	prefix := 0
	for prefix < min(4, len(a), len(b)) && a[prefix] == b[prefix] {
		prefix++
	}
	return jaro + float64(prefix)*0.1*(1-jaro)
}

// newCall is the bound call of f with result type t.
func newCall(f *ScalarFunc, args []Expr, t Type) *Call {
	return &Call{Name: f.Name, Args: args, T: t, fn: f}
}

// noMatch is DuckDB's binder error for arguments no overload accepts.
func noMatch(name string, args []Expr) error {
	ts := make([]string, len(args))
	for i, a := range args {
		ts[i] = a.Type().String()
	}
	return binderError("No function matches the given name and argument types '%s(%s)'. You might need to add explicit type casts.", name, strings.Join(ts, ", "))
}

// arity checks the number of arguments.
func arity(f *ScalarFunc, args []Expr, lo, hi int) error {
	if len(args) < lo || len(args) > hi {
		return noMatch(f.Name, args)
	}
	return nil
}

// castArgs casts args to ts, the last type repeating for the rest.
func castArgs(args []Expr, ts ...Type) error {
	for i := range args {
		x, err := castTo(args[i], ts[min(i, len(ts)-1)])
		if err != nil {
			return err
		}
		args[i] = x
	}
	return nil
}

// fixed binds a function of lo..hi arguments cast to ts with result type t.
func fixed(lo, hi int, t Type, ts ...Type) func(f *ScalarFunc, args []Expr) (Expr, error) {
	return func(f *ScalarFunc, args []Expr) (Expr, error) {
		if err := arity(f, args, lo, hi); err != nil {
			return nil, err
		}
		if len(ts) > 0 {
			for i, a := range args {
				want := ts[min(i, len(ts)-1)]
				if !implicitlyCasts(a.Type(), want) {
					return nil, noMatch(f.Name, args)
				}
			}
			if err := castArgs(args, ts...); err != nil {
				return nil, err
			}
		}
		return newCall(f, args, t), nil
	}
}

// implicitlyCasts reports whether DuckDB casts from to to without being
// asked when it picks a function overload.
func implicitlyCasts(from, to Type) bool {
	switch {
	case from.ID == to.ID, from.ID == TypeNull:
		return true
	case to.ID == TypeVarchar:
		// DuckDB casts nothing to VARCHAR to pick an overload: lower(42)
		// and upper(DATE ...) are binder errors there.
		return false
	case from.ID == TypeVarchar:
		return to.ID != TypeNested
	case to.IsInteger() && !from.IsInteger():
		// No implicit cast rounds: lcm(floor(2.5), 0) and repeat('a', 1.5)
		// are binder errors in DuckDB.
		return false
	case to.IsNumeric() && from.IsNumeric():
		return true
	case to.ID == TypeTimestamp || to.ID == TypeTimestampTZ:
		return from.ID == TypeDate || isTimestamp(from)
	}
	return false
}

var (
	tInteger   = Type{ID: TypeInteger}
	tDouble    = Type{ID: TypeDouble}
	tDate      = Type{ID: TypeDate}
	tTimestamp = Type{ID: TypeTimestamp}
)

func evalCall(e *Call, row []Datum) (Datum, error) {
	f := e.fn
	if f == nil {
		if f = scalarFuncs[e.Name]; f == nil {
			return Datum{}, unknownFunction(e.Name)
		}
	}
	if f.Lazy != nil {
		return f.Lazy(e, row)
	}
	// Every argument is evaluated, as DuckDB evaluates whole vectors: a
	// NULL in the first does not excuse an error in the second.
	args := make([]Datum, len(e.Args))
	null := false
	for i, a := range e.Args {
		d, err := Eval(a, row)
		if err != nil {
			return Datum{}, err
		}
		null = null || d.Null && !f.SeesNulls
		args[i] = d
	}
	if null {
		return NullDatum, nil
	}
	return f.Eval(e, args)
}
