package sql

import "strings"

const expectSource = "expected a source: 'file.parquet', read_parquet(...), parquet_metadata(...), parquet_schema(...), a view name or a subquery"

// fileFunctions read Parquet files; metaFunctions read their metadata.
var (
	fileFunctions = map[string]bool{"read_parquet": true, "parquet_scan": true}
	metaFunctions = map[string]bool{"parquet_metadata": true, "parquet_schema": true, "parquet_file_metadata": true, "parquet_kv_metadata": true}
)

// SecretsFunction lists the session's secrets, redacted; it takes no
// arguments.
const SecretsFunction = "duckdb_secrets"

// SettingsFunction lists the session's settings, as DuckDB's
// duckdb_settings(); it takes no arguments.
const SettingsFunction = "duckdb_settings"

// parseSource reads one source starting at lowered token i and returns it
// with the index of the token after it. A parenthesized subquery is not a
// source; callers handle "(" themselves.
func (p *parser) parseSource(out []otok, i int) (*Source, int, error) {
	if i >= len(out) {
		return nil, 0, p.errOut(out, i, ErrSyntax, expectSource)
	}
	o := out[i]
	var src *Source
	next := i + 1
	switch {
	case o.kind == tkString:
		if o.val == "" {
			return nil, 0, p.errOut(out, i, ErrSyntax, "expected a non-empty path")
		}
		src = &Source{Kind: SourceFiles, Paths: []string{o.val}}
	case (o.kind == tkWord && o.kw != "" || o.kind == tkQIdent) && isOpTok(out, i+1, "("):
		name := strings.ToLower(o.val)
		if o.kind == tkWord && (name == SecretsFunction || name == SettingsFunction) {
			if !isOpTok(out, i+2, ")") {
				return nil, 0, p.errOut(out, i+2, ErrSyntax, "expected \")\": "+name+"() takes no arguments")
			}
			src, next = &Source{Kind: SourceFunction, Function: name}, i+3
			break
		}
		if o.kind == tkWord && seriesFunctions[name] {
			var err error
			if src, next, err = p.seriesSource(out, i, name); err != nil {
				return nil, 0, err
			}
			break
		}
		if o.kind == tkQIdent || !fileFunctions[name] && !metaFunctions[name] {
			return nil, 0, p.errOut(out, i, ErrUnsupported,
				"unknown table function: expected read_parquet, parquet_scan, parquet_metadata, parquet_schema, parquet_file_metadata or parquet_kv_metadata")
		}
		var err error
		src, next, err = p.sourceFunction(out, i, name)
		if err != nil {
			return nil, 0, err
		}
	case o.kind == tkWord && o.kw != "" && !structural[o.kw], o.kind == tkQIdent:
		if isOpTok(out, i+1, ".") {
			return nil, 0, p.errOut(out, i+1, ErrUnsupported, "qualified names are not supported: expected an unqualified view name")
		}
		src = &Source{Kind: SourceView, Name: o.val}
	default:
		return nil, 0, p.errOut(out, i, ErrSyntax, expectSource)
	}
	if isOpTok(out, next, ".") {
		// sqlparser would read a qualified table name and lose the source.
		return nil, 0, p.errOut(out, next, ErrSyntax, "expected an alias, JOIN, WHERE or end of the FROM clause after the source")
	}
	first, last := p.toks[out[i].orig], p.toks[out[next-1].orig]
	src.Text = p.text[first.off:last.end]
	src.Pos = p.pos(first.off)
	return src, next, nil
}

