// Package objtest serves files over S3 and HTTP on 127.0.0.1 for tests:
// an in-process S3 server (gofakes3) that checks SigV4 signatures, a
// plain HTTP file server with Range support, and a fault-injecting layer
// in front of both (latency, 500s, reset connections, short bodies). It
// records every request, so that tests count them.
package objtest
