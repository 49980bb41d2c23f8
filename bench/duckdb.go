package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2"
)

// duckEngine runs queries in an embedded in-memory DuckDB, on one
// connection so that its settings hold for every query.
type duckEngine struct {
	db      *sql.DB
	conn    *sql.Conn
	version string
}

func newDuckEngine(ctx context.Context, threads int) (*duckEngine, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, fmt.Errorf("%w: open duckdb: %w", errEngine, err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%w: duckdb connection: %w", errEngine, err)
	}
	e := &duckEngine{db: db, conn: conn}
	for _, s := range []string{
		fmt.Sprintf("SET threads = %d", threads),
		// Without this DuckDB keeps file blocks in memory between queries,
		// and later runs would read nothing: both engines go through the
		// operating system's page cache alone.
		"SET enable_external_file_cache = false",
		// TIMESTAMPTZ text as pqsql prints it (pqsql has only UTC).
		"SET TimeZone = 'UTC'",
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			e.close()
			return nil, fmt.Errorf("%w: duckdb: %s: %w", errEngine, s, err)
		}
	}
	if err := conn.QueryRowContext(ctx, "SELECT version()").Scan(&e.version); err != nil {
		e.close()
		return nil, fmt.Errorf("%w: duckdb version: %w", errEngine, err)
	}
	return e, nil
}

func (e *duckEngine) name() string { return "DuckDB" }

func (e *duckEngine) close() error {
	e.conn.Close()
	return e.db.Close()
}

func (e *duckEngine) exec(ctx context.Context, q boundQuery) (func() ([]string, error), error) {
	if q.csvOut != "" {
		copySQL := "COPY (" + q.sql + ") TO " + quoteSQL(q.csvOut) + " (HEADER, DELIMITER ',')"
		if _, err := e.conn.ExecContext(ctx, copySQL); err != nil {
			return nil, err
		}
		return func() ([]string, error) { return fileAnswer(q.csvOut) }, nil
	}
	rows, err := e.conn.QueryContext(ctx, q.sql)
	if err != nil {
		return nil, err
	}
	// Every row is fetched, none converted to Go values: what is timed is
	// DuckDB's work, not the driver's.
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return nil, err
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	return func() ([]string, error) { return e.answer(ctx, q.sql) }, nil
}

// answer runs q again wrapped as SELECT COLUMNS(*)::VARCHAR, so that every
// value is DuckDB's own CAST(v AS VARCHAR) text.
func (e *duckEngine) answer(ctx context.Context, q string) ([]string, error) {
	rows, err := e.conn.QueryContext(ctx, "SELECT COLUMNS(*)::VARCHAR FROM (\n"+q+"\n) AS bench_q")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	cells := make([]string, len(cols))
	nulls := make([]bool, len(cols))
	var out []string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			cells[i], nulls[i] = v.String, !v.Valid
		}
		out = append(out, rowText(cells, nulls))
	}
	return out, rows.Err()
}

// quoteSQL quotes s as an SQL string literal.
func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
