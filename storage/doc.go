// Package storage opens the files a query names, local or remote, as
// format.Sources, and expands the globs that name them.
//
// A path is local, or a URL: s3://bucket/key, gs://bucket/key (the GCS XML
// API with HMAC keys), http:// or https://. A Store lives as long as a
// session and holds what outlives one query: secrets and s3_* settings,
// clients, and a cache of each remote file's footer and indexes keyed by
// URL, size and ETag, so that a second query on a file sends no metadata
// request.
//
// A remote file costs as few requests as its reads allow: opening reads
// the footer with one suffix range request (Range: bytes=-N, no HEAD),
// which also gives the size and ETag; every later request carries If-Match
// with that ETag, so a file replaced during a query fails the query instead
// of mixing two versions. Prefetch fetches many ranges at once, in
// parallel with bounded concurrency, coalescing ranges within the
// coalescing gap while the bytes between them stay within a tenth of
// theirs (Coalesce); OpenAhead reads many files' footers in one round. A response shorter than its range is retried and
// never decoded; 5xx, 429, timeouts and reset connections are retried with
// backoff; 403, 404 and 412 fail at once. Every error names the URL, the
// status and the range, and never a secret.
package storage
