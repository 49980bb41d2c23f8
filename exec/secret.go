package exec

import (
	"fmt"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/storage"
)

// createSecret adds a secret to the session's storage. Secrets live as
// long as the session; PERSISTENT would write keys to disk and is refused.
func (s *Session) createSecret(st *planner.CreateSecret) (*Result, error) {
	if st.Persistent {
		return nil, fmt.Errorf("%w: PERSISTENT secrets: secrets live for the session only", ErrNotImplemented)
	}
	sec, err := storage.NewSecret(st.Name, st.Options)
	if err != nil {
		return nil, err
	}
	if err := s.store.CreateSecret(sec, st.OrReplace, st.IfNotExists); err != nil {
		return nil, err
	}
	return &Result{}, nil
}

// secretRows are duckdb_secrets()'s rows: the secrets, keys redacted.
func (x *executor) secretRows() [][]planner.Datum {
	st := x.store
	if st == nil {
		st = defaultStore
	}
	var rows [][]planner.Datum
	for _, sec := range st.Secrets() {
		scope := format.List{}
		for _, sc := range sec.Scopes() {
			scope = append(scope, format.Scalar{Logical: format.Logical{Kind: format.KindString},
				Values: &format.Values{Type: meta.ByteArray, Bytes: [][]byte{[]byte(sc)}}})
		}
		rows = append(rows, []planner.Datum{str(sec.Name), str(sec.Type), str(sec.Provider), boolean(false),
			str("memory"), {N: scope}, str(sec.Redacted())})
	}
	return rows
}
