package main

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// Session is one DuckDB in-memory database with one connection, so views
// and settings made by a file's statements reach its later queries, as the
// runner's pqsql session does.
type Session struct {
	db   *sql.DB
	conn *sql.Conn
}

// OpenSession starts a fresh DuckDB database. TimeZone is pinned to UTC so
// TIMESTAMPTZ text does not depend on the machine.
func OpenSession(ctx context.Context) (*Session, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, fmt.Errorf("open duckdb: %w", err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("duckdb connection: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "SET TimeZone = 'UTC'"); err != nil {
		conn.Close()
		db.Close()
		return nil, fmt.Errorf("duckdb: pin TimeZone: %w", err)
	}
	return &Session{db: db, conn: conn}, nil
}

// Close ends the session.
func (s *Session) Close() error {
	s.conn.Close()
	return s.db.Close()
}

// Result is a query's answer in the suite's terms: one type letter per
// column and each row as tab-separated cells.
type Result struct {
	Types string
	Rows  []string
}

// Exec runs a statement and drains any rows it returns, so errors raised
// while producing rows count too.
func (s *Session) Exec(ctx context.Context, text string) error {
	rows, err := s.conn.QueryContext(ctx, trimSQL(text))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// trimSQL drops trailing blanks and semicolons, so the text can sit inside
// a subquery.
func trimSQL(text string) string {
	return strings.TrimRight(strings.TrimSpace(text), "; \t\n")
}

// Query runs text twice: raw, for the column types and values, and wrapped
// as SELECT COLUMNS(*)::VARCHAR FROM (text), so every value is rendered by
// DuckDB's own CAST(v AS VARCHAR). The two runs are compared cell by cell
// where a raw value can be checked against its text, which guards against
// the wrapper changing the row order (not for rowsort records, whose order
// is free). Statements that cannot be wrapped
// (none in the suite today) fall back to rendering the raw values, which is
// allowed only for strings, integers, booleans and NULL.
func (s *Session) Query(ctx context.Context, text string, rowsort bool) (Result, error) {
	text = trimSQL(text)
	types, raw, err := s.rawQuery(ctx, text)
	if err != nil {
		return Result{}, err
	}
	var res Result
	for _, t := range types {
		res.Types += typeLetter(t)
	}
	cells, werr := s.wrappedQuery(ctx, text)
	if werr != nil {
		cells = make([][]*string, len(raw))
		for i, row := range raw {
			cells[i] = make([]*string, len(row))
			for c, v := range row {
				t, ok := plainText(v)
				if !ok {
					return Result{}, fmt.Errorf("wrapping for VARCHAR failed (%v) and column %d holds a %T", werr, c+1, v)
				}
				cells[i][c] = t
			}
		}
	}
	unchecked := raw == nil
	if unchecked && werr != nil {
		return Result{}, werr
	}
	if !unchecked && len(cells) != len(raw) {
		return Result{}, fmt.Errorf("%w: %d rows raw, %d rendered", ErrOrder, len(raw), len(cells))
	}
	for i, row := range cells {
		if len(row) != len(types) {
			return Result{}, fmt.Errorf("%w: row %d has %d cells, want %d", ErrOrder, i+1, len(row), len(types))
		}
		out := make([]string, len(row))
		for c, cell := range row {
			// A rowsort record's order is free, so only an ordered one is
			// checked; there a mismatch also means DuckDB's own order is not
			// deterministic (ties in ORDER BY, or none at all).
			if !rowsort && !unchecked && !sameValue(raw[i][c], cell) {
				return Result{}, fmt.Errorf("%w: row %d column %d: raw %v, rendered %v (is the ORDER BY total?)", ErrOrder, i+1, c+1, raw[i][c], deref(cell))
			}
			switch {
			case cell == nil:
				out[c] = "NULL"
			case *cell == "":
				out[c] = "(empty)"
			case strings.ContainsAny(*cell, "\t\n\r"):
				return Result{}, fmt.Errorf("%w: row %d column %d: %q", ErrRender, i+1, c+1, *cell)
			default:
				out[c] = *cell
			}
		}
		res.Rows = append(res.Rows, strings.Join(out, "\t"))
	}
	return res, nil
}

// Rendered runs text once, wrapped as Query's second run, and returns its
// rows in the suite's terms without their types or an order check: what
// the differential tester compares. A query the wrapper cannot take falls
// back to Query.
func (s *Session) Rendered(ctx context.Context, text string) ([]string, error) {
	text = trimSQL(text)
	cells, err := s.wrappedQuery(ctx, text)
	if err != nil {
		res, qerr := s.Query(ctx, text, true)
		return res.Rows, qerr
	}
	rows := make([]string, 0, len(cells))
	for i, row := range cells {
		out := make([]string, len(row))
		for c, cell := range row {
			switch {
			case cell == nil:
				out[c] = "NULL"
			case *cell == "":
				out[c] = "(empty)"
			case strings.ContainsAny(*cell, "\t\n\r"):
				return nil, fmt.Errorf("%w: row %d column %d: %q", ErrRender, i+1, c+1, *cell)
			default:
				out[c] = *cell
			}
		}
		rows = append(rows, strings.Join(out, "\t"))
	}
	return rows, nil
}

func deref(p *string) string {
	if p == nil {
		return "NULL"
	}
	return *p
}

func (s *Session) rawQuery(ctx context.Context, text string) ([]string, [][]any, error) {
	rows, err := s.conn.QueryContext(ctx, text)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, err
	}
	types := make([]string, len(cts))
	for i, ct := range cts {
		types[i] = ct.DatabaseTypeName()
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cts))
		ptrs := make([]any, len(cts))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		// The Go driver cannot hold some types (TIME_NS); DuckDB itself
		// answered, so the wrapped run renders the values unchecked.
		if strings.Contains(err.Error(), "database/sql/driver: unsupported data type") {
			return types, nil, nil
		}
		return nil, nil, err
	}
	return types, out, nil
}

