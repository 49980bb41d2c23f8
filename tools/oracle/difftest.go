package main

// Differential testing: random filtered aggregates over Parquet files, run
// through DuckDB (its own pushdown switched off, see duckNoPushdown) and
// through pqsql in-process with every pruning mechanism on. A disagreement
// is re-run with pqsql's pruning off, to tell a wrong skip from a wrong
// evaluation, and shrunk to a small query. See README.md, "Differential
// testing".

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pqsql/pqsql/exec"
)

// duckNoPushdown switches off the two DuckDB 1.5.6 optimizers that move a
// WHERE clause into the Parquet scan (filter_pushdown) or judge it against
// column statistics (statistics_propagation). With them on DuckDB skips row
// groups whose NaN-free bounds exclude the constant ("x > c", "x = 'NaN'"),
// which would be false alarms here; with them off the plan is a FILTER over
// a PARQUET_SCAN with no table filters, so every row is read and judged.
// (enable_optimizer does not exist in 1.5.6.)
//
// join_filter_pushdown goes too: DuckDB 1.5.6 turns a join's build-side keys
// (and a scalar subquery's value) into a dynamic filter that it judges
// against the same NaN-free bounds, and gets joins of DECIMALs of different
// widths wrong (testdata/queries/regression_duckdb_join_filters.test).
const duckNoPushdown = "SET disabled_optimizers = 'filter_pushdown,statistics_propagation,join_filter_pushdown'"

// duckMemory and duckFlush keep a long run's memory bounded. DuckDB's
// default limit is 80% of the machine's memory, and its allocator keeps
// what the hash tables of one join freed for the next: thousands of joins
// grew the tester past 10 GB. With a limit DuckDB evicts and frees its
// buffers; a query needing more fails there (a DuckDB-only error, which
// the report shows), and the allocator returns freed memory past 64 MB.
// One thread: each of DuckDB's threads builds its own partitions of a
// join's hash table and of an aggregate's groups; the tester runs one
// query at a time anyway.
const (
	duckMemory  = "SET memory_limit = '1GB'"
	duckFlush   = "SET allocator_flush_threshold = '64MB'"
	duckThreads = "SET threads = 1"
)

// pqsqlMemory bounds the Go heap of a run (pqsql's side), unless GOMEMLIMIT
// says otherwise.
const pqsqlMemory = 768 << 20

// DiffConfig is one differential run.
type DiffConfig struct {
	Seed    uint64
	Count   int
	Files   []string // paths as written into FROM, relative to the repository root or absolute
	Verbose bool
	Out     io.Writer
	// GenDir, when set, is where DuckDB writes extra files (genSource) that are tested too.
	GenDir string
	// MaxReports bounds how many minimized mismatches are printed (all are counted).
	MaxReports int
	// Kind is what the queries test: KindFilter (the default), KindJoin or KindScalar.
	Kind string
}

// The kinds of generated queries.
const (
	KindFilter = "filter" // filtered aggregates over one file
	KindJoin   = "join"   // joins of two files and uncorrelated subqueries
	KindScalar = "scalar" // scalar expressions over the function registry
)

// DiffStats counts what a differential run saw.
type DiffStats struct {
	Queries, Agree, Known, Mismatch, BothError, DuckOnlyError, PqsqlOnlyError int
	Classes                                                                   map[string]int
}

// colKind is how the generator treats a column.
type colKind int

const (
	kOther   colKind = iota // only IS NULL and count()
	kInt                    // every integer type
	kFloat                  // FLOAT, DOUBLE
	kDecimal                // DECIMAL(p,s)
	kString                 // VARCHAR
	kDate                   // DATE
	kTS                     // TIMESTAMP (any unit)
	kTSTZ                   // TIMESTAMP WITH TIME ZONE
	kBool                   // BOOLEAN
	kSkip                   // the Go driver cannot scan it (TIME_NS)
)

// diffCol is a column and the literals drawn for it.
type diffCol struct {
	name, typ string
	kind      colKind
	scale     int
	lits      []string // SQL literals: values from the data, neighbours, edges
	prefixes  []string // LIKE patterns for strings
}

// diffFile is one Parquet file's usable columns.
type diffFile struct {
	path string
	cols []*diffCol
}

