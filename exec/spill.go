package exec

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/pqsql/pqsql/format"
)

// A spillSpace is where one statement's operators write what memory_limit
// does not let them hold: a directory of its own under temp_directory,
// made on first use and removed, with every file in it, when the statement
// ends.
type spillSpace struct {
	mu sync.Mutex
	// base is temp_directory; ownBase says pqsql made it (the default,
	// os.TempDir()/pqsql-<pid>) and removes it when it is left empty.
	base    string
	ownBase bool
	dir     string
	// files and bytes count what was written, for tests and EXPLAIN.
	files int
	bytes int64
}

// defaultTempDirectory is temp_directory when SET did not change it: one
// directory per process under the system's temporary directory.
func defaultTempDirectory() string {
	return filepath.Join(os.TempDir(), "pqsql-"+strconv.Itoa(os.Getpid()))
}

func newSpillSpace(tempDir string) *spillSpace {
	if tempDir == "" {
		return &spillSpace{base: defaultTempDirectory(), ownBase: true}
	}
	return &spillSpace{base: tempDir}
}

// create opens a new temporary file in the statement's directory.
func (s *spillSpace) create() (*os.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == "" {
		if err := os.MkdirAll(s.base, 0o700); err != nil {
			return nil, fmt.Errorf("%w: temp_directory %s: %w", ErrSpill, s.base, err)
		}
		dir, err := os.MkdirTemp(s.base, "spill-")
		if err != nil {
			return nil, fmt.Errorf("%w: temp_directory %s: %w", ErrSpill, s.base, err)
		}
		s.dir = dir
	}
	f, err := os.CreateTemp(s.dir, "run-*.bin")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSpill, err)
	}
	s.files++
	return f, nil
}

// remove deletes the statement's directory and, when pqsql made
// temp_directory and nothing else is in it, temp_directory too.
func (s *spillSpace) remove() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == "" {
		return nil
	}
	err := os.RemoveAll(s.dir)
	s.dir = ""
	if s.ownBase {
		// Another statement's directory may still be in it.
		os.Remove(s.base)
	}
	return err
}

// A spillWriter writes batches of one layout to a temporary file; the
// reader it becomes reads them back in order. Only this process reads the
// file, so the columns' types stay in memory rather than in the file.
type spillWriter struct {
	space *spillSpace
	f     *os.File
	w     *bufio.Writer
	types []*Type
	// fields numbers the STRUCT field names of nested values.
	fields fieldTable
	buf    []byte
	n      int64
	bytes  int64
}

func (s *spillSpace) newWriter() (*spillWriter, error) {
	f, err := s.create()
	if err != nil {
		return nil, err
	}
	return &spillWriter{space: s, f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

// The column kinds of a spilled batch.
const (
	spillNone  byte = iota // a column the batch does not hold
	spillNulls             // NULLs only, no values
	spillInt
	spillFloat
	spillBool
	spillStr
	spillBytes
	spillBig
	spillNested
)

// write appends b to the file.
func (sw *spillWriter) write(b *batch) error {
	if len(sw.types) < len(b.cols) {
		sw.types = append(sw.types, make([]*Type, len(b.cols)-len(sw.types))...)
	}
	buf := binary.AppendUvarint(sw.buf[:0], uint64(b.n))
	buf = binary.AppendUvarint(buf, uint64(len(b.cols)))
	for c, v := range b.cols {
		if v == nil {
			buf = append(buf, spillNone)
			continue
		}
		if sw.types[c] == nil {
			t := v.Type
			sw.types[c] = &t
		}
		var kind byte
		switch {
		case v.Nested != nil:
			kind = spillNested
		case v.Int != nil:
			kind = spillInt
		case v.Float != nil:
			kind = spillFloat
		case v.Bool != nil:
			kind = spillBool
		case v.Str != nil:
			kind = spillStr
		case v.Bytes != nil:
			kind = spillBytes
		case v.Big != nil:
			kind = spillBig
		default:
			buf = append(buf, spillNulls)
			continue
		}
		buf = append(buf, kind)
		if v.Nulls == nil {
			buf = append(buf, 0)
		} else {
			buf = append(buf, 1)
			for _, null := range v.Nulls[:b.n] {
				buf = append(buf, boolByte(null))
			}
		}
		switch kind {
		case spillInt:
			for _, x := range v.Int[:b.n] {
				buf = binary.LittleEndian.AppendUint64(buf, uint64(x))
			}
		case spillFloat:
			for _, x := range v.Float[:b.n] {
				buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(x))
			}
		case spillBool:
			for _, x := range v.Bool[:b.n] {
				buf = append(buf, boolByte(x))
			}
		case spillStr:
			for _, x := range v.Str[:b.n] {
				buf = binary.AppendUvarint(buf, uint64(len(x)))
				buf = append(buf, x...)
			}
		case spillBytes:
			// Length+1, so that nil (a NULL's) and empty stay apart.
			for _, x := range v.Bytes[:b.n] {
				if x == nil {
					buf = append(buf, 0)
					continue
				}
				buf = binary.AppendUvarint(buf, uint64(len(x))+1)
				buf = append(buf, x...)
			}
		case spillBig:
			for _, x := range v.Big[:b.n] {
				buf = appendSpillBig(buf, x)
			}
		case spillNested:
			for _, x := range v.Nested[:b.n] {
				var err error
				if buf, err = appendNested(buf, x, &sw.fields); err != nil {
					return err
				}
			}
		}
	}
	sw.buf = buf
	sw.n++
	sw.bytes += int64(len(buf))
	if _, err := sw.w.Write(buf); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrSpill, sw.f.Name(), err)
	}
	return nil
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// reader flushes the file and returns a reader of its batches from the
// first.
func (sw *spillWriter) reader() (*spillReader, error) {
	if err := sw.w.Flush(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSpill, sw.f.Name(), err)
	}
	sw.space.mu.Lock()
	sw.space.bytes += sw.bytes
	sw.space.mu.Unlock()
	if _, err := sw.f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSpill, sw.f.Name(), err)
	}
	r := bufio.NewReaderSize(sw.f, 256<<10)
	return &spillReader{f: sw.f, r: r, types: sw.types, left: sw.n, nested: nestedDecoder{r: r, fields: sw.fields.lists}}, nil
}

