package planner

import "fmt"

// row(a, b, ...) and the tuple (a, b, ...) build an unnamed STRUCT, typed
// STRUCT(INTEGER, VARCHAR) and printed (1, a), whose fields are reached by
// position.
func init() {
	registerScalar(&ScalarFunc{Name: "row", SeesNulls: true, Bind: bindRow, Eval: evalStructPack})
}

func bindRow(f *ScalarFunc, args []Expr) (Expr, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%w: Can't pack nothing into a struct", ErrInvalidInput)
	}
	fs := make([]structField, len(args))
	for i, a := range args {
		if a.Type().ID == TypeNull {
			args[i] = &Const{Value: NullDatum, T: Type{ID: TypeNull}}
		}
		fs[i] = structField{T: args[i].Type()}
	}
	return newCall(f, args, structType(fs)), nil
}