func kindOf(typ string) (colKind, int) {
	switch {
	case typ == "TIME_NS":
		return kSkip, 0
	case slices.Contains([]string{"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT"}, typ):
		return kInt, 0
	case typ == "FLOAT" || typ == "DOUBLE":
		return kFloat, 0
	case strings.HasPrefix(typ, "DECIMAL("):
		var p, s int
		fmt.Sscanf(typ, "DECIMAL(%d,%d)", &p, &s)
		return kDecimal, s
	case typ == "VARCHAR":
		return kString, 0
	case typ == "DATE":
		return kDate, 0
	case typ == "TIMESTAMP" || typ == "TIMESTAMP_NS" || typ == "TIMESTAMP_MS" || typ == "TIMESTAMP_S":
		return kTS, 0
	case typ == "TIMESTAMP WITH TIME ZONE":
		return kTSTZ, 0
	case typ == "BOOLEAN":
		return kBool, 0
	}
	return kOther, 0
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
func quoteStr(s string) string   { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// intBounds are the limits of each integer type, as text, for edge literals.
var intBounds = map[string][2]string{
	"TINYINT":   {"-128", "127"},
	"SMALLINT":  {"-32768", "32767"},
	"INTEGER":   {"-2147483648", "2147483647"},
	"BIGINT":    {"-9223372036854775808", "9223372036854775807"},
	"UTINYINT":  {"0", "255"},
	"USMALLINT": {"0", "65535"},
	"UINTEGER":  {"0", "4294967295"},
	"UBIGINT":   {"0", "18446744073709551615"},
}

// loadFile asks DuckDB for the schema and, per column, a deterministic
// sample of distinct values plus min and max, and turns them into literals.
func loadFile(ctx context.Context, s *Session, path string) (*diffFile, error) {
	res, err := s.Query(ctx, "SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM "+quoteStr(path)+")", false)
	if err != nil {
		return nil, fmt.Errorf("describe %s: %w", path, err)
	}
	df := &diffFile{path: path}
	for _, row := range res.Rows {
		name, typ, _ := strings.Cut(row, "\t")
		k, sc := kindOf(typ)
		if k == kSkip {
			continue
		}
		c := &diffCol{name: name, typ: typ, kind: k, scale: sc}
		if k != kOther {
			if err := c.loadLiterals(ctx, s, path); err != nil {
				return nil, err
			}
		}
		df.cols = append(df.cols, c)
	}
	return df, nil
}

func (c *diffCol) loadLiterals(ctx context.Context, s *Session, path string) error {
	id := quoteIdent(c.name)
	from := " FROM " + quoteStr(path)
	sample, err := s.Query(ctx, "SELECT v FROM (SELECT DISTINCT "+id+"::VARCHAR AS v"+from+" WHERE "+id+" IS NOT NULL) ORDER BY hash(v), v LIMIT 40", true)
	if err != nil {
		return fmt.Errorf("sample %s.%s: %w", path, c.name, err)
	}
	mm, err := s.Query(ctx, "SELECT min("+id+")::VARCHAR, max("+id+")::VARCHAR"+from, false)
	if err != nil {
		return fmt.Errorf("min/max %s.%s: %w", path, c.name, err)
	}
	vals := slices.Clone(sample.Rows)
	var lo, hi string
	if len(mm.Rows) == 1 {
		lo, hi, _ = strings.Cut(mm.Rows[0], "\t")
		if lo != "NULL" {
			vals = append(vals, lo, hi)
		}
	}
	add := func(sql string) {
		if sql != "" && !slices.Contains(c.lits, sql) {
			c.lits = append(c.lits, sql)
		}
	}
	for _, v := range vals {
		if v == "(empty)" {
			v = ""
		}
		add(c.literal(v))
	}
	// Just outside the data, and the type's edges.
	switch c.kind {
	case kInt:
		for _, v := range []string{lo, hi} {
			if n, ok := new(big.Int).SetString(v, 10); ok {
				add(new(big.Int).Sub(n, big.NewInt(1)).String())
				add(new(big.Int).Add(n, big.NewInt(1)).String())
			}
		}
		if b, ok := intBounds[c.typ]; ok {
			add(b[0])
			add(b[1])
		}
		add("0")
		add("-1")
		add("9223372036854775807")
		add("18446744073709551615")
		add("-9223372036854775808")
	case kFloat:
		for _, v := range []string{lo, hi} {
			if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
				add(c.floatLit(math.Nextafter(f, math.Inf(-1))))
				add(c.floatLit(math.Nextafter(f, math.Inf(1))))
				add(c.floatLit(f - 0.5))
				add(c.floatLit(f + 0.5))
			}
		}
		for _, v := range []string{"NaN", "-0.0", "0.0", "inf", "-inf", "1.5", "-1"} {
			add(c.literal(v))
		}
	case kDecimal:
		for _, v := range []string{lo, hi} {
			add(decimalStep(v, -1))
			add(decimalStep(v, 1))
		}
		add("0")
		add("-0.001")
		add("0.5")
	case kString:
		add("''")
		if lo != "" && lo != "NULL" {
			r := []rune(lo)
			add(quoteStr(string(r[:len(r)-1])))
		}
		if hi != "NULL" {
			add(quoteStr(hi + "~"))
			add(quoteStr(hi + "\u00ff"))
		}
		add("'~'")
		for _, v := range vals {
			if v == "(empty)" {
				continue
			}
			r := []rune(v)
			for _, n := range []int{0, 1, 2, len(r) / 2} {
				if n <= len(r) {
					p := strings.NewReplacer("%", "", "_", "", "\\", "").Replace(string(r[:n]))
					c.prefixes = append(c.prefixes, quoteStr(p+"%"))
				}
			}
		}
	case kDate:
		for _, v := range []string{lo, hi} {
			if t, err := time.Parse("2006-01-02", v); err == nil {
				add(c.literal(t.AddDate(0, 0, -1).Format("2006-01-02")))
				add(c.literal(t.AddDate(0, 0, 1).Format("2006-01-02")))
			}
		}
		add("DATE '1970-01-01'")
		add("DATE '1969-12-31'")
	case kTS, kTSTZ:
		for _, v := range []string{lo, hi} {
			t, err := time.Parse("2006-01-02 15:04:05.999999999", strings.TrimSuffix(v, "+00"))
			if err == nil {
				for _, d := range []time.Duration{-time.Nanosecond, time.Nanosecond, -time.Microsecond, time.Microsecond, -time.Second, time.Second} {
					add(c.literal(t.Add(d).Format("2006-01-02 15:04:05.999999999")))
				}
			}
		}
		add(c.literal("1970-01-01 00:00:00"))
	case kBool:
		add("true")
		add("false")
	}
	return nil
}

func (c *diffCol) floatLit(f float64) string {
	if c.typ == "FLOAT" {
		f = float64(float32(f))
	}
	return c.literal(strconv.FormatFloat(f, 'g', -1, 64))
}

// decimalStep adds delta units of the last digit to decimal text.
func decimalStep(v string, delta int64) string {
	scale := 0
	if i := strings.IndexByte(v, '.'); i >= 0 {
		scale = len(v) - i - 1
	}
	n, ok := new(big.Int).SetString(strings.Replace(v, ".", "", 1), 10)
	if !ok {
		return ""
	}
	n.Add(n, big.NewInt(delta))
	neg := n.Sign() < 0
	digits := new(big.Int).Abs(n).String()
	for len(digits) <= scale {
		digits = "0" + digits
	}
	out := digits
	if scale > 0 {
		out = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg {
		out = "-" + out
	}
	return out
}

// literal turns DuckDB's text of a value of c's type into SQL.
func (c *diffCol) literal(v string) string {
	switch c.kind {
	case kInt, kDecimal:
		return v
	case kFloat:
		switch v {
		case "nan", "NaN", "-nan":
			return "'NaN'::" + c.typ
		case "inf", "-inf":
			return "'" + v + "'::" + c.typ
		}
		if strings.ContainsAny(v, "e") {
			return "'" + v + "'::" + c.typ
		}
		return v
	case kString:
		return quoteStr(v)
	case kDate:
		// pqsql refuses years past 9999 (reported once; left out since).
		if strings.Contains(v, "(BC)") || strings.Contains(v, "infinity") || len(v) > 10 {
			return ""
		}
		return "DATE " + quoteStr(v)
	case kTS, kTSTZ:
		if strings.Contains(v, "(BC)") || strings.Contains(v, "infinity") || len(v) > 0 && v[0] > '2' {
			return ""
		}
		v = strings.TrimSuffix(v, "+00")
		switch {
		case c.typ == "TIMESTAMP_NS":
			return "CAST(" + quoteStr(v) + " AS TIMESTAMP_NS)"
		case c.kind == kTSTZ && len(v)%2 == 0:
			return "TIMESTAMPTZ " + quoteStr(v+"+00")
		}
		return "TIMESTAMP " + quoteStr(v)
	case kBool:
		return v
	}
	return ""
}

// pred is a node of a random WHERE tree.
type pred struct {
	op   string // "AND", "OR", "NOT", or "leaf"
	kids []*pred
	leaf string
	// in-list leaves keep their parts, so the shrinker can drop elements
	inCol, inNot string
	inList       []string
}

func (p *pred) String() string {
	switch p.op {
	case "AND", "OR":
		return "(" + p.kids[0].String() + " " + p.op + " " + p.kids[1].String() + ")"
	case "NOT":
		return "(NOT " + p.kids[0].String() + ")"
	}
	if p.inCol != "" {
		return p.inCol + p.inNot + " IN (" + strings.Join(p.inList, ", ") + ")"
	}
	return p.leaf
}

// gen draws queries from a seeded source.
type gen struct {
	r *rand.Rand
	// qual prefixes column names ("a." in a join), empty for one table.
	qual string
}

// col is c's name as written in the query.
func (g *gen) col(c *diffCol) string { return g.qual + quoteIdent(c.name) }

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func (g *gen) lit(c *diffCol) string {
	if g.pick(25) == 0 {
		return "NULL"
	}
	return c.lits[g.pick(len(c.lits))]
}

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">="}

// flip turns "c op v" into "v op' c".
var flip = map[string]string{"=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

func (g *gen) leaf(cols []*diffCol) *pred {
	c := cols[g.pick(len(cols))]
	id := g.col(c)
	if c.kind == kOther || len(c.lits) == 0 || g.pick(10) == 0 {
		if g.pick(2) == 0 {
			return &pred{op: "leaf", leaf: id + " IS NULL"}
		}
		return &pred{op: "leaf", leaf: id + " IS NOT NULL"}
	}
	choice := g.pick(10)
	if c.kind == kString && choice == 9 && len(c.prefixes) > 0 {
		not := ""
		if g.pick(4) == 0 {
			not = " NOT"
		}
		return &pred{op: "leaf", leaf: id + not + " LIKE " + c.prefixes[g.pick(len(c.prefixes))]}
	}
	switch {
	case choice < 6:
		op := cmpOps[g.pick(len(cmpOps))]
		if c.kind == kBool && g.pick(2) == 0 {
			op = "="
		}
		v := g.lit(c)
		if g.pick(5) == 0 {
			return &pred{op: "leaf", leaf: v + " " + flip[op] + " " + id}
		}
		return &pred{op: "leaf", leaf: id + " " + op + " " + v}
	case choice < 8:
		n := 1 + g.pick(5)
		var list []string
		for range n {
			list = append(list, g.lit(c))
		}
		not := ""
		if g.pick(4) == 0 {
			not = " NOT"
		}
		return &pred{op: "leaf", inCol: id, inNot: not, inList: list}
	default:
		a, b := c.lits[g.pick(len(c.lits))], c.lits[g.pick(len(c.lits))]
		not := ""
		if g.pick(4) == 0 {
			not = " NOT"
		}
		return &pred{op: "leaf", leaf: id + not + " BETWEEN " + a + " AND " + b}
	}
}

func (g *gen) tree(cols []*diffCol, depth int) *pred {
	if depth == 0 || g.pick(3) == 0 {
		return g.leaf(cols)
	}
	switch g.pick(5) {
	case 0:
		return &pred{op: "NOT", kids: []*pred{g.tree(cols, depth-1)}}
	case 1, 2:
		return &pred{op: "AND", kids: []*pred{g.tree(cols, depth-1), g.tree(cols, depth-1)}}
	default:
		return &pred{op: "OR", kids: []*pred{g.tree(cols, depth-1), g.tree(cols, depth-1)}}
	}
}

// aggs draws up to three aggregates besides count(*).
func (g *gen) aggs(cols []*diffCol) []string {
	var out []string
	for range g.pick(4) {
		c := cols[g.pick(len(cols))]
		id := g.col(c)
		switch {
		case c.kind == kOther && strings.ContainsAny(c.typ, "[(") && !strings.HasPrefix(c.typ, "DECIMAL"),
			c.typ == "VARIANT": // pqsql refuses min/max of VARIANT: DuckDB orders it by its encoding
			out = append(out, "count("+id+")")
		case c.kind == kInt || c.kind == kDecimal:
			out = append(out, []string{"count(", "min(", "max(", "sum("}[g.pick(4)]+id+")")
		default:
			out = append(out, []string{"count(", "min(", "max("}[g.pick(3)]+id+")")
		}
	}
	return out
}

// diffQuery is one generated query, kept in parts for shrinking.
type diffQuery struct {
	file  string
	aggs  []string
	where *pred
}

func (q diffQuery) SQL() string {
	sel := append([]string{"count(*)"}, q.aggs...)
	return "SELECT " + strings.Join(sel, ", ") + " FROM " + quoteStr(q.file) + " WHERE " + q.where.String()
}

// answer is one engine's reply: the row's cells, or an error.
type answer struct {
	cells string
	err   error
}

func (a answer) String() string {
	if a.err != nil {
		return "error: " + oneLine(a.err.Error())
	}
	return a.cells
}

// differ holds the two engines.
type differ struct {
	duck *Session
	// guardSize makes a query DuckDB counts more than maxJoinRows rows for
	// its own class, so shrinking a join never grows it past that.
	guardSize bool
	// last is DuckDB's answer to lastSQL: the size guard and the verdict
	// ask for the same query one after the other, and it runs once.
	lastSQL string
	last    answer
}

func (d *differ) duckAnswer(ctx context.Context, sql string) answer {
	if sql == d.lastSQL {
		return d.last
	}
	// Only the rendered run: the diff compares text, and the single row
	// needs no order check, which would trip over min/max of a -0.0/0.0
	// tie that DuckDB resolves differently from run to run.
	rows, err := d.duck.Rendered(ctx, sql)
	a := answer{cells: sortedRows(rows)}
	if err != nil {
		a = answer{err: err}
	}
	d.lastSQL, d.last = sql, a
	return a
}

// sortedRows joins rows in sorted order: results are compared as multisets,
// since the generated queries have no total ORDER BY.
func sortedRows(rows []string) string {
	rows = slices.Clone(rows)
	slices.Sort(rows)
	return strings.Join(rows, "\n")
}

// pqsqlAnswer runs sql in a fresh pqsql session, with or without pruning.
func pqsqlAnswer(ctx context.Context, sql string, prune bool) (a answer) {
	defer func() {
		if r := recover(); r != nil {
			a = answer{err: fmt.Errorf("%w: %v", ErrPanic, r)}
		}
	}()
	s := exec.NewSession()
	if !prune {
		s.Settings = exec.Settings{}
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	res, err := s.Execute(ctx, sql)
	if err != nil {
		return answer{err: err}
	}
	var rows []string
	for i := range res.NumRows() {
		var cells []string
		for c := range res.Columns {
			text, null := res.Cell(i, c)
			switch {
			case null:
				text = "NULL"
			case text == "":
				text = "(empty)"
			}
			cells = append(cells, text)
		}
		rows = append(rows, strings.Join(cells, "\t"))
	}
	return answer{cells: sortedRows(rows)}
}

// verdict compares the engines on one query: "" when they agree (or both
// fail), else a class.
func (d *differ) verdict(ctx context.Context, sql string) (string, answer, answer, answer) {
	if d.guardSize && d.tooLarge(ctx, sql) {
		return tooLargeClass, answer{}, answer{}, answer{}
	}
	da := d.duckAnswer(ctx, sql)
	pa := pqsqlAnswer(ctx, sql, true)
	switch {
	case da.err != nil && pa.err != nil:
		return "", da, pa, answer{}
	case da.err != nil:
		return "duckdb-only error", da, pa, answer{}
	case pa.err != nil:
		if strings.Contains(pa.err.Error(), ErrPanic.Error()) {
			return "pqsql panic", da, pa, answer{}
		}
		return "pqsql-only error", da, pa, answer{}
	case da.cells == pa.cells:
		return "", da, pa, answer{}
	case knownDuckDB(da.cells, pa.cells):
		return knownClass, da, pa, answer{}
	}
	off := pqsqlAnswer(ctx, sql, false)
	if off.err == nil && off.cells == da.cells {
		return "pruning (pqsql agrees with DuckDB only with pruning off)", da, pa, off
	}
	if off.err == nil && off.cells == pa.cells {
		return "evaluation (pqsql gives the same answer with pruning off)", da, pa, off
	}
	return "mixed (pqsql differs from DuckDB and from itself with pruning off)", da, pa, off
}

// tooLargeClass is the verdict for a join past maxJoinRows rows, which
// is not run.
const tooLargeClass = "too large"

// knownClass is the verdict for the DuckDB 1.5.6 bugs the suite already
// marks (README.md, Markers): INT64-extreme nanosecond timestamps read as
// infinity, and nanoseconds truncated toward zero on conversion to
// TIMESTAMPTZ (-1 ns becomes 1970-01-01 00:00:00+00). It also covers a
// min or max over both -0.0 and 0.0, or over NaNs of either sign, where
// either answer is right; and the scalar queries of diffscalar_known.go.
const knownClass = "known DuckDB difference (nanosecond timestamps, ±0 and ±NaN ties, printf digits, TIMESTAMPTZ text)"

func knownDuckDB(duck, pq string) bool {
	cellSep := func(r rune) bool { return r == '\t' || r == '\n' }
	d, p := strings.FieldsFunc(duck, cellSep), strings.FieldsFunc(pq, cellSep)
	if len(d) != len(p) {
		return false
	}
	for i := range d {
		switch {
		case d[i] == p[i]:
		case (d[i] == "-0.0" || d[i] == "0.0") && (p[i] == "-0.0" || p[i] == "0.0"),
			(d[i] == "nan" || d[i] == "-nan") && (p[i] == "nan" || p[i] == "-nan"):
			// min/max over a tie of -0.0 and 0.0, or of NaNs with either
			// sign bit (all NaNs are equal): either is right, and DuckDB's
			// pick depends on its parallel scan order.
		case (d[i] == "infinity" || d[i] == "-infinity") && (strings.HasPrefix(p[i], "2262-") || strings.HasPrefix(p[i], "1677-")):
		case d[i] == "1970-01-01 00:00:00+00" && p[i] == "1969-12-31 23:59:59.999999+00":
		default:
			return false
		}
	}
	return true
}

// A diffCase is a generated query that knows its one-step smaller versions.
type diffCase interface {
	SQL() string
	smaller() []diffCase
}

func (q diffQuery) smaller() []diffCase {
	var out []diffCase
	for _, c := range candidates(q) {
		out = append(out, c)
	}
	return out
}

// shrink makes q smaller while the verdict's class stays the same.
func (d *differ) shrink(ctx context.Context, q diffCase, class string) diffCase {
	still := func(c diffCase) bool {
		k, _, _, _ := d.verdict(ctx, c.SQL())
		return k == class
	}
	for changed := true; changed; {
		changed = false
		for _, c := range q.smaller() {
			if still(c) {
				q, changed = c, true
				break
			}
		}
	}
	return q
}

// candidates are the one-step smaller versions of q.
func candidates(q diffQuery) []diffQuery {
	var out []diffQuery
	for i := range q.aggs {
		c := q
		c.aggs = slices.Delete(slices.Clone(q.aggs), i, i+1)
		out = append(out, c)
	}
	for _, w := range smallerPreds(q.where) {
		c := q
		c.where = w
		out = append(out, c)
	}
	return out
}

// smallerPreds replaces a node by one of its children, or drops an IN
// element, anywhere in the tree.
func smallerPreds(p *pred) []*pred {
	var out []*pred
	if p.op != "leaf" {
		out = append(out, p.kids...)
		for i, k := range p.kids {
			for _, s := range smallerPreds(k) {
				n := *p
				n.kids = slices.Clone(p.kids)
				n.kids[i] = s
				out = append(out, &n)
			}
		}
		return out
	}
	if p.inCol != "" && len(p.inList) > 1 {
		for i := range p.inList {
			n := *p
			n.inList = slices.Delete(slices.Clone(p.inList), i, i+1)
			out = append(out, &n)
		}
	}
	return out
}

// RunDiff runs cfg.Count random queries and reports every disagreement.
func RunDiff(ctx context.Context, cfg DiffConfig) (DiffStats, error) {
	st := DiffStats{Classes: map[string]int{}}
	duck, err := OpenSession(ctx)
	if err != nil {
		return st, err
	}
	defer duck.Close()
	paths := slices.Clone(cfg.Files)
	nGen := 0
	if cfg.GenDir != "" {
		gen, err := genFiles(ctx, duck, cfg.GenDir)
		if err != nil {
			return st, err
		}
		paths = append(paths, gen...)
		nGen = len(gen)
	}
	var files []*diffFile
	for _, p := range paths {
		f, err := loadFile(ctx, duck, p)
		if err != nil {
			return st, err
		}
		if len(f.cols) > 0 {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return st, ErrNoFiles
	}
	for _, set := range []string{duckNoPushdown, duckMemory, duckFlush, duckThreads} {
		if err := duck.Exec(ctx, set); err != nil {
			return st, fmt.Errorf("duckdb: %s: %w", set, err)
		}
	}
	d := &differ{duck: duck}
	g := &gen{r: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15))}
	var next func() diffCase
	switch cfg.Kind {
	case "", KindFilter:
		next = func() diffCase {
			// Half the queries go to the generated files, the only ones with
			// many row groups besides the orders fixtures.
			f := files[g.pick(len(files))]
			if nGen > 0 && nGen < len(files) && g.pick(2) == 0 {
				f = files[len(files)-nGen+g.pick(nGen)]
			}
			return diffQuery{file: f.path, aggs: g.aggs(f.cols), where: g.tree(f.cols, 3)}
		}
	case KindJoin:
		d.guardSize = true
		jg := &joinGen{g: g, files: files, d: d, ctx: ctx, rows: map[string]int64{}}
		next = jg.next
	case KindScalar:
		sg := newScalarGen(g, files)
		next = sg.next
	default:
		return st, fmt.Errorf("%w: %q", ErrKind, cfg.Kind)
	}
	seen := map[string]bool{}
	reported := 0
	for i := range cfg.Count {
		if i > 0 && i%100 == 0 {
			fmt.Fprintf(cfg.Out, "progress: %s %d queries, %d agree, %d both fail, %d mismatches, %d pqsql-only errors, %d DuckDB-only errors\n",
				time.Now().UTC().Format("15:04:05"), i, st.Agree, st.BothError, st.Mismatch, st.PqsqlOnlyError, st.DuckOnlyError)
		}
		q := next()
		sql := q.SQL()
		st.Queries++
		if cfg.Verbose {
			// Before the run, so a query that hangs or grows the process
			// is on record.
			fmt.Fprintf(cfg.Out, "#%d %s\n", i, sql)
		}
		class, da, pa, off := d.verdict(ctx, sql)
		if b, ok := q.(interface{ duckDBBug(duck, pq answer) bool }); ok && (class == "pqsql-only error" || strings.HasPrefix(class, "evaluation") || strings.HasPrefix(class, "mixed")) && b.duckDBBug(da, pa) {
			class = knownClass
		}
		if cfg.Verbose {
			fmt.Fprintf(cfg.Out, "  duckdb %s | pqsql %s\n", da, pa)
		}
		switch class {
		case "":
			if da.err != nil {
				st.BothError++
			} else {
				st.Agree++
			}
			continue
		case knownClass:
			st.Known++
			continue
		case "duckdb-only error":
			st.DuckOnlyError++
		case "pqsql-only error", "pqsql panic":
			st.PqsqlOnlyError++
		default:
			st.Mismatch++
		}
		st.Classes[class]++
		small := d.shrink(ctx, q, class)
		ssql := small.SQL()
		if seen[ssql] {
			continue
		}
		seen[ssql] = true
		if reported >= cfg.MaxReports {
			continue
		}
		reported++
		_, sda, spa, soff := d.verdict(ctx, ssql)
		fmt.Fprintf(cfg.Out, "MISMATCH #%d [%s]\n  original: %s\n    duckdb %s | pqsql %s | pqsql pruning off %s\n  minimized: %s\n  duckdb:           %s\n  pqsql:            %s\n",
			i, class, sql, da, pa, off, ssql, sda, spa)
		if soff.err != nil || soff.cells != "" {
			fmt.Fprintf(cfg.Out, "  pqsql pruning off: %s\n", soff)
		}
	}
	return st, nil
}

// defaultDiffFiles are the fixtures and the corpus files with page indexes,
// Bloom filters or tricky statistics, relative to the repository root.
func defaultDiffFiles(root string) []string {
	fixtures, _ := filepath.Glob(filepath.Join(root, "fixtures", "*.parquet"))
	var out []string
	for _, f := range fixtures {
		rel, _ := filepath.Rel(root, f)
		out = append(out, rel)
	}
	corpus := filepath.Join(root, "..", "shared", "parquet-testing", "data")
	for _, name := range []string{
		"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet",
		"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet",
		"int32_with_null_pages.parquet", "floating_orders_nan_count.parquet",
		"binary_truncated_min_max.parquet", "fixed_length_decimal.parquet",
		"fixed_length_decimal_legacy.parquet", "byte_array_decimal.parquet", "int64_decimal.parquet",
		"alltypes_plain.parquet", "alltypes_dictionary.parquet", "nulls.snappy.parquet",
		"datapage_v2.snappy.parquet", "delta_binary_packed.parquet", "delta_byte_array.parquet",
		"delta_encoding_optional_column.parquet", "page_v2_empty_compressed.parquet",
		"rle_boolean_encoding.parquet", "float16_nonzeros_and_nans.parquet", "float16_zeros_and_nans.parquet",
		"single_nan.parquet", "overflow_i16_page_cnt.parquet", "plain-dict-uncompressed-checksum.parquet",
		"incorrect_map_schema.parquet", "uuid_data.parquet", "dict-page-offset-zero.parquet",
	} {
		p := filepath.Join(corpus, name)
		if _, err := os.Stat(p); err == nil {
			abs, _ := filepath.Abs(p)
			out = append(out, abs)
		}
	}
	return out
}

// runDiff is the -diff mode: exit 0 when the engines agree on every query,
// 1 on any disagreement, 2 when the run cannot start.
func runDiff(args []string, kind string, seed uint64, count, maxReports int, genDir string, verbose bool, out io.Writer) int {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(out, err)
		return 2
	}
	root, err := findRoot(cwd)
	if err != nil {
		fmt.Fprintln(out, err)
		return 2
	}
	var files []string
	for _, a := range args {
		if !filepath.IsAbs(a) {
			a = filepath.Join(cwd, a)
		}
		files = append(files, a)
	}
	if len(files) == 0 {
		files = defaultDiffFiles(root)
	}
	// Fixture paths are written into FROM relative to the repository root.
	if err := os.Chdir(root); err != nil {
		fmt.Fprintln(out, err)
		return 2
	}
	for i, f := range files {
		if rel, err := filepath.Rel(root, f); err == nil && filepath.IsAbs(f) && !strings.HasPrefix(rel, "..") {
			files[i] = rel
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(pqsqlMemory)
	}
	start := time.Now()
	st, err := RunDiff(context.Background(), DiffConfig{Seed: seed, Count: count, Files: files, GenDir: genDir, Verbose: verbose, Out: out, MaxReports: maxReports, Kind: kind})
	if err != nil {
		fmt.Fprintln(out, err)
		return 2
	}
	fmt.Fprintf(out, "%d queries over %d files in %s: %d agree, %d known DuckDB differences, %d both engines fail, %d mismatches, %d pqsql-only errors, %d DuckDB-only errors\n",
		st.Queries, len(files), time.Since(start).Round(time.Second), st.Agree, st.Known, st.BothError, st.Mismatch, st.PqsqlOnlyError, st.DuckOnlyError)
	classes := make([]string, 0, len(st.Classes))
	for c := range st.Classes {
		classes = append(classes, c)
	}
	slices.Sort(classes)
	for _, c := range classes {
		fmt.Fprintf(out, "  %5d %s\n", st.Classes[c], c)
	}
	if st.Mismatch+st.PqsqlOnlyError+st.DuckOnlyError > 0 {
		return 1
	}
	return 0
}

// genSource is the rows of the files -gen writes: deterministic (hash of the
// row number, no random()), with long sorted runs for statistics to prune,
// repeats for dictionaries and Bloom filters, and NULL, NaN, ±0, ±inf, huge
// unsigned values and empty strings.
const genSource = `SELECT
  CASE WHEN i % 97 = 0 THEN NULL ELSE i END AS id,
  (hash(i) % 1000)::INTEGER - 500 AS h,
  CASE WHEN i % 50 = 1 THEN 18446744073709551615 ELSE (i * 7919)::UBIGINT END AS u,
  CASE i % 13 WHEN 0 THEN 'NaN'::DOUBLE WHEN 1 THEN -0.0 WHEN 2 THEN 0.0 WHEN 3 THEN NULL
    WHEN 4 THEN (CASE WHEN i > 20000 THEN 'inf'::DOUBLE ELSE '-inf'::DOUBLE END)
    ELSE (i / 100.0 - 50)::DOUBLE END AS d,
  CASE WHEN i % 11 = 0 THEN 'NaN'::FLOAT WHEN i % 11 = 1 THEN -0.0::FLOAT ELSE ((i % 1000) / 8.0)::FLOAT END AS f,
  CASE WHEN i % 17 = 0 THEN NULL ELSE ['alpha','beta','gamma','delta','',' x','Zulu','éclair'][1 + (i // 1500) % 8] END AS s,
  CASE WHEN i % 23 = 0 THEN NULL ELSE 'k' || lpad((hash(i) % 100000)::VARCHAR, 6, '0') END AS s2,
  DATE '2020-01-01' + (i // 40)::INTEGER AS dt,
  TIMESTAMP '2023-06-01 00:00:00' + to_microseconds((i * 997)::BIGINT * 1000) AS ts,
  ((i % 4000) * 1.125 - 1000)::DECIMAL(18,3) AS dec,
  i % 3 = 0 AS b,
  ((i // 200) % 256 - 128)::TINYINT AS ti
FROM range(30000) t(i)`

// genFiles writes the generated files into dir and returns their paths.
func genFiles(ctx context.Context, s *Session, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []string
	for _, v := range []struct{ name, opts string }{
		{"gen_v1_rg2048.parquet", "ROW_GROUP_SIZE 2048"},
		{"gen_v2_rg5000.parquet", "ROW_GROUP_SIZE 5000, PARQUET_VERSION V2"},
		{"gen_sorted_rg4096.parquet", "ROW_GROUP_SIZE 4096, COMPRESSION ZSTD"},
	} {
		src := genSource
		if strings.Contains(v.name, "sorted") {
			src = "SELECT * FROM (" + genSource + ") ORDER BY s2 NULLS FIRST, id"
		}
		p := filepath.Join(dir, v.name)
		if err := s.Exec(ctx, "COPY ("+src+") TO "+quoteStr(p)+" (FORMAT PARQUET, "+v.opts+")"); err != nil {
			return nil, fmt.Errorf("write %s: %w", p, err)
		}
		out = append(out, p)
	}
	return out, nil
}
