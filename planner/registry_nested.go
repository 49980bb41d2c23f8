package planner

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pqsql/pqsql/format"
)

// Functions that build, read and reshape lists, structs and maps.
func init() {
	registerScalar(
		&ScalarFunc{Name: "list_value", Aliases: []string{"list_pack"}, Bind: bindListValue, Eval: evalListValue, SeesNulls: true},
		&ScalarFunc{Name: "list_extract", Aliases: []string{"list_element", "array_extract"}, Bind: bindListExtract, Eval: evalListExtract},
		&ScalarFunc{Name: "list_slice", Aliases: []string{"array_slice"}, Bind: bindListSlice, Eval: evalListSlice},
		&ScalarFunc{Name: "struct_extract", Bind: bindStructExtract, Eval: evalStructExtract},
		&ScalarFunc{Name: "map_extract_value", Bind: bindMapExtract, Eval: evalMapExtract},
		&ScalarFunc{Name: "map_keys", Bind: bindMapParts, Eval: evalMapParts},
		&ScalarFunc{Name: "map_values", Bind: bindMapParts, Eval: evalMapParts},
		&ScalarFunc{Name: "list_sort", Aliases: []string{"array_sort"}, Bind: bindListSort, Eval: evalListSort},
		&ScalarFunc{Name: "list_reverse_sort", Aliases: []string{"array_reverse_sort"}, Bind: bindListSort, Eval: evalListSort},
		&ScalarFunc{Name: "list_distinct", Aliases: []string{"array_distinct"}, Bind: bindListSame, Eval: evalListDistinct},
		&ScalarFunc{Name: "list_reverse", Aliases: []string{"array_reverse"}, Bind: bindListSame, Eval: evalListReverse},
		&ScalarFunc{Name: "list_concat", Aliases: []string{"list_cat", "array_concat", "array_cat"}, Bind: bindListConcat, Eval: evalListConcat, SeesNulls: true},
		&ScalarFunc{Name: "flatten", Bind: bindFlatten, Eval: evalFlatten},
		&ScalarFunc{Name: "list_sum", Bind: bindListAgg, Eval: evalListAgg},
		&ScalarFunc{Name: "list_min", Bind: bindListAgg, Eval: evalListAgg},
		&ScalarFunc{Name: "list_max", Bind: bindListAgg, Eval: evalListAgg},
		&ScalarFunc{Name: "list_aggregate", Aliases: []string{"list_aggr", "array_aggregate", "array_aggr"}, Bind: bindListAgg, Eval: evalListAgg},
	)
}

// listArg checks that x is a LIST (or NULL) and returns its element type.
func listArg(name string, args []Expr) (Type, error) {
	t := args[0].Type()
	if t.ID == TypeNull {
		return Type{ID: TypeNull}, nil
	}
	et, ok := listElem(t)
	if !ok {
		return Type{}, noMatch(name, args)
	}
	return et, nil
}