// sourceFunction parses name(paths [, option = value]...) where paths is a
// string or a list of strings, and returns the index after ")".
func (p *parser) sourceFunction(out []otok, i int, name string) (*Source, int, error) {
	src := &Source{Kind: SourceFiles}
	if metaFunctions[name] {
		src.Kind, src.Function = SourceFunction, name
	}
	j := i + 2
	switch {
	case j < len(out) && out[j].kind == tkString:
		if out[j].val == "" {
			return nil, 0, p.errOut(out, j, ErrSyntax, "expected a non-empty path")
		}
		src.Paths = []string{out[j].val}
		j++
	case isOpTok(out, j, "["):
		j++
		for {
			if j >= len(out) || out[j].kind != tkString {
				if isOpTok(out, j, "]") && len(src.Paths) == 0 {
					return nil, 0, p.errOut(out, j, ErrSyntax, "expected at least one path in the list")
				}
				return nil, 0, p.errOut(out, j, ErrSyntax, "expected a path string")
			}
			if out[j].val == "" {
				return nil, 0, p.errOut(out, j, ErrSyntax, "expected a non-empty path")
			}
			src.Paths = append(src.Paths, out[j].val)
			j++
			if isOpTok(out, j, ",") {
				j++
				continue
			}
			if !isOpTok(out, j, "]") {
				return nil, 0, p.errOut(out, j, ErrSyntax, `expected "," or "]"`)
			}
			j++
			break
		}
	default:
		return nil, 0, p.errOut(out, j, ErrSyntax, "expected a path string or a list of path strings")
	}
	seen := map[string]bool{}
	for {
		if isOpTok(out, j, ")") {
			return src, j + 1, nil
		}
		if !isOpTok(out, j, ",") {
			return nil, 0, p.errOut(out, j, ErrSyntax, `expected "," or ")"`)
		}
		j++
		if j >= len(out) || out[j].kind != tkWord || out[j].kw == "" {
			return nil, 0, p.errOut(out, j, ErrSyntax, "expected an option name")
		}
		opt := out[j].kw
		if src.Kind != SourceFiles || !fileOptions[opt] {
			msg := "unknown option: expected hive_partitioning, filename, file_row_number or union_by_name"
			if src.Kind != SourceFiles {
				msg = "unknown option: " + name + " takes no options"
			}
			return nil, 0, p.errOut(out, j, ErrUnsupported, msg)
		}
		if seen[opt] {
			return nil, 0, p.errOut(out, j, ErrSyntax, "option given twice")
		}
		seen[opt] = true
		j++
		if !isOpTok(out, j, "=") && !isOpTok(out, j, ":=") {
			return nil, 0, p.errOut(out, j, ErrSyntax, `expected "=" or ":="`)
		}
		j++
		switch opt {
		case "filename":
			// filename = 'col' names the column; a boolean turns "filename" on or off.
			if j < len(out) && out[j].kind == tkString {
				if out[j].val == "" {
					return nil, 0, p.errOut(out, j, ErrSyntax, "expected a non-empty column name")
				}
				src.Filename = out[j].val
				break
			}
			on, ok := boolValue(out, j)
			if !ok {
				return nil, 0, p.errOut(out, j, ErrSyntax, "expected true, false, 1, 0 or a column name")
			}
			if src.Filename = ""; on {
				src.Filename = "filename"
			}
		case "file_row_number":
			on, ok := boolValue(out, j)
			if !ok {
				return nil, 0, p.errOut(out, j, ErrSyntax, "expected true, false, 1 or 0")
			}
			src.FileRowNumber = on
		case "union_by_name":
			on, ok := boolValue(out, j)
			if !ok {
				return nil, 0, p.errOut(out, j, ErrSyntax, "expected true, false, 1 or 0")
			}
			src.UnionByName = on
		default:
			on, ok := boolValue(out, j)
			if !ok {
				return nil, 0, p.errOut(out, j, ErrSyntax, "expected true, false, 1 or 0")
			}
			src.HivePartitioning, src.HivePartitioningSet = on, true
		}
		j++
	}
}

// fileOptions are the read_parquet options pqsql knows.
var fileOptions = map[string]bool{"hive_partitioning": true, "filename": true, "file_row_number": true, "union_by_name": true}

// boolValue reads a boolean option value: true/false or 1/0, as DuckDB casts them.
func boolValue(out []otok, j int) (bool, bool) {
	if j >= len(out) {
		return false, false
	}
	switch o := out[j]; {
	case o.kw == "true", o.kind == tkNumber && o.val == "1":
		return true, true
	case o.kw == "false", o.kind == tkNumber && o.val == "0":
		return false, true
	}
	return false, false
}