func (s *Session) wrappedQuery(ctx context.Context, text string) ([][]*string, error) {
	rows, err := s.conn.QueryContext(ctx, "SELECT COLUMNS(*)::VARCHAR FROM (\n"+text+"\n) AS oracle_q")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]*string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]*string, len(cols))
		for i, v := range vals {
			if v.Valid {
				row[i] = &v.String
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// typeLetter maps a DuckDB type name to the suite's column letter: I for
// integers, R for FLOAT/DOUBLE, T for everything else (decimals, text,
// booleans, dates, ...).
func typeLetter(name string) string {
	switch name {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
		"UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT":
		return "I"
	case "FLOAT", "DOUBLE":
		return "R"
	}
	return "T"
}

// plainText renders the raw values whose text is unambiguous.
func plainText(v any) (*string, bool) {
	var s string
	switch x := v.(type) {
	case nil:
		return nil, true
	case string:
		s = x
	case bool:
		s = strconv.FormatBool(x)
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, int, uint, *big.Int:
		s = fmt.Sprint(x)
	default:
		return nil, false
	}
	return &s, true
}

// sameValue reports whether a rendered cell can be the text of a raw value;
// kinds it cannot judge count as the same.
func sameValue(raw any, cell *string) bool {
	if raw == nil || cell == nil {
		return raw == nil && cell == nil
	}
	text := *cell
	if p, ok := plainText(raw); ok {
		return *p == text
	}
	switch x := raw.(type) {
	case float64:
		return sameFloat(x, text, 64)
	case float32:
		return sameFloat(float64(x), text, 32)
	case duckdb.Decimal:
		r, ok := new(big.Rat).SetString(text)
		if !ok {
			return false
		}
		want := new(big.Rat).SetFrac(x.Value, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Scale)), nil))
		return r.Cmp(want) == 0
	case time.Time:
		// DATE, TIMESTAMP and TIMESTAMPTZ (UTC) text starts with the date,
		// except for TIME, BC dates, years past 9999 and the values DuckDB
		// keeps as its infinity sentinels.
		if x.Year() <= 1 || x.Year() > 9999 || text == "infinity" || text == "-infinity" {
			return true
		}
		return strings.HasPrefix(text, x.UTC().Format("2006-01-02"))
	}
	return true
}

func sameFloat(x float64, text string, bits int) bool {
	switch text {
	case "nan", "-nan":
		return math.IsNaN(x)
	case "inf":
		return math.IsInf(x, 1)
	case "-inf":
		return math.IsInf(x, -1)
	}
	f, err := strconv.ParseFloat(text, bits)
	return err == nil && f == x && math.Signbit(f) == math.Signbit(x)
}
