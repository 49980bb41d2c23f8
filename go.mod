module github.com/pqsql/pqsql

go 1.26.0

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/apache/thrift v0.25.0
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/chzyer/readline v1.5.1
	github.com/creack/pty v1.1.24
	github.com/klauspost/compress v1.20.4
	github.com/peterstace/simplefeatures v0.50.0
	github.com/pierrec/lz4/v4 v4.1.33
	github.com/xwb1989/sqlparser v0.0.0-20180606152119-120387863bf2
	golang.org/x/term v0.48.0
)

require golang.org/x/sys v0.50.0 // indirect
