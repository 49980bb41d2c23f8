package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A commandCase runs the command line once and checks what it printed and
// wrote; covers names the options and dot commands it exercises.
type commandCase struct {
	name   string
	covers []string
	args   []string
	stdin  string
	// home holds files to create in the home directory (".pqsqlrc").
	home map[string]string
	code int
	// stdout is exact unless stdoutRE is set; stderr must contain
	// stderrHas, or be empty when it is "".
	stdout    string
	stdoutRE  string
	stderrHas string
	// files are written files (relative to the work directory) and their
	// exact contents.
	files map[string]string
}

// TestDocumentedCommands runs every option -help lists and every dot
// command .help lists, and fails when one is documented but not run here.
func TestDocumentedCommands(t *testing.T) {
	f := ordersFile(t)
	three := "SELECT order_id, city FROM " + f + " WHERE order_id <= 3 ORDER BY order_id"
	one := "SELECT 1 AS a, 'x' AS b"
	cases := []commandCase{
		{name: "bail", covers: []string{"-bail", ".bail"}, args: []string{"-bail", "-c", ".nope\n.mode"}, code: 1,
			stderrHas: "Error: line 1: unknown command"},
		{name: "bail off again", covers: []string{".bail"}, args: []string{"-bail", "-c", ".bail off\n.nope\n.mode"}, code: 1,
			stdout: "current output mode: box\n", stderrHas: "Error: line 2: unknown command"},
		{name: "box", covers: []string{"-box"}, args: []string{"-csv", "-box", "-c", ".mode"}, stdout: "current output mode: box\n"},
		{name: "c", covers: []string{"-c"}, args: []string{"-c", ".mode"}, stdout: "current output mode: box\n"},
		{name: "s", covers: []string{"-s"}, args: []string{"-s", ".mode"}, stdout: "current output mode: box\n"},
		{name: "cmd runs before stdin", covers: []string{"-cmd"}, args: []string{"-cmd", ".mode csv"},
			stdin: one + ";\n", stdout: "a,b\n1,x\n"},
		{name: "column", covers: []string{"-column"}, args: []string{"-column", "-c", three},
			stdout: "order_id  city  \n--------  ------\n1         Tromsø\n2         NULL  \n3         Paris \n"},
		{name: "csv", covers: []string{"-csv"}, args: []string{"-csv", "-c", three}, stdout: "order_id,city\n1,Tromsø\n2,NULL\n3,Paris\n"},
		{name: "echo", covers: []string{"-echo", ".echo"}, args: []string{"-echo", "-csv", "-c", one + ";\n.echo off\n" + one},
			stdout: one + "\na,b\n1,x\n.echo off\na,b\n1,x\n"},
		{name: "f", covers: []string{"-f"}, args: []string{"-f", "script.sql"}, files: map[string]string{}, stdout: "current output mode: csv\n"},
		{name: "header and noheader", covers: []string{"-header", "-noheader"}, args: []string{"-noheader", "-header", "-csv", "-c", one},
			stdout: "a,b\n1,x\n"},
		{name: "noheader", covers: []string{"-noheader", ".headers"}, args: []string{"-noheader", "-csv", "-c", one + ";\n.headers on\n" + one},
			stdout: "1,x\na,b\n1,x\n"},
		{name: "help", covers: []string{"-help"}, args: []string{"-help"}, stdoutRE: `(?s)^Usage: pqsql \[OPTIONS\]\n.*   -separator SEP +set output column separator`},
		{name: "html", covers: []string{"-html"}, args: []string{"-html", "-c", "SELECT '<a&b>' AS \"x<y\""},
			stdout: "<tr><th>x&lt;y</th>\n</tr>\n<tr><td>&lt;a&amp;b&gt;</td>\n</tr>\n"},
		{name: "init", covers: []string{"-init"}, args: []string{"-init", "init.sql", "-c", one},
			home: map[string]string{".pqsqlrc": ".mode json\n"}, stdout: "a|b\n1|x\n"},
		{name: "init dev null skips the rc file", covers: []string{"-init"}, args: []string{"-init", os.DevNull, "-c", ".mode"},
			home: map[string]string{".pqsqlrc": ".mode json\n"}, stdout: "current output mode: box\n"},
		{name: "rc file", home: map[string]string{".pqsqlrc": "-- settings\n.mode csv\n.nullvalue none\n"},
			args: []string{"-c", "SELECT NULL AS n"}, stdout: "n\nnone\n"},
		{name: "rc file error has its line", home: map[string]string{".pqsqlrc": "\n.nope\n"},
			args: []string{"-c", ".mode"}, code: 1, stdout: "current output mode: box\n", stderrHas: "Error: line 2: unknown command"},
		{name: "json", covers: []string{"-json"}, args: []string{"-json", "-c", one}, stdout: "[{\"a\":1,\"b\":\"x\"}]\n"},
		{name: "jsonlines", covers: []string{"-jsonlines"}, args: []string{"-jsonlines", "-c", one}, stdout: "{\"a\":1,\"b\":\"x\"}\n"},
		{name: "latex", covers: []string{"-latex"}, args: []string{"-latex", "-c", "SELECT 1 AS a_1, '50%' AS b"},
			stdout: "\\begin{tabular}{|rl|}\n\\hline\na_1 &  b  \\\\\n\\hline\n1   & 50% \\\\\n\\hline\n\\end{tabular}\n"},
		{name: "line", covers: []string{"-line"}, args: []string{"-line", "-c", one}, stdout: "    a = 1\n    b = x\n"},
		{name: "list", covers: []string{"-list"}, args: []string{"-list", "-c", three}, stdout: "order_id|city\n1|Tromsø\n2|NULL\n3|Paris\n"},
		{name: "markdown", covers: []string{"-markdown"}, args: []string{"-markdown", "-c", one},
			stdout: "| a | b |\n|--:|---|\n| 1 | x |\n"},
		{name: "maxrows", covers: []string{"-maxrows", ".maxrows"}, args: []string{"-maxrows", "7", "-c", ".maxrows\n.maxrows 2\n.maxrows"},
			stdout: "current max rows: 7\ncurrent max rows: 2\n"},
		{name: "mode", covers: []string{"-mode", ".mode"}, args: []string{"-mode", "tabs", "-c", three + ";\n.mode insert orders\n" + one},
			stdout: "order_id\tcity\n1\tTromsø\n2\tNULL\n3\tParis\nINSERT INTO \"orders\"(a,b) VALUES(1,'x');\n"},
		{name: "nullvalue", covers: []string{"-nullvalue", ".nullvalue"}, args: []string{"-nullvalue", "-", "-list", "-c", "SELECT NULL AS n;\n.nullvalue ''\nSELECT NULL AS n"},
			stdout: "n\n-\nn\n\n"},
		{name: "quote", covers: []string{"-quote"}, args: []string{"-quote", "-c", "SELECT 1 AS a, 'it''s' AS b, NULL AS c"},
			stdout: "'a','b','c'\n1,'it''s',NULL\n"},
		{name: "readonly", covers: []string{"-readonly"}, args: []string{"-readonly", "-csv", "-c", one}, stdout: "a,b\n1,x\n"},
		{name: "separator", covers: []string{"-separator", ".separator"}, args: []string{"-separator", "\\t", "-csv", "-c", one + ";\n.separator ;\n" + one},
			stdout: "a\tb\n1\tx\na;b\n1;x\n"},
		{name: "table", covers: []string{"-table"}, args: []string{"-table", "-c", three},
			stdout: "+----------+--------+\n| order_id |  city  |\n+----------+--------+\n| 1        | Tromsø |\n| 2        | NULL   |\n| 3        | Paris  |\n+----------+--------+\n"},
		{name: "tabs", covers: []string{"-tabs"}, args: []string{"-tabs", "-c", one}, stdout: "a\tb\n1\tx\n"},
		{name: "version", covers: []string{"-version"}, args: []string{"-version"}, stdout: "pqsql dev\n"},
		{name: "trash", args: []string{"-c", ".mode trash\n" + one}},
		{name: "exit with a code", covers: []string{".exit"}, args: []string{"-c", ".exit 3\n.mode"}, code: 3},
		{name: "exit", covers: []string{".exit"}, args: []string{"-c", ".exit\n.mode"}},
		{name: "quit", covers: []string{".quit"}, args: []string{"-c", ".quit\n.mode"}},
		{name: "help", covers: []string{".help"}, args: []string{"-c", ".help"}, stdout: helpText},
		{name: "maxwidth", covers: []string{".maxwidth"}, args: []string{"-c", ".maxwidth 90\n.maxwidth\nSELECT '" + strings.Repeat("a", 200) + "' AS long"},
			stdoutRE: `^current max width: 90\n┌─{88}┐\n(│.{88}│\n|├─{88}┤\n)+└─{88}┘\n$`},
		{name: "output and once", covers: []string{".output", ".once"}, args: []string{"-csv", "-c",
			".once once.csv\n" + one + ";\n" + one + ";\n.output all.csv\n" + one + ";\nSELECT 2 AS c;\n.output\nSELECT 3 AS d"},
			stdout: "a,b\n1,x\nd\n3\n", files: map[string]string{"once.csv": "a,b\n1,x\n", "all.csv": "a,b\n1,x\nc\n2\n"}},
		{name: "explain map", covers: []string{".explain"}, args: []string{"-c", ".explain map\n.explain\n" +
			"EXPLAIN SELECT order_id FROM " + f + " WHERE order_id > 19990;\n.explain text\n.explain"},
			stdout: "current explain format: map\nread 1.0 KiB of 80.7 KiB (98.8% skipped)\n\n" + f[1:len(f)-1] + "\n" +
				"             order_id\nrow group 0  ssssssssssssssss\nrow group 1  ssssssssssssssss\nrow group 2  ssssssssssssssss\n" +
				"row group 3  ssssssssssssssss\nrow group 4  ppppppppppppppp█\n\n" +
				"█ read  · planned, not read  s statistics  p page index  b bloom  d dictionary  g spatial\n" +
				"h hive path  k top-k  j join filter  c predicate or empty\ncurrent explain format: text\n"},
		{name: "read", covers: []string{".read"}, args: []string{"-c", ".read script.sql"}, stdout: "current output mode: csv\n"},
		{name: "schema and tables", covers: []string{".schema", ".tables", ".views"}, args: []string{"-c",
			"CREATE VIEW b_view AS SELECT 1 AS x;\nCREATE VIEW \"A View\" AS SELECT 2 AS y;\n.tables\n.views\n.schema\n.schema b_view"},
			stdout: "a view  b_view\na view\nb_view\nCREATE VIEW \"a view\" AS SELECT 2 AS y;\nCREATE VIEW b_view AS SELECT 1 AS x;\nCREATE VIEW b_view AS SELECT 1 AS x;\n"},
		{name: "shell", covers: []string{".shell", ".system"}, args: []string{"-c", ".shell echo one\n.system printf two"},
			stdout: "one\ntwo"},
		{name: "timer", covers: []string{".timer"}, args: []string{"-c", ".timer on\n.timer off\n.timer on\n.mode trash\n" + one},
			stdoutRE: `^Run Time \(s\): real \d+\.\d{3} user \d+\.\d{6} sys \d+\.\d{6}\n$`},
		{name: "copy csv", args: []string{"-c", "COPY (" + three + ") TO 'out.csv' (HEADER false, DELIMITER ';', NULLSTR '?')"},
			files: map[string]string{"out.csv": "1;Tromsø\n2;?\n3;Paris\n"}},
		{name: "copy csv tells the empty string from NULL", args: []string{"-c", "COPY (SELECT '' AS a, NULL AS b, 'x' AS c, 'NULL' AS d) TO 'e.csv' (HEADER, FORMAT csv);\nCOPY (SELECT '' AS a, NULL AS b, 'x' AS c) TO 'x.csv' (HEADER, FORMAT csv, NULL 'x')"},
			files: map[string]string{"e.csv": "a,b,c,d\n\"\",,x,NULL\n", "x.csv": "a,b,c\n,x,\"x\"\n"}}, // DuckDB 1.5.6's files
		{name: "copy json", args: []string{"-c", "COPY (" + three + ") TO 'out.json'"},
			files: map[string]string{"out.json": "{\"order_id\":1,\"city\":\"Tromsø\"}\n{\"order_id\":2,\"city\":null}\n{\"order_id\":3,\"city\":\"Paris\"}\n"}},
		{name: "copy a view with the header", args: []string{"-c", "CREATE VIEW v AS " + one + ";\nCOPY v TO 'v.txt' (FORMAT csv, HEADER)"},
			files: map[string]string{"v.txt": "a,b\n1,x\n"}},
		{name: "copy option not supported", args: []string{"-c", "COPY (SELECT 1) TO 'x.csv' (COMPRESSION gzip)"}, code: 1,
			stderrHas: "Error: line 1: unsupported near \"gzip\": COPY option COMPRESSION is not supported"},
		{name: "explain as rows in json mode", args: []string{"-json", "-c", "EXPLAIN SELECT order_id FROM " + f + " WHERE order_id = 5"},
			stdoutRE: `^\[\{"explain_key":"physical_plan","explain_value":"PROJECTION order_id\\n.*\\n"\}\]\n$`},
	}
	documented := map[string]bool{}
	for _, o := range commandLine {
		documented["-"+o.name] = true
	}
	for _, line := range strings.Split(helpText, "\n") {
		if strings.HasPrefix(line, ".") {
			documented[strings.Fields(line)[0]] = true
		}
	}
	for d := range documented {
		if strings.HasPrefix(d, ".") && !slices.Contains(dotCommands, d) {
			t.Errorf("%s is documented but the prompt does not complete it", d)
		}
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		for _, c := range tc.covers {
			if !documented[c] {
				t.Errorf("case %q covers %s, which is not documented", tc.name, c)
			}
			covered[c] = true
		}
	}
	for d := range documented {
		if !covered[d] {
			t.Errorf("%s is documented but no case runs it", d)
		}
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			t.Chdir(work)
			for name, text := range map[string]string{"script.sql": ".mode csv\n.mode\n", "init.sql": ".mode list\n"} {
				if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			home := t.TempDir()
			for name, text := range tc.home {
				if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, stdout, stderr := runCaptureHome(t, home, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if tc.stdoutRE != "" {
				if !regexp.MustCompile(tc.stdoutRE).MatchString(stdout) {
					t.Errorf("stdout:\n%s\ndoes not match %s", stdout, tc.stdoutRE)
				}
			} else if stdout != tc.stdout {
				t.Errorf("stdout:\n%q\nwant:\n%q", stdout, tc.stdout)
			}
			if tc.stderrHas == "" && stderr != "" || !strings.Contains(stderr, tc.stderrHas) {
				t.Errorf("stderr %q, want it to contain %q", stderr, tc.stderrHas)
			}
			for name, want := range tc.files {
				got, err := os.ReadFile(filepath.Join(work, name))
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if string(got) != want {
					t.Errorf("%s:\n%q\nwant:\n%q", name, got, want)
				}
			}
		})
	}
}

// TestErrorDisplay checks how errors read: one line number (the script's),
// the excerpt with a caret under the position, no Go package names.
func TestErrorDisplay(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"caret under the token", []string{"-c", "SELECT * FORM 'x'"},
			"Error: line 1: syntax error near \"FORM\": expected \",\", FROM, WHERE, GROUP BY, HAVING, ORDER BY, ...\n\nLINE 1: SELECT * FORM 'x'\n                 ^\n"},
		{"the script's line, once", []string{"-c", "SELECT 1 AS a;\n-- two\nSELECT a\nFROM (SELECT 1 AS a) WHERE a = = 3"},
			"Error: line 4: syntax error near \"=\": expected expression\n\nLINE 4: FROM (SELECT 1 AS a) WHERE a = = 3\n" +
				strings.Repeat(" ", len("LINE 4: FROM (SELECT 1 AS a) WHERE a = ")) + "^\n"},
		{"a long line is cut around the caret", []string{"-c", "SELECT " + strings.Repeat("1 + ", 40) + "FROM"},
			"Error: line 1: syntax error at end of input: expected a source: 'file.parquet', read_parquet(...), parquet_metadata(...), parquet_schema(...), a view name or a subquery\n\n" +
				// Cut about maxExcerpt/2 columns before the caret, at the space 3 before.
				"LINE 1: ..." + ("SELECT " + strings.Repeat("1 + ", 40) + "FROM")[7+160+4-maxExcerpt/2-3:] + "\n" + strings.Repeat(" ", len("LINE 1: ...")+maxExcerpt/2+3) + "^\n"},
		{"no package prefix", []string{"-c", "SELECT * FROM '" + filepath.Join(moduleRoot(t), "go.mod") + "'"},
			"Error: line 1: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCapture(t, "", tc.args...)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if strings.HasSuffix(tc.stderr, ": ") {
				if !strings.HasPrefix(stderr, tc.stderr) || packagePrefix.MatchString(strings.TrimPrefix(stderr, tc.stderr)) {
					t.Errorf("stderr %q: want %q and no package name", stderr, tc.stderr)
				}
				return
			}
			if stderr != tc.stderr {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, tc.stderr)
			}
		})
	}
}

func TestUserMessage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"format: x.parquet: row group 2, column city, page 3: corrupt file", "x.parquet: row group 2, column city, page 3: corrupt file"},
		{"pushdown: file x.parquet: format: bad", "file x.parquet: bad"},
		{"exec: corrupt data: formats: x", "corrupt data: formats: x"},
	}
	for _, tc := range tests {
		if got := userMessage(errString(tc.in)); got != tc.want {
			t.Errorf("userMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }
