// Package errclass holds the one vocabulary of error classes every layer of
// pqsql uses: DuckDB's (Binder, Catalog, Conversion, IO, Invalid Input, Not
// implemented, Out of Memory, Out of Range, Parser, Internal).
//
// A class is a sentinel error whose text is the prefix DuckDB prints
// ("Binder Error"). Packages wrap a class with %w and context, or declare a
// narrower sentinel with Sub that keeps its own text and still matches its
// class with errors.Is. Callers branch with errors.Is, never on message text.
// The package imports only the standard library, so every layer, format
// included, may use it.
package errclass
