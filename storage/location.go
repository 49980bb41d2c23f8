package storage

import (
	"fmt"
	"strings"
)

// A Location is a parsed path: local (Scheme ""), or the bucket and key of
// an s3:// or gs:// URL, or an http(s) URL.
type Location struct {
	// Scheme is "", "s3", "gs", "http" or "https". s3a://, s3n:// read as
	// s3, gcs:// as gs, as in DuckDB.
	Scheme string
	Bucket string
	Key    string
	// Raw is the path as written.
	Raw string
}

// IsRemote reports whether path names an object behind a URL.
func IsRemote(path string) bool { return Parse(path).Scheme != "" }

// Parse splits a path into its location. Anything without a known URL
// scheme is a local path.
func Parse(path string) Location {
	scheme, rest, ok := strings.Cut(path, "://")
	if !ok {
		return Location{Raw: path}
	}
	switch strings.ToLower(scheme) {
	case "s3", "s3a", "s3n":
		scheme = "s3"
	case "r2", "az", "azure", "abfss", "hf", "gcss":
		// Object stores DuckDB reaches and pqsql does not: an error, not
		// a local path that is not found.
		return Location{Scheme: strings.ToLower(scheme), Raw: path}
	case "gs", "gcs":
		scheme = "gs"
	case "http", "https":
		return Location{Scheme: strings.ToLower(scheme), Raw: path}
	default:
		return Location{Raw: path}
	}
	bucket, key, _ := strings.Cut(rest, "/")
	return Location{Scheme: scheme, Bucket: bucket, Key: key, Raw: path}
}

// url is the location with its scheme as Parse normalised it.
func (l Location) url() string {
	if l.Scheme == "http" || l.Scheme == "https" || l.Scheme == "" {
		return l.Raw
	}
	return fmt.Sprintf("%s://%s/%s", l.Scheme, l.Bucket, l.Key)
}

// prefixOf is the key prefix before the first glob character of key.
func prefixOf(key string) string {
	if i := strings.IndexAny(key, "*?[{"); i >= 0 {
		return key[:i]
	}
	return key
}

// hasMeta reports whether a path holds glob characters.
func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }
