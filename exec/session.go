package exec

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/pqsql/pqsql/storage"
)

// Settings are the session's switches, changed with SET.
type Settings struct {
	// Pushdown mechanisms; all on by default.
	Statistics, PageIndex, Bloom, Dictionary bool
	// Threads bounds parallel row-group scans; 0 means one per core.
	Threads int
	// MapWidth is the width EXPLAIN (FORMAT MAP) fits (0: 100 columns);
	// MapColor colours its marks, for a terminal. The shell sets both.
	MapWidth int
	MapColor bool
	// Progress, when set, counts the bytes the running statement reads of
	// those its plans will read, for a progress bar.
	Progress *Progress
	// Optimizer rewrites plans before they run (package optimizer); off,
	// queries run as planned, and EXPLAIN shows that plan.
	Optimizer bool
	// JoinFilters lets an inner join rule out probe rows, and the pages
	// holding them, with its build side's keys.
	JoinFilters bool
	// MemoryLimit bounds the memory of a statement's sorts, hash tables,
	// DISTINCT keys, window partitions and buffered results, in bytes; 0
	// means the default, 80% of the machine's memory. Past it, sorts and
	// aggregations spill to TempDirectory; the others fail with an Out of
	// Memory error.
	MemoryLimit int64
	// TempDirectory holds the temporary files of spilling statements;
	// empty means os.TempDir()/pqsql-<pid>, removed when emptied.
	TempDirectory string
}

// A Session holds what lives between statements: views and settings.
type Session struct {
	Settings Settings
	views    map[string]string
	// store opens local and remote files and holds the secrets, the
	// storage settings and the cache of remote footers and indexes.
	store *storage.Store
}

// NewSession returns a session with default settings.
func NewSession() *Session {
	return &Session{
		Settings: Settings{Statistics: true, PageIndex: true, Bloom: true, Dictionary: true, Optimizer: true, JoinFilters: true},
		views:    map[string]string{},
		store:    storage.NewStore(),
	}
}

// Execute runs one SQL statement and returns its whole result. Cancelling
// ctx stops a running query. A panic while running it (in this goroutine
// or, passed on, in a scan worker's) becomes an error of class Internal
// naming the statement; the session stays usable.
func (s *Session) Execute(ctx context.Context, text string) (*Result, error) {
	res, err := s.Stream(ctx, text)
	if err != nil || !res.Streamed() {
		return res, err
	}
	defer res.Close()
	var bs []*batch
	for {
		b, err := res.Next()
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		bs = append(bs, &batch{cols: b.Vectors, n: b.Len})
	}
	out := &Result{Columns: res.Columns, Types: res.Types, Message: res.Message}
	for _, b := range packBatches(bs) {
		out.Batches = append(out.Batches, &Batch{Vectors: b.cols, Len: b.n})
	}
	return out, nil
}

// Stream runs one SQL statement as Execute does, except that a query's
// rows are not collected: the result's Next hands them out as the query
// makes them, so the first rows of a scan come before it ends and a
// result of any size takes constant memory. The caller must Close the
// result. Statements other than queries return their whole result.
func (s *Session) Stream(ctx context.Context, text string) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, s.internalError(text, r)
		}
	}()
	return s.execute(ctx, text)
}

// guard runs f, turning a panic in it into an error of class Internal
// naming the statement.
func (s *Session) guard(text string) func(f func() error) error {
	return func(f func() error) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = s.internalError(text, r)
			}
		}()
		return f()
	}
}

func (s *Session) internalError(text string, r any) error {
	return &InternalError{Statement: text, Panic: r, Stack: debug.Stack()}
}

// An InternalError is a statement that panicked: a bug in pqsql, never a
// property of the input. errors.Is matches it against ErrInternal.
type InternalError struct {
	Statement string // the statement's text
	Panic     any    // the value the code panicked with
	Stack     []byte // the goroutine's stack where it was recovered
}

func (e *InternalError) Error() string {
	stmt := e.Statement
	if len(stmt) > 200 {
		stmt = stmt[:200] + "..."
	}
	return fmt.Sprintf("%s: panic running %q: %v", ErrInternal, stmt, e.Panic)
}

// Unwrap lets errors.Is find ErrInternal, and the panic value when it is
// itself an error (a runtime error, say).
func (e *InternalError) Unwrap() []error {
	if err, ok := e.Panic.(error); ok {
		return []error{ErrInternal, err}
	}
	return []error{ErrInternal}
}

// Views returns the names of the session's views, sorted.
func (s *Session) Views() []string { return sortedKeys(s.views) }

// ViewText returns the query a view was created with, as written.
func (s *Session) ViewText(name string) (string, bool) {
	t, ok := s.views[strings.ToLower(name)]
	return t, ok
}

// Storage returns the session's storage: its secrets, settings and cache.
func (s *Session) Storage() *storage.Store { return s.store }