// close closes and deletes the file.
func (sw *spillWriter) close() {
	sw.f.Close()
	os.Remove(sw.f.Name())
}

// A spillReader reads a spilled file's batches back in order.
type spillReader struct {
	f      *os.File
	r      *bufio.Reader
	types  []*Type
	left   int64
	buf    []byte
	nested nestedDecoder
}

// read returns the next batch, or io.EOF after the last.
func (sr *spillReader) read() (*batch, error) {
	if sr.left == 0 {
		return nil, io.EOF
	}
	sr.left--
	b, err := sr.decode()
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrSpill, sr.f.Name(), err)
	}
	return b, nil
}

func (sr *spillReader) decode() (*batch, error) {
	n64, err := binary.ReadUvarint(sr.r)
	if err != nil {
		return nil, err
	}
	ncols, err := binary.ReadUvarint(sr.r)
	if err != nil {
		return nil, err
	}
	n := int(n64)
	b := &batch{n: n, cols: make([]*Vector, ncols)}
	for c := range b.cols {
		kind, err := sr.r.ReadByte()
		if err != nil {
			return nil, err
		}
		if kind == spillNone {
			continue
		}
		v := &Vector{}
		if c < len(sr.types) && sr.types[c] != nil {
			v.Type = *sr.types[c]
		}
		b.cols[c] = v
		if kind == spillNulls {
			v.Nulls = make([]bool, n)
			for i := range v.Nulls {
				v.Nulls[i] = true
			}
			continue
		}
		hasNulls, err := sr.r.ReadByte()
		if err != nil {
			return nil, err
		}
		if hasNulls == 1 {
			raw, err := sr.bytes(n)
			if err != nil {
				return nil, err
			}
			v.Nulls = make([]bool, n)
			for i, x := range raw {
				v.Nulls[i] = x == 1
			}
		}
		switch kind {
		case spillInt, spillFloat:
			raw, err := sr.bytes(8 * n)
			if err != nil {
				return nil, err
			}
			if kind == spillInt {
				v.Int = make([]int64, n)
				for i := range v.Int {
					v.Int[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
				}
			} else {
				v.Float = make([]float64, n)
				for i := range v.Float {
					v.Float[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
				}
			}
		case spillBool:
			raw, err := sr.bytes(n)
			if err != nil {
				return nil, err
			}
			v.Bool = make([]bool, n)
			for i, x := range raw {
				v.Bool[i] = x == 1
			}
		case spillStr:
			v.Str = make([]string, n)
			for i := range v.Str {
				l, err := binary.ReadUvarint(sr.r)
				if err != nil {
					return nil, err
				}
				raw, err := sr.bytes(int(l))
				if err != nil {
					return nil, err
				}
				v.Str[i] = string(raw)
			}
		case spillBytes:
			v.Bytes = make([][]byte, n)
			for i := range v.Bytes {
				l, err := binary.ReadUvarint(sr.r)
				if err != nil {
					return nil, err
				}
				if l == 0 {
					continue
				}
				raw, err := sr.bytes(int(l - 1))
				if err != nil {
					return nil, err
				}
				v.Bytes[i] = append([]byte{}, raw...)
			}
		case spillBig:
			v.Big = make([]*big.Int, n)
			for i := range v.Big {
				sign, err := sr.r.ReadByte()
				if err != nil {
					return nil, err
				}
				if sign == 0 {
					continue
				}
				l, err := binary.ReadUvarint(sr.r)
				if err != nil {
					return nil, err
				}
				raw, err := sr.bytes(int(l))
				if err != nil {
					return nil, err
				}
				x := new(big.Int).SetBytes(raw)
				if sign == 2 {
					x.Neg(x)
				}
				v.Big[i] = x
			}
		case spillNested:
			v.Nested = make([]format.Value, n)
			for i := range v.Nested {
				if v.Nested[i], err = sr.nested.value(); err != nil {
					return nil, err
				}
			}
		default:
			return nil, fmt.Errorf("unknown column kind %d", kind)
		}
	}
	return b, nil
}

// bytes reads the next n bytes into a buffer reused by the next call.
func (sr *spillReader) bytes(n int) ([]byte, error) {
	if cap(sr.buf) < n {
		sr.buf = make([]byte, n)
	}
	buf := sr.buf[:n]
	if _, err := io.ReadFull(sr.r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// close closes and deletes the file.
func (sr *spillReader) close() {
	sr.f.Close()
	os.Remove(sr.f.Name())
}
