package planner

import (
	"fmt"
	"strings"

	"github.com/pqsql/pqsql/sql/ast"
)

// A Lambda is the x -> body argument of a list function. Its parameters
// are appended to the row the body is evaluated on, after the columns and
// after the parameters of enclosing lambdas.
type Lambda struct {
	Params []string
	Types  []Type
	Body   Expr
}

// A LambdaParam reads a lambda's parameter: Back positions from the end
// of the row the innermost lambda's body is evaluated on.
type LambdaParam struct {
	Name string
	Back int
	T    Type
}

func (e *Lambda) Type() Type      { return e.Body.Type() }
func (e *LambdaParam) Type() Type { return e.T }

func (e *Lambda) String() string {
	ps := strings.Join(e.Params, ", ")
	if len(e.Params) > 1 {
		ps = "(" + ps + ")"
	}
	return ps + " -> " + e.Body.String()
}

func (e *LambdaParam) String() string { return e.Name }

// lambdaFuncs maps the names of the list functions that take a lambda to
// the canonical one.
var lambdaFuncs = map[string]string{
	"list_transform": "list_transform", "array_transform": "list_transform", "list_apply": "list_transform",
	"array_apply": "list_transform", "apply": "list_transform",
	"list_filter": "list_filter", "array_filter": "list_filter", "filter": "list_filter",
	"list_reduce": "list_reduce", "array_reduce": "list_reduce", "reduce": "list_reduce",
}

// lambdaScope is the parameters of one lambda being bound.
type lambdaScope struct {
	names []string
	types []Type
}

// lambdaParam resolves an unqualified name to the parameter of the
// innermost lambda that has it; nil when no lambda does.
func (b *binder) lambdaParam(e *ast.ColName) (Expr, error) {
	if !e.Qualifier.IsEmpty() {
		// x.f and x.f.g on a STRUCT parameter.
		q := e.Qualifier.Name.String()
		keys := []string{e.Name.String()}
		if qq := e.Qualifier.Qualifier.String(); qq != "" {
			q, keys = qq, []string{e.Qualifier.Name.String(), e.Name.String()}
		}
		x := b.lambdaParamNamed(q)
		if x == nil || !isStructType(x.Type()) {
			return nil, nil
		}
		for _, k := range keys {
			var err error
			if x, err = subscript(x, &Const{Value: Datum{S: k}, T: tVarchar}); err != nil {
				return nil, err
			}
		}
		return x, nil
	}
	if x := b.lambdaParamNamed(e.Name.String()); x != nil {
		return x, nil
	}
	return nil, nil
}

// lambdaParamNamed is the innermost lambda parameter called name, or nil.
func (b *binder) lambdaParamNamed(name string) Expr {
	back := 0
	for j := len(b.lambdas) - 1; j >= 0; j-- {
		s := b.lambdas[j]
		for k := len(s.names) - 1; k >= 0; k-- {
			back++
			if strings.EqualFold(s.names[k], name) {
				return &LambdaParam{Name: s.names[k], Back: back, T: s.types[k]}
			}
		}
	}
	return nil
}

// lambdaFuncEntries are the registry entries of the lambda functions: the
// binder builds their calls (binding a lambda needs the list's element
// type first), the registry knows their names and evaluates them.
var lambdaFuncEntries = map[string]*ScalarFunc{}

func init() {
	for _, name := range []string{"list_transform", "list_filter", "list_reduce"} {
		f := &ScalarFunc{Name: name, Bind: bindLambdaOutside, Lazy: evalLambdaCall}
		for alias, canon := range lambdaFuncs {
			if canon == name && alias != name {
				f.Aliases = append(f.Aliases, alias)
			}
		}
		lambdaFuncEntries[name] = f
		registerScalar(f)
	}
}

// bindLambdaOutside is reached only when a lambda function is called by
// name from inside pqsql, never from SQL (the binder handles those).
func bindLambdaOutside(f *ScalarFunc, args []Expr) (Expr, error) {
	return nil, binderError("%s expects a lambda function as its last argument", f.Name)
}