// listDatums reads a LIST datum's elements as datums of type et.
func listDatums(d Datum, et Type) ([]Datum, error) {
	l, ok := d.N.(format.List)
	if !ok {
		return nil, fmt.Errorf("%w: a list function over a value that is not a list", ErrConversion)
	}
	out := make([]Datum, len(l))
	for i, v := range l {
		x, err := elemDatum(v, et)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// listDatum builds a LIST datum from elements of type et.
func listDatum(ds []Datum, et Type) (Datum, error) {
	l := make(format.List, len(ds))
	for i, d := range ds {
		v, err := valueOf(d, et)
		if err != nil {
			return Datum{}, err
		}
		l[i] = v
	}
	return Datum{N: l}, nil
}

func bindListValue(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) == 0 {
		return newCall(f, args, listOf(Type{ID: TypeNull})), nil
	}
	xs, err := unifyValues(args)
	if err != nil {
		return nil, err
	}
	return newCall(f, xs, listOf(xs[0].Type())), nil
}

func evalListValue(c *Call, a []Datum) (Datum, error) {
	et := Type{ID: TypeNull}
	if len(c.Args) > 0 {
		et = c.Args[0].Type()
	}
	return listDatum(a, et)
}

// listIndex is the 0-based position of DuckDB's 1-based index i (negative
// counts from the end) in a sequence of n, or false when out of range.
func listIndex(i int64, n int) (int, bool) {
	switch {
	case i > 0 && i <= int64(n):
		return int(i - 1), true
	case i < 0 && -i <= int64(n):
		return n + int(i), true
	}
	return 0, false
}

func bindListExtract(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	it := args[1].Type()
	if !(it.IsInteger() || it.ID == TypeNull) || it.ID == TypeHugeInt {
		return nil, noMatch(f.Name, args)
	}
	i, err := castTo(args[1], Type{ID: TypeBigInt})
	if err != nil {
		return nil, err
	}
	t := args[0].Type()
	switch {
	case t.ID == TypeVarchar:
		return newCall(f, []Expr{args[0], i}, tVarchar), nil
	case t.ID == TypeNull:
		return &Const{Value: NullDatum, T: Type{ID: TypeNull}}, nil
	}
	et, ok := listElem(t)
	if !ok {
		return nil, noMatch(f.Name, args)
	}
	return newCall(f, []Expr{args[0], i}, et), nil
}

// evalListExtract is element i (1-based; negative from the end) of a list,
// or character i of a string; NULL (a list) or "" (a string) out of range.
func evalListExtract(c *Call, a []Datum) (Datum, error) {
	if c.Args[0].Type().ID == TypeVarchar {
		rs := []rune(a[0].S)
		k, ok := listIndex(a[1].I, len(rs))
		if !ok {
			return Datum{S: ""}, nil
		}
		return Datum{S: string(rs[k])}, nil
	}
	l, ok := a[0].N.(format.List)
	if !ok {
		return Datum{}, fmt.Errorf("%w: list_extract of a value that is not a list", ErrConversion)
	}
	k, ok := listIndex(a[1].I, len(l))
	if !ok {
		return NullDatum, nil
	}
	return elemDatum(l[k], c.T)
}

func bindListSlice(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 3, 4); err != nil {
		return nil, err
	}
	for _, x := range args[1:] {
		if it := x.Type(); !(it.IsInteger() || it.ID == TypeNull) || it.ID == TypeHugeInt {
			return nil, noMatch(f.Name, args)
		}
	}
	if err := castArgs(args[1:], Type{ID: TypeBigInt}); err != nil {
		return nil, err
	}
	t := args[0].Type()
	if t.ID != TypeVarchar && t.ID != TypeNull && !isListType(t) {
		return nil, noMatch(f.Name, args)
	}
	if t.ID == TypeVarchar && len(args) == 4 {
		return nil, fmt.Errorf("%w: Slice with steps has not been implemented for string types", ErrNotImplemented)
	}
	return newCall(f, args, t), nil
}

// sliceBounds turns DuckDB's 1-based inclusive bounds (negative from the
// end) into a half-open 0-based range of a sequence of n.
func sliceBounds(begin, end int64, n int) (int, int) {
	if begin < 0 {
		begin += int64(n) + 1
	}
	if end < 0 {
		end += int64(n) + 1
	}
	begin = max(begin, 1)
	end = min(end, int64(n))
	if begin > end {
		return 0, 0
	}
	return int(begin - 1), int(end)
}

func evalListSlice(c *Call, a []Datum) (Datum, error) {
	if c.T.ID == TypeVarchar {
		n := utf8.RuneCountInString(a[0].S)
		lo, hi := sliceBounds(a[1].I, a[2].I, n)
		return Datum{S: string([]rune(a[0].S)[lo:hi])}, nil
	}
	l, ok := a[0].N.(format.List)
	if !ok {
		return Datum{}, fmt.Errorf("%w: list_slice of a value that is not a list", ErrConversion)
	}
	if len(a) == 4 {
		out, err := stepSlice(l, a[1].I, a[2].I, a[3].I)
		return Datum{N: out}, err
	}
	lo, hi := sliceBounds(a[1].I, a[2].I, len(l))
	return Datum{N: slices.Clone(l[lo:hi])}, nil
}

func bindStructExtract(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	fs, ok := structFields(args[0].Type())
	if !ok {
		return nil, noMatch(f.Name, args)
	}
	c, ok := args[1].(*Const)
	switch {
	case ok && c.T.ID == TypeVarchar && !c.Value.Null:
		if unnamedFields(fs) {
			return nil, binderError("struct_extract with a string key cannot be used on an unnamed struct, use a numeric index instead")
		}
		for i, fl := range fs {
			if strings.EqualFold(fl.Name, c.Value.S) {
				return newCall(f, []Expr{args[0], &Const{Value: Datum{I: int64(i)}, T: Type{ID: TypeBigInt}}}, fl.T), nil
			}
		}
		names := make([]string, len(fs))
		for i, fl := range fs {
			names[i] = `"` + fl.Name + `"`
		}
		return nil, binderError("Could not find key \"%s\" in struct\n\nCandidate Entries: %s", c.Value.S, strings.Join(names, ", "))
	case ok && c.T.IsInteger() && !c.Value.Null:
		if c.Value.I < 1 || c.Value.I > int64(len(fs)) {
			return nil, binderError("Key index %d for struct_extract out of range", c.Value.I)
		}
		return newCall(f, []Expr{args[0], &Const{Value: Datum{I: c.Value.I - 1}, T: Type{ID: TypeBigInt}}}, fs[c.Value.I-1].T), nil
	}
	return nil, binderError("Key name for struct_extract needs to be a constant string")
}

// evalStructExtract reads the field whose position binding resolved.
func evalStructExtract(c *Call, a []Datum) (Datum, error) {
	s, ok := a[0].N.(*format.Struct)
	if !ok || int(a[1].I) >= len(s.Values) {
		return Datum{}, fmt.Errorf("%w: struct_extract of a value that is not a struct", ErrConversion)
	}
	return elemDatum(s.Values[a[1].I], c.T)
}

func bindMapExtract(f *ScalarFunc, args []Expr) (Expr, error) {
	return bindMapLookup(f, args, func(vt Type) Type { return vt })
}

// bindMapLookup binds a lookup of a key in a map: the key is cast to the
// map's key type, and result gives the call's type from the value type.
func bindMapLookup(f *ScalarFunc, args []Expr, result func(Type) Type) (Expr, error) {
	if err := arity(f, args, 2, 2); err != nil {
		return nil, err
	}
	kt, vt, ok := mapTypes(args[0].Type())
	if !ok {
		return nil, noMatch(f.Name, args)
	}
	k, err := castTo(args[1], kt)
	if err != nil {
		return nil, err
	}
	return newCall(f, []Expr{args[0], k}, result(vt)), nil
}

func evalMapExtract(c *Call, a []Datum) (Datum, error) {
	m, ok := a[0].N.(*format.Map)
	if !ok {
		return Datum{}, fmt.Errorf("%w: map_extract_value of a value that is not a map", ErrConversion)
	}
	i, err := mapFind(m, a[1], c.Args[1].Type())
	if err != nil || i < 0 {
		return NullDatum, err
	}
	return elemDatum(m.Values[i], c.T)
}

// mapFind returns the position of key (of type kt) among m's keys, or -1.
func mapFind(m *format.Map, key Datum, kt Type) (int, error) {
	for i, kv := range m.Keys {
		k, err := elemDatum(kv, kt)
		if err != nil {
			return -1, err
		}
		if !k.Null && Compare(k, key, kt) == 0 {
			return i, nil
		}
	}
	return -1, nil
}

func bindMapParts(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	kt, vt, ok := mapTypes(args[0].Type())
	if !ok {
		return nil, noMatch(f.Name, args)
	}
	if f.Name == "map_values" {
		return newCall(f, args, listOf(vt)), nil
	}
	return newCall(f, args, listOf(kt)), nil
}

func evalMapParts(c *Call, a []Datum) (Datum, error) {
	m, ok := a[0].N.(*format.Map)
	if !ok {
		return Datum{}, fmt.Errorf("%w: %s of a value that is not a map", ErrConversion, c.Name)
	}
	if c.Name == "map_values" {
		return Datum{N: format.List(slices.Clone(m.Values))}, nil
	}
	return Datum{N: format.List(slices.Clone(m.Keys))}, nil
}

// bindListSame binds functions whose result is a list of the argument's type.
func bindListSame(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	if _, err := listArg(f.Name, args); err != nil {
		return nil, err
	}
	return newCall(f, args, args[0].Type()), nil
}

func bindListSort(f *ScalarFunc, args []Expr) (Expr, error) {
	hi := 3
	if f.Name == "list_reverse_sort" {
		hi = 2
	}
	if err := arity(f, args, 1, hi); err != nil {
		return nil, err
	}
	if _, err := listArg(f.Name, args); err != nil {
		return nil, err
	}
	for _, x := range args[1:] {
		c, ok := x.(*Const)
		if !ok || c.T.ID != TypeVarchar || c.Value.Null {
			return nil, binderError("Sorting order must be a constant")
		}
		switch strings.ToUpper(c.Value.S) {
		case "ASC", "DESC", "NULLS FIRST", "NULLS LAST":
		default:
			return nil, fmt.Errorf("%w: Invalid sort order or null order: %s", ErrInvalidInput, c.Value.S)
		}
	}
	return newCall(f, args, args[0].Type()), nil
}

