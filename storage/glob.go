package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/bmatcuk/doublestar/v4"
)

// Expand expands the globs of a source ('*', '?', '[...]' within a
// segment, '**' for any number of directories) into files, each pattern's
// matches sorted. A file named twice is read twice, as DuckDB does. A
// pattern that matches nothing is ErrNoFiles. Local globs walk only the
// directories a pattern can match; an unreadable directory is an error,
// not a silent gap. Remote globs list the bucket from the pattern's
// literal prefix, page by page.
func (st *Store) Expand(ctx context.Context, patterns []string) ([]string, error) {
	var out []string
	for _, p := range patterns {
		var matches []string
		var err error
		loc := Parse(p)
		switch {
		case loc.Scheme == "":
			matches, err = expandLocal(p)
		case !hasMeta(p):
			matches = []string{p}
		case loc.Scheme != "s3" && loc.Scheme != "gs" && loc.Scheme != "http" && loc.Scheme != "https":
			err = fmt.Errorf("storage: %s: %w: %s:// URLs (expected s3://, gs://, http:// or https://)", p, ErrUnsupported, loc.Scheme)
		case loc.Scheme == "http" || loc.Scheme == "https":
			err = fmt.Errorf("storage: %s: %w: globs over HTTP (a server cannot list its files)", p, ErrUnsupported)
		default:
			matches, err = st.expandRemote(ctx, loc)
		}
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("%w \"%s\"", ErrNoFiles, p)
		}
		out = append(out, matches...)
	}
	return out, nil
}

// expandLocal matches one local path or pattern.
func expandLocal(p string) ([]string, error) {
	if !hasMeta(p) {
		st, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("storage: %w", err)
		case st.IsDir():
			return nil, nil
		}
		return []string{p}, nil
	}
	slashed := collapseDoubleStars(filepath.ToSlash(p))
	base, pattern := doublestar.SplitPattern(slashed)
	if st, err := os.Stat(base); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("storage: %w", err)
	} else if !st.IsDir() {
		return nil, nil
	}
	found, err := doublestar.Glob(os.DirFS(base), pattern, doublestar.WithFailOnIOErrors(), doublestar.WithFilesOnly())
	if err != nil {
		return nil, fmt.Errorf("storage: %s: %w", p, err)
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range found {
		if seen[f] {
			continue
		}
		seen[f] = true
		full := f
		switch {
		case base == ".":
			if strings.HasPrefix(slashed, "./") {
				full = "./" + f
			}
		default:
			full = path.Join(base, f)
		}
		full = filepath.FromSlash(full)
		st, err := os.Stat(full)
		if err != nil {
			return nil, fmt.Errorf("storage: %w", err)
		}
		if st.Mode().IsRegular() { // FIFOs and devices are not files to read
			out = append(out, full)
		}
	}
	sort.Strings(out)
	return out, nil
}

// expandRemote lists the objects under a pattern's literal prefix and
// keeps those that match; their sizes are kept for partition pruning.
func (st *Store) expandRemote(ctx context.Context, loc Location) ([]string, error) {
	be, err := st.backendFor(ctx, loc)
	if err != nil {
		return nil, err
	}
	client := be.(*s3Backend).client
	pattern := collapseDoubleStars(loc.Key)
	prefix := prefixOf(pattern)
	var out []string
	sizes := map[string]int64{}
	var token *string
	for first := true; first || token != nil; first = false {
		in := &s3.ListObjectsV2Input{Bucket: aws.String(loc.Bucket), Prefix: aws.String(prefix), ContinuationToken: token}
		var page *s3.ListObjectsV2Output
		err := st.retry(ctx, func(ctx context.Context) error {
			var err error
			page, err = client.ListObjectsV2(ctx, in)
			return sdkError(err)
		})
		if err != nil {
			return nil, fmt.Errorf("storage: listing %s://%s/%s: %w", loc.Scheme, loc.Bucket, prefix, err)
		}
		token = nil
		if aws.ToBool(page.IsTruncated) {
			token = page.NextContinuationToken
		}
		for _, obj := range page.Contents {
			key := aws.ToString(obj.Key)
			if ok, _ := doublestar.Match(pattern, key); !ok {
				continue
			}
			scheme := strings.SplitN(loc.Raw, "://", 2)[0]
			u := scheme + "://" + loc.Bucket + "/" + key
			out = append(out, u)
			sizes[Parse(u).url()] = aws.ToInt64(obj.Size)
		}
	}
	st.mu.Lock()
	for k, v := range sizes {
		st.sizes[k] = v
	}
	st.mu.Unlock()
	sort.Strings(out)
	return out, nil
}

// collapseDoubleStars rewrites runs of "**" segments as one: they match
// the same paths, and each extra one multiplies the ways a matcher can
// split a path (twelve in a row never finish).
func collapseDoubleStars(p string) string {
	segs := strings.Split(p, "/")
	out := segs[:0]
	for i, s := range segs {
		if s == "**" && i > 0 && len(out) > 0 && out[len(out)-1] == "**" {
			continue
		}
		out = append(out, s)
	}
	return strings.Join(out, "/")
}
