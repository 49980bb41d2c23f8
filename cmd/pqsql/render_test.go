package main

import (
	"strings"
	"testing"

	"github.com/pqsql/pqsql/exec"
)

// A renderCase is a result, how to render it and the exact text expected
// (a leading newline in want is ignored, for readability).
type renderCase struct {
	res  *exec.Result
	opts renderOptions
	want string
}

// mixed has a number, a string, a decimal and a boolean column with NULLs.
func mixed() *exec.Result {
	return fakeResult(2,
		col{"id", tInt, []any{1, 22, nil}},
		col{"name", tVarchar, []any{"apple", nil, "kiwi|x"}},
		col{"price", tDec, []any{150, 1000, nil}},
		col{"ok", tBool, []any{true, false, nil}},
	)
}

// quoting holds values that need CSV and JSON escaping.
func quoting() *exec.Result {
	return fakeResult(10,
		col{"a,b", tVarchar, []any{"plain", "with,comma", `say "hi"`, "two\nlines", "", nil}},
		col{"n", tDouble, []any{1.5, -0.25, nil, 1e300, 0.0, 2.0}},
	)
}

func renderCases() map[string]renderCase {
	box := renderOptions{mode: modeBox, maxRows: 40}
	with := func(o renderOptions, f func(*renderOptions)) renderOptions { f(&o); return o }
	return map[string]renderCase{
		"box_mixed": {res: mixed(), opts: box,
			want: `
┌───────┬─────────┬───────────────┬─────────┐
│  id   │  name   │     price     │   ok    │
│ int32 │ varchar │ decimal(10,2) │ boolean │
├───────┼─────────┼───────────────┼─────────┤
│     1 │ apple   │          1.50 │ true    │
│    22 │ NULL    │         10.00 │ false   │
│  NULL │ kiwi|x  │          NULL │ NULL    │
└───────┴─────────┴───────────────┴─────────┘
`},
		"box_empty": {res: fakeResult(2, col{"id", tInt, nil}, col{"name", tVarchar, nil}), opts: box,
			want: `
┌───────┬─────────┐
│  id   │  name   │
│ int32 │ varchar │
├───────┴─────────┤
│     0 rows      │
└─────────────────┘
`},
		"box_elided_one_column": {
			res:  fakeResult(7, col{"i", tBig, ints(0, 100)}),
			opts: with(box, func(o *renderOptions) { o.maxRows = 6 }),
			want: `
┌───────────┐
│     i     │
│   int64   │
├───────────┤
│         0 │
│         1 │
│         2 │
│         · │
│         · │
│         · │
│        97 │
│        98 │
│        99 │
├───────────┤
│ 100 rows  │
│ (6 shown) │
└───────────┘
`,
		},
		"box_elided_columns": {
			res: fakeResult(7,
				col{"order_id", tBig, ints(0, 10000)},
				col{"label", tVarchar, func() []any {
					var out []any
					for i := range 10000 {
						out = append(out, strings.Repeat("x", i%7+1))
					}
					return out
				}()},
				col{"qty", tInt, ints(5, 10005)},
			),
			opts: with(box, func(o *renderOptions) { o.maxRows = 4 }),
			want: `
┌──────────┬─────────┬───────┐
│ order_id │  label  │  qty  │
│  int64   │ varchar │ int32 │
├──────────┼─────────┼───────┤
│        0 │ x       │     5 │
│        1 │ xx      │     6 │
│        · │ ·       │     · │
│        · │ ·       │     · │
│        · │ ·       │     · │
│     9998 │ xxx     │ 10003 │
│     9999 │ xxxx    │ 10004 │
├──────────┴─────────┴───────┤
│ 10000 rows       3 columns │
│ (4 shown)                  │
└────────────────────────────┘
`,
		},
		"box_not_elided_just_over": {
			res:  fakeResult(3, col{"i", tInt, ints(0, 7)}),
			opts: with(box, func(o *renderOptions) { o.maxRows = 4 }),
			want: `
┌───────┐
│   i   │
│ int32 │
├───────┤
│     0 │
│     1 │
│     2 │
│     3 │
│     4 │
│     5 │
│     6 │
└───────┘
`,
		},
		"box_ten_rows_footer": {
			res:  fakeResult(3, col{"i", tInt, ints(0, 10)}, col{"j", tInt, ints(10, 20)}),
			opts: box,
			want: `
┌───────┬───────┐
│   i   │   j   │
│ int32 │ int32 │
├───────┼───────┤
│     0 │    10 │
│     1 │    11 │
│     2 │    12 │
│     3 │    13 │
│     4 │    14 │
│     5 │    15 │
│     6 │    16 │
│     7 │    17 │
│     8 │    18 │
│     9 │    19 │
├───────┴───────┤
│    10 rows    │
└───────────────┘
`,
		},
		"box_large_number": {
			res:  fakeResult(1, col{"count_star()", tBig, []any{12345678}}),
			opts: with(box, func(o *renderOptions) { o.largeNumbers = true }),
			want: `
┌─────────────────┐
│  count_star()   │
│      int64      │
├─────────────────┤
│    12345678     │
│ (12.35 million) │
└─────────────────┘
`,
		},
		"box_nullvalue_and_escapes": {
			res: fakeResult(5,
				col{"s", tVarchar, []any{"tab\there", "東京", nil, "e\x1bx"}},
				col{"d", tDouble, []any{0.5, nil, -12.25, 3.0}},
			),
			opts: with(box, func(o *renderOptions) { o.null, o.nullSet = "∅", true }),
			want: `
┌───────────┬────────┐
│     s     │   d    │
│  varchar  │ double │
├───────────┼────────┤
│ tab\there │    0.5 │
│ 東京      │      ∅ │
│ ∅         │ -12.25 │
│ e\ex      │    3.0 │
└───────────┴────────┘
`,
		},
		"box_too_wide": {
			res: func() *exec.Result {
				var cols []col
				for c := range 12 {
					cols = append(cols, col{name: "column_" + string(rune('a'+c)), typ: tVarchar,
						vals: []any{strings.Repeat(string(rune('a'+c)), 30)}})
				}
				return fakeResult(1, cols...)
			}(),
			opts: with(box, func(o *renderOptions) { o.maxWidth = 80 }),
			want: `
┌────────────────────────────┬──────────────────────┬───┬──────────────────────┐
│          column_a          │       column_b       │ … │       column_l       │
│          varchar           │       varchar        │ … │       varchar        │
├────────────────────────────┼──────────────────────┼───┼──────────────────────┤
│ aaaaaaaaaaaaaaaaaaaaaaaaa… │ bbbbbbbbbbbbbbbbbbb… │ … │ lllllllllllllllllll… │
├────────────────────────────┴──────────────────────┴───┴──────────────────────┤
│ 1 row                                                   12 columns (3 shown) │
└──────────────────────────────────────────────────────────────────────────────┘
`,
		},
		"box_long_values_shortened": {
			res: fakeResult(1,
				col{"k", tInt, []any{1}},
				col{"long_a", tVarchar, []any{strings.Repeat("a", 60)}},
				col{"long_b", tVarchar, []any{strings.Repeat("b", 40)}},
			),
			opts: with(box, func(o *renderOptions) { o.maxWidth = 80 }),
			want: `
┌───────┬──────────────────────────────────────┬───────────────────────────────┐
│   k   │                long_a                │            long_b             │
│ int32 │               varchar                │            varchar            │
├───────┼──────────────────────────────────────┼───────────────────────────────┤
│     1 │ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa… │ bbbbbbbbbbbbbbbbbbbbbbbbbbbb… │
└───────┴──────────────────────────────────────┴───────────────────────────────┘
`,
		},
		"csv_quoting": {res: quoting(), opts: renderOptions{mode: modeCSV},
			want: `
"a,b",n
plain,1.5
"with,comma",-0.25
"say ""hi""",NULL
"two
lines",1e+300
,0.0
NULL,2.0
`},
		"csv_nullvalue": {res: mixed(), opts: renderOptions{mode: modeCSV, null: "NA", nullSet: true},
			want: `
id,name,price,ok
1,apple,1.50,true
22,NA,10.00,false
NA,kiwi|x,NA,NA
`},
		"json_mixed": {res: mixed(), opts: renderOptions{mode: modeJSON},
			want: `
[{"id":1,"name":"apple","price":1.50,"ok":true},
{"id":22,"name":null,"price":10.00,"ok":false},
{"id":null,"name":"kiwi|x","price":null,"ok":null}]
`},
		"json_quoting": {res: quoting(), opts: renderOptions{mode: modeJSON},
			want: `
[{"a,b":"plain","n":1.5},
{"a,b":"with,comma","n":-0.25},
{"a,b":"say \"hi\"","n":null},
{"a,b":"two\nlines","n":1e+300},
{"a,b":"","n":0.0},
{"a,b":null,"n":2.0}]
`},
		"json_empty": {res: fakeResult(2, col{"id", tInt, nil}), opts: renderOptions{mode: modeJSON},
			want: `
[]
`},
		"jsonlines": {res: mixed(), opts: renderOptions{mode: modeJSONLines},
			want: `
{"id":1,"name":"apple","price":1.50,"ok":true}
{"id":22,"name":null,"price":10.00,"ok":false}
{"id":null,"name":"kiwi|x","price":null,"ok":null}
`},
		"jsonlines_empty": {
			res: fakeResult(2, col{"id", tInt, nil}), opts: renderOptions{mode: modeJSONLines},
			want: "",
		},
		"markdown": {res: mixed(), opts: renderOptions{mode: modeMarkdown},
			want: `
|  id  |  name   | price |  ok   |
|-----:|---------|------:|-------|
| 1    | apple   | 1.50  | true  |
| 22   | NULL    | 10.00 | false |
| NULL | kiwi\|x | NULL  | NULL  |
`},
		"line": {res: mixed(), opts: renderOptions{mode: modeLine},
			want: `
   id = 1
 name = apple
price = 1.50
   ok = true

   id = 22
 name = NULL
price = 10.00
   ok = false

   id = NULL
 name = kiwi|x
price = NULL
   ok = NULL
`},
		"line_nullvalue": {
			res:  fakeResult(2, col{"a", tInt, []any{nil}}, col{"longer_name", tVarchar, []any{"v"}}),
			opts: renderOptions{mode: modeLine, null: "", nullSet: true},
			want: `
          a = 
longer_name = v
`,
		},
	}
}

func TestRender(t *testing.T) {
	for name, c := range renderCases() {
		t.Run(name, func(t *testing.T) {
			got := renderString(t, c.res, c.opts)
			want := strings.TrimPrefix(c.want, "\n")
			if got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