// evalListSort sorts as ORDER BY does: ascending unless asked, NULLs last
// (DuckDB's default null order) unless asked.
func evalListSort(c *Call, a []Datum) (Datum, error) {
	et, _ := listElem(c.T)
	ds, err := listDatums(a[0], et)
	if err != nil {
		return Datum{}, err
	}
	desc := c.Name == "list_reverse_sort"
	nullsFirst := false
	for i, x := range a[1:] {
		switch o := strings.ToUpper(x.S); {
		case i == 0 && c.Name == "list_sort" && (o == "ASC" || o == "DESC"):
			desc = o == "DESC"
		default:
			nullsFirst = o == "NULLS FIRST"
		}
	}
	slices.SortStableFunc(ds, func(x, y Datum) int {
		switch {
		case x.Null && y.Null:
			return 0
		case x.Null == nullsFirst && x.Null, y.Null && !nullsFirst:
			return -1
		case x.Null, y.Null:
			return 1
		}
		r := Compare(x, y, et)
		if desc {
			return -r
		}
		return r
	})
	return listDatum(ds, et)
}

// evalListDistinct drops NULLs and repeats, keeping first occurrences.
// DuckDB's order is its hash table's; pqsql keeps the list's.
func evalListDistinct(c *Call, a []Datum) (Datum, error) {
	et, _ := listElem(c.T)
	ds, err := listDatums(a[0], et)
	if err != nil {
		return Datum{}, err
	}
	var out []Datum
	seen := map[string]bool{}
	for _, d := range ds {
		if d.Null {
			continue
		}
		k := string(AppendKey(nil, d, et))
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return listDatum(out, et)
}

func evalListReverse(c *Call, a []Datum) (Datum, error) {
	l, ok := a[0].N.(format.List)
	if !ok {
		return Datum{}, fmt.Errorf("%w: list_reverse of a value that is not a list", ErrConversion)
	}
	out := slices.Clone(l)
	slices.Reverse(out)
	return Datum{N: out}, nil
}

func bindListConcat(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) < 2 {
		return nil, noMatch(f.Name, args)
	}
	t := Type{ID: TypeNull}
	for _, x := range args {
		xt := x.Type()
		if xt.ID == TypeNull {
			continue
		}
		if !isListType(xt) {
			return nil, noMatch(f.Name, args)
		}
		if t.ID == TypeNull {
			t = xt
			continue
		}
		if xt != t {
			et1, _ := listElem(t)
			et2, _ := listElem(xt)
			ct, ok := commonType(et1, et2)
			if !ok {
				return nil, noMatch(f.Name, args)
			}
			t = listOf(ct)
		}
	}
	if t.ID == TypeNull {
		t = listOf(t)
	}
	for i, x := range args {
		if x.Type().ID != TypeNull && x.Type() != t {
			c, err := castTo(x, t)
			if err != nil {
				return nil, err
			}
			args[i] = c
		}
	}
	return newCall(f, args, t), nil
}

// evalListConcat joins the lists, skipping NULL ones; all NULL is NULL.
func evalListConcat(c *Call, a []Datum) (Datum, error) {
	var out format.List
	null := true
	for _, d := range a {
		if d.Null {
			continue
		}
		null = false
		l, _ := d.N.(format.List)
		out = append(out, l...)
	}
	if null {
		return NullDatum, nil
	}
	if out == nil {
		out = format.List{}
	}
	return Datum{N: out}, nil
}

func bindFlatten(f *ScalarFunc, args []Expr) (Expr, error) {
	if err := arity(f, args, 1, 1); err != nil {
		return nil, err
	}
	et, err := listArg(f.Name, args)
	if err != nil {
		return nil, err
	}
	if et.ID == TypeNull {
		return newCall(f, args, args[0].Type()), nil
	}
	if !isListType(et) {
		return nil, noMatch(f.Name, args)
	}
	return newCall(f, args, et), nil
}