// lambdaCall binds list_transform(l, x -> body), list_filter and
// list_reduce.
func (b *binder) lambdaCall(e *ast.FuncExpr, name string) (Expr, error) {
	f := lambdaFuncEntries[name]
	if len(e.Exprs) < 2 || len(e.Exprs) > 3 || name != "list_reduce" && len(e.Exprs) != 2 {
		return nil, binderError("%s expects a list and a lambda function", name)
	}
	exprs := make([]ast.Expr, len(e.Exprs))
	for i, se := range e.Exprs {
		ae, ok := se.(*ast.AliasedExpr)
		if !ok {
			return nil, binderError("%s(*) is not a function call pqsql knows", name)
		}
		exprs[i] = ae.Expr
	}
	lf, ok := exprs[1].(*ast.Lambda)
	if !ok {
		return nil, binderError("Invalid lambda expression!")
	}
	list, err := b.bind(exprs[0])
	if err != nil {
		return nil, err
	}
	et, err := listArg(name, []Expr{list})
	if err != nil {
		return nil, err
	}
	var params []string
	for _, p := range lf.Params {
		c, ok := p.(*ast.ColName)
		if !ok || !c.Qualifier.IsEmpty() {
			return nil, binderError("Invalid lambda parameters!")
		}
		params = append(params, c.Name.String())
	}
	var types []Type
	switch name {
	case "list_reduce":
		if len(params) != 2 && len(params) != 3 {
			return nil, binderError("list_reduce expects a function with 2 or 3 arguments")
		}
		types = []Type{et, et, Type{ID: TypeBigInt}}[:len(params)]
	default:
		if len(params) != 1 && len(params) != 2 {
			return nil, binderError("%s expects a function with 1 or 2 arguments", name)
		}
		types = []Type{et, Type{ID: TypeBigInt}}[:len(params)]
	}
	var init Expr
	if len(exprs) == 3 {
		if init, err = b.bind(exprs[2]); err != nil {
			return nil, err
		}
		types[0] = init.Type()
	}
	b.lambdas = append(b.lambdas, lambdaScope{names: params, types: types})
	body, err := b.bind(lf.Body)
	b.lambdas = b.lambdas[:len(b.lambdas)-1]
	if err != nil {
		return nil, err
	}
	var t Type
	switch name {
	case "list_transform":
		t = listOf(body.Type())
	case "list_filter":
		if body, err = castTo(body, Type{ID: TypeBoolean}); err != nil {
			return nil, err
		}
		t = list.Type()
	case "list_reduce":
		if body, err = castTo(body, types[0]); err != nil {
			return nil, err
		}
		t = types[0]
	}
	args := []Expr{list, &Lambda{Params: params, Types: types, Body: body}}
	if init != nil {
		args = append(args, init)
	}
	return newCall(f, args, t), nil
}

// evalLambdaCall applies the lambda to each element of the list.
func evalLambdaCall(c *Call, row []Datum) (Datum, error) {
	ld, err := Eval(c.Args[0], row)
	if err != nil || ld.Null {
		return ld, err
	}
	lam := c.Args[1].(*Lambda)
	et, _ := listElem(c.Args[0].Type())
	if c.Args[0].Type().ID == TypeNull {
		et = Type{ID: TypeNull}
	}
	elems, err := listDatums(ld, et)
	if err != nil {
		return Datum{}, err
	}
	n := len(row)
	inner := make([]Datum, n, n+len(lam.Params))
	copy(inner, row)
	apply := func(ps ...Datum) (Datum, error) {
		return Eval(lam.Body, append(inner[:n], ps[:len(lam.Params)]...))
	}
	switch c.Name {
	case "list_transform":
		out := make([]Datum, len(elems))
		for i, d := range elems {
			if out[i], err = apply(d, Datum{I: int64(i + 1)}); err != nil {
				return Datum{}, err
			}
		}
		rt, _ := listElem(c.T)
		return listDatum(out, rt)
	case "list_filter":
		var out []Datum
		for i, d := range elems {
			keep, err := apply(d, Datum{I: int64(i + 1)})
			if err != nil {
				return Datum{}, err
			}
			if IsTrue(keep) {
				out = append(out, d)
			}
		}
		return listDatum(out, et)
	}
	// list_reduce
	start := 0
	var acc Datum
	if len(c.Args) == 3 {
		if acc, err = Eval(c.Args[2], row); err != nil {
			return Datum{}, err
		}
	} else {
		if len(elems) == 0 {
			return Datum{}, fmt.Errorf("%w: Cannot perform list_reduce on an empty input list", ErrInvalidInput)
		}
		acc, start = elems[0], 1
	}
	for i := start; i < len(elems); i++ {
		if acc, err = apply(acc, elems[i], Datum{I: int64(i + 1)}); err != nil {
			return Datum{}, err
		}
	}
	return acc, nil
}
