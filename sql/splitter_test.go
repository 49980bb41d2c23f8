package sql

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// refSplitScript is the splitter that lexed the whole script into one
// token slice before splitting: the reference the streaming one must
// agree with.
func refSplitScript(text string) ([]Piece, error) {
	toks, comments, err := lex(text)
	if err != nil {
		return nil, err
	}
	var pieces []Piece
	start, first := 0, 0
	at := Position{Line: 1, Column: 1}
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && !(toks[i].kind == tkOp && toks[i].val == ";") {
			continue
		}
		if i > start {
			off, end := toks[start].off, toks[i-1].end
			pos := advance(text, at, off)
			at = pos
			for first < len(comments) && comments[first].end <= off {
				first++
			}
			pieces = append(pieces, Piece{
				Text: stripComments(text, off, end, comments[first:]), Line: pos.Line, Column: pos.Column,
				Offset: off, raw: text[off:end],
			})
		}
		start = i + 1
	}
	return pieces, nil
}

// refIsComplete and refIsBlank answer from the whole script's tokens.
func refIsComplete(text string) bool {
	toks, _, err := lex(text)
	if err != nil || len(toks) == 0 {
		return false
	}
	last := toks[len(toks)-1]
	return last.kind == tkOp && last.val == ";"
}

func refIsBlank(text string) bool {
	pieces, err := refSplitScript(text)
	return err == nil && len(pieces) == 0
}

// checkSplit compares the streaming splitter and the Completer, fed line
// by line, with the references.
func checkSplit(t *testing.T, src string) {
	t.Helper()
	got, gerr := SplitScript(src)
	want, werr := refSplitScript(src)
	if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) ||
		(gerr != nil && gerr.Error() != werr.Error()) {
		t.Fatalf("SplitScript(%q)\n got: %+v, %v\nwant: %+v, %v", src, got, gerr, want, werr)
	}
	var c Completer
	for at := 0; at < len(src); {
		j := strings.IndexByte(src[at:], '\n')
		if j < 0 {
			at = len(src)
		} else {
			at += j + 1
		}
		buf := src[:at]
		c.Feed(buf)
		if c.Complete() != refIsComplete(buf) || c.Blank() != refIsBlank(buf) {
			t.Fatalf("Completer(%q): complete %v blank %v, want %v %v",
				buf, c.Complete(), c.Blank(), refIsComplete(buf), refIsBlank(buf))
		}
	}
	// Fed a byte at a time, it agrees too.
	c.Reset()
	for i := 1; i <= len(src); i++ {
		c.Feed(src[:i])
	}
	if c.Complete() != refIsComplete(src) || c.Blank() != refIsBlank(src) {
		t.Fatalf("Completer(%q) fed bytewise: complete %v blank %v, want %v %v",
			src, c.Complete(), c.Blank(), refIsComplete(src), refIsBlank(src))
	}
}

var splitCases = []string{
	"", ";", " ;; -- c\n/* d */ ;\n", "SELECT 1", "SELECT 1;", "SELECT 1; -- done", "SELECT 1; /* done */",
	"SELECT 1 -- ;", "SELECT 1 /* ; */", "SELECT ';'", "SELECT ';", "SELECT 'a''", "SELECT 'a'';'", "SELECT 'a'';';",
	"SELECT \"x;", "SELECT \"x;\";", "SELECT `a;b`;", "SELECT 1 /* ;", "SELECT 1; SELECT 2", "SELECT 1;\nSELECT 2;",
	"SELECT\n  a\nFROM t\n;", "SELECT 1 // 2;", "SELECT 1 ///* x */;", "SELECT 2 //* x */;", "SELECT 1 */ 2;",
	"SELECT /* a /* b; */ c; */ 1;", "SELECT /*/ x */ 1;", "SELECT 1e--5;\n;", "SELECT 1 -", "SELECT 1 /", "x-", "x/",
	"SELECT 'it''s;' ; SELECT 2", "-- only\n", "/* open\n", "/*\n*/\nSELECT 1;", "SELECT o.from FROM t o; SELECT 'é';\tx",
	"SELECT 1 ->> 'a';", "SELECT -- c\n 1;", "SELECT '\n;\n';\n", "SELECT 1;'", "a.b.c;\"", "\x00;\xff;",
}

func TestSplitterAgreesWithWholeScriptLexing(t *testing.T) {
	for _, src := range splitCases {
		checkSplit(t, src)
	}
}

// A script is split holding one statement at a time: splitting 100,000
// statements allocates a few kilobytes, where lexing the script whole held
// every token (tens of megabytes).
func TestSplitterMemoryIsBoundedByStatement(t *testing.T) {
	const n = 100_000
	text := strings.Repeat("SELECT 'a;b' AS \"x\", t.y FROM t WHERE z = -1;\n", n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := NewSplitter(text)
	count := 0
	for s.Next() {
		if p := s.Piece(); len(p.Text) == 0 {
			t.Fatal("empty piece")
		}
		count++
	}
	runtime.ReadMemStats(&after)
	if s.Err() != nil || count != n {
		t.Fatalf("%d pieces, %v", count, s.Err())
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
		t.Fatalf("splitting %d statements (%d bytes) allocated %d bytes", n, len(text), got)
	}
}

// FuzzSplitScript checks that splitting one statement at a time gives the
// statements of the whole-script splitter, and that the Completer agrees
// with whole-buffer lexing at every line.
func FuzzSplitScript(f *testing.F) {
	for _, src := range splitCases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkSplit(t, src)
	})
}