// evalFlatten joins a list of lists one level deep, skipping NULL lists.
func evalFlatten(c *Call, a []Datum) (Datum, error) {
	l, ok := a[0].N.(format.List)
	if !ok {
		return Datum{}, fmt.Errorf("%w: flatten of a value that is not a list", ErrConversion)
	}
	out := format.List{}
	for _, v := range l {
		if inner, ok := v.(format.List); ok {
			out = append(out, inner...)
		}
	}
	return Datum{N: out}, nil
}

// listAggs are the aggregates list_aggregate computes, with their names
// as list_<name> functions.
var listAggs = map[string]bool{"sum": true, "min": true, "max": true, "count": true, "first": true, "last": true, "avg": true}

func bindListAgg(f *ScalarFunc, args []Expr) (Expr, error) {
	agg := strings.TrimPrefix(f.Name, "list_")
	lo, hi := 1, 1
	if f.Name == "list_aggregate" {
		lo, hi = 2, 2
	}
	if err := arity(f, args, lo, hi); err != nil {
		return nil, err
	}
	et, err := listArg(f.Name, args)
	if err != nil {
		return nil, err
	}
	if f.Name == "list_aggregate" {
		c, ok := args[1].(*Const)
		if !ok || c.T.ID != TypeVarchar || c.Value.Null {
			return nil, binderError("Aggregate function name must be a constant")
		}
		agg = strings.ToLower(c.Value.S)
		if !listAggs[agg] {
			if aggregateFuncs[agg] == nil {
				return nil, binderError("Aggregate Function with name %s does not exist!", agg)
			}
			return nil, fmt.Errorf("%w: list_aggregate with %s", ErrNotImplemented, agg)
		}
		args = []Expr{args[0], &Const{Value: Datum{S: agg}, T: tVarchar}}
	}
	if et.ID == TypeNested {
		return nil, fmt.Errorf("%w: %s over %s", ErrNotImplemented, f.Name, args[0].Type())
	}
	var t Type
	switch agg {
	case "min", "max", "first", "last":
		t = et
	case "count":
		t = Type{ID: TypeBigInt}
	default:
		if et.ID == TypeNull {
			et = tInteger
		}
		fn := aggregateFuncs[agg]
		if t, err = fn.Result(et); err != nil {
			return nil, err
		}
		if agg == "avg" && t.ID != TypeDouble {
			return nil, fmt.Errorf("%w: %s over %s", ErrNotImplemented, f.Name, args[0].Type())
		}
	}
	c := newCall(f, args, t)
	if len(args) == 1 {
		c.Args = append(c.Args, &Const{Value: Datum{S: agg}, T: tVarchar})
	}
	return c, nil
}

// evalListAgg aggregates a list's non-NULL elements as the aggregate over
// a column of them would; an empty list gives NULL (0 for count).
func evalListAgg(c *Call, a []Datum) (Datum, error) {
	et, _ := listElem(c.Args[0].Type())
	ds, err := listDatums(a[0], et)
	if err != nil {
		return Datum{}, err
	}
	agg := a[len(a)-1].S
	var vals []Datum
	for _, d := range ds {
		if !d.Null {
			vals = append(vals, d)
		}
	}
	if agg == "count" {
		return Datum{I: int64(len(vals))}, nil
	}
	if len(vals) == 0 {
		return NullDatum, nil
	}
	switch agg {
	case "first":
		return vals[0], nil
	case "last":
		return vals[len(vals)-1], nil
	case "min", "max":
		best := vals[0]
		for _, d := range vals[1:] {
			r := Compare(d, best, et)
			if agg == "min" && r < 0 || agg == "max" && r > 0 {
				best = d
			}
		}
		return best, nil
	}
	// sum and avg in the result type.
	switch {
	case c.T.ID == TypeDouble || c.T.ID == TypeFloat:
		s := 0.0
		for _, d := range vals {
			x, err := CastDatum(d, et, tDouble)
			if err != nil {
				return Datum{}, err
			}
			s += x.F
		}
		if agg == "avg" {
			s /= float64(len(vals))
		}
		return Datum{F: s}, nil
	case c.T.ID == TypeDecimal:
		s := new(big.Int)
		for _, d := range vals {
			s.Add(s, bigOf(d, et))
		}
		return Datum{Big: s}, nil
	}
	s := new(big.Int)
	for _, d := range vals {
		s.Add(s, bigOf(d, et))
	}
	if c.T.ID == TypeHugeInt {
		return Datum{Big: s}, nil
	}
	return CastDatum(Datum{Big: s}, Type{ID: TypeHugeInt}, c.T)
}
