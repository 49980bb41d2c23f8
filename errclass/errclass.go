package errclass

import "errors"

// The classes, named as DuckDB names them in its messages.
var (
	// Binder means a name or type in a query that does not resolve.
	Binder = errors.New("Binder Error")
	// Catalog means a view, table or setting that does not exist or
	// already exists.
	Catalog = errors.New("Catalog Error")
	// Conversion means a value that cannot be cast to the type asked for.
	Conversion = errors.New("Conversion Error")
	// IO means a file that cannot be found, opened or read.
	IO = errors.New("IO Error")
	// InvalidInput means input DuckDB refuses: a bad setting value, a file
	// that is not valid Parquet, text that is not UTF-8.
	InvalidInput = errors.New("Invalid Input Error")
	// NotImplemented means valid SQL that pqsql does not run.
	NotImplemented = errors.New("Not implemented Error")
	// OutOfMemory means a query that needs more memory than the limit allows.
	OutOfMemory = errors.New("Out of Memory Error")
	// OutOfRange means a value past its type's range.
	OutOfRange = errors.New("Out of Range Error")
	// Parser means text that is not a statement pqsql can parse.
	Parser = errors.New("Parser Error")
	// Internal means a bug in pqsql, never a property of the input.
	Internal = errors.New("INTERNAL Error")
)

// classes lists every class, for Of.
var classes = []error{Binder, Catalog, Conversion, IO, InvalidInput, NotImplemented,
	OutOfMemory, OutOfRange, Parser, Internal}

// Of returns the class err belongs to, or nil when it belongs to none.
func Of(err error) error {
	if err == nil {
		return nil
	}
	for _, c := range classes {
		if errors.Is(err, c) {
			return c
		}
	}
	return nil
}

// Sub returns a new sentinel of class: its text is text, and errors.Is
// matches it against itself and against class. It lets a package tell one
// kind of error apart from others of its class without changing what is
// printed.
func Sub(class error, text string) error {
	return &sub{class: class, text: text}
}

type sub struct {
	class error
	text  string
}

func (s *sub) Error() string { return s.text }

// Is matches the class (and, through it, whatever the class matches).
func (s *sub) Is(target error) bool { return errors.Is(s.class, target) }
