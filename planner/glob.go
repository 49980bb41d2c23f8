package planner

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// hasMeta reports whether a path segment holds glob characters.
func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// ExpandPaths expands the globs of a source ('*', '?', '[...]' within a
// segment, '**' for any number of directories) into existing files, each
// pattern's matches sorted. A file named twice (read_parquet(['a', 'a']),
// or by two overlapping globs) is read twice, as DuckDB does. A pattern
// that matches nothing is an error, as in DuckDB.
func ExpandPaths(patterns []string) ([]string, error) {
	var out []string
	for _, p := range patterns {
		var matches []string
		if !hasMeta(p) {
			st, err := os.Stat(p)
			if err != nil || st.IsDir() {
				return nil, fmt.Errorf("%w: No files found that match the pattern \"%s\"", ErrIO, p)
			}
			matches = []string{p}
		} else {
			var err error
			matches, err = glob(p)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %w", ErrIO, p, err)
			}
			if len(matches) == 0 {
				return nil, fmt.Errorf("%w: No files found that match the pattern \"%s\"", ErrIO, p)
			}
		}
		out = append(out, matches...)
	}
	return out, nil
}

// glob matches one pattern against the file system.
func glob(pattern string) ([]string, error) {
	segs := strings.Split(filepath.ToSlash(pattern), "/")
	i := 0
	for i < len(segs) && !hasMeta(segs[i]) {
		i++
	}
	base := strings.Join(segs[:i], "/")
	root := base
	if root == "" {
		root = "."
		if strings.HasPrefix(pattern, "/") {
			root = "/"
		}
	}
	rest := segs[i:]
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil
		}
		if matchSegs(rest, strings.Split(filepath.ToSlash(rel), "/")) {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// matchSegs matches path segments against pattern segments; "**" matches
// zero or more segments.
func matchSegs(pat, path []string) bool {
	if len(pat) == 0 {
		return len(path) == 0
	}
	if pat[0] == "**" {
		for k := 0; k <= len(path); k++ {
			if matchSegs(pat[1:], path[k:]) {
				return true
			}
		}
		return false
	}
	if len(path) == 0 {
		return false
	}
	ok, err := filepath.Match(pat[0], path[0])
	return err == nil && ok && matchSegs(pat[1:], path[1:])
}
