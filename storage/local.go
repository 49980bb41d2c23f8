package storage

import (
	"fmt"
	"os"

	"github.com/pqsql/pqsql/format"
)

// localSource is a local file, read through format.OpenLocal.
type localSource struct {
	format.Source
	close func() error
}

func (l *localSource) Close() error { return l.close() }

func openLocal(path string) (Source, error) {
	src, closer, err := format.OpenLocal(path)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	return &localSource{Source: src, close: closer.Close}, nil
}

func statLocal(path string) (int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
