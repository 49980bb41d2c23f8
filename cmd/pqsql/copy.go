package main

import (
	"bufio"
	"context"
	"fmt"
	"os"

	"github.com/pqsql/pqsql/sql"
)

// copyTo runs COPY (query) TO 'file': the query's rows written as CSV
// (header, delimiter and null text as the options say) or as JSON, one
// object a line, as DuckDB writes them. The rows stream from the query to
// the file.
func (sh *shell) copyTo(ctx context.Context, c *sql.Copy) error {
	res, err := sh.session.Stream(ctx, c.Query)
	if err != nil {
		return err
	}
	defer res.Close()
	// A query that fails before its first row leaves no file behind.
	if err := res.Wait(); err != nil {
		return err
	}
	f, err := os.Create(c.File)
	if err != nil {
		return fmt.Errorf("COPY: cannot open %q: %w", c.File, err)
	}
	w := bufio.NewWriterSize(f, 256<<10)
	o := renderOptions{mode: modeCSV, colSep: c.Delimiter, sepSet: true, null: c.Null, nullSet: true, quoteNull: true, noHeaders: !c.Header}
	if c.Format == "json" {
		o.mode = modeJSONLines
	}
	if err := renderStreamed(ctx, w, res, o); err != nil {
		f.Close()
		return err
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("COPY: writing %q: %w", c.File, err)
	}
	return nil
}
