package exec

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// sumGroup is a group of the reference aggregation: exact sums in big
// integers, float sums in input order.
type sumGroup struct {
	rows, nv, nd, nf int64
	sv, sd           big.Int
	sf               float64
}

// TestGroupByMatchesReference compares GROUP BY answers with a reference
// computed here, over random rows: keys with NULLs (integer keys, which the
// columnar groups hold, and double keys with NaN, which the generic ones
// hold), BIGINT values near the ends of their range (the sums leave int64
// and widen), DECIMAL(18,3) values and doubles. It runs each query with one
// thread and with four, and under a memory_limit that makes it spill.
func TestGroupByMatchesReference(t *testing.T) {
	lowerSplit(t)
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 99))
		rows := 100 + rng.IntN(300)
		domain := []int{3, 40, 1000, 100000}[seed%4]
		big64 := seed%2 == 0
		var vals strings.Builder
		ref := map[string]*sumGroup{}
		var order []string
		for i := range rows {
			keyNull := rng.IntN(10) == 0
			k := int64(rng.IntN(domain)) - int64(domain/2)
			// A double key: NaN equals NaN, and -0 equals 0.
			fk := []string{"'NaN'::DOUBLE", "1.5", "-0.0", "0.0", "2.25"}[rng.IntN(5)]
			var v int64
			if big64 {
				v = math.MaxInt64 - int64(rng.IntN(1000))
				if rng.IntN(3) == 0 {
					v = math.MinInt64 + 1 + int64(rng.IntN(1000))
				}
			} else {
				v = int64(rng.IntN(2000)) - 1000
			}
			vNull := rng.IntN(7) == 0
			d := int64(rng.IntN(2_000_000_000_000)) - 1_000_000_000_000 // unscaled, 3 digits of scale
			dNull := rng.IntN(5) == 0
			f := float64(rng.IntN(4000)-2000) / 4 // exact in any order of addition
			if i > 0 {
				vals.WriteString(", ")
			}
			ks, vs, ds := fmt.Sprint(k), fmt.Sprint(v), fmt.Sprintf("%d.%03d", d/1000, abs64(d%1000))
			if d < 0 && d > -1000 {
				ds = "-" + ds
			}
			if keyNull {
				ks = "NULL"
			}
			if vNull {
				vs = "NULL"
			}
			if dNull {
				ds = "NULL"
			}
			fmt.Fprintf(&vals, "(%s::BIGINT, %s, %s::BIGINT, %s::DECIMAL(18,3), %g::DOUBLE)", ks, fk, vs, ds, f)
			g := ref[ks]
			if g == nil {
				g = &sumGroup{}
				ref[ks] = g
				order = append(order, ks)
			}
			g.rows++
			if !vNull {
				g.nv++
				g.sv.Add(&g.sv, big.NewInt(v))
			}
			if !dNull {
				g.nd++
				g.sd.Add(&g.sd, big.NewInt(d))
			}
			g.nf++
			g.sf += f
		}
		from := "(VALUES " + vals.String() + ") t(k, fk, v, d, f)"
		q := "SELECT k, count(*), count(v), sum(v), avg(v), sum(d), avg(d), sum(f), avg(f) FROM " + from + " GROUP BY k"
		var want []string
		for _, ks := range order {
			g := ref[ks]
			want = append(want, strings.Join([]string{ks, fmt.Sprint(g.rows), fmt.Sprint(g.nv),
				refSum(&g.sv, g.nv, 0), refAvg(&g.sv, g.nv, 0), refSum(&g.sd, g.nd, 3), refAvg(&g.sd, g.nd, 3),
				fmt.Sprint(g.sf), fmt.Sprint(g.sf / float64(g.nf))}, "|"))
		}
		for _, setup := range [][]string{
			{"SET threads = 1"},
			{"SET threads = 4"},
			{"SET threads = 2", "SET memory_limit = '200KB'", "SET temp_directory = '" + t.TempDir() + "'"},
		} {
			t.Run(fmt.Sprintf("seed %d, %s", seed, strings.Join(setup, ", ")), func(t *testing.T) {
				s := NewSession()
				for _, st := range setup {
					mustExec(t, s, st)
				}
				got := resultLines(t, s, q)
				if g, w := sortedLines(strings.Join(got, "\n")), sortedLines(strings.Join(want, "\n")); g != w {
					t.Fatalf("%d rows, %d groups: answers differ\ngot:\n%s\nwant:\n%s", rows, len(order), firstLines(g, 10), firstLines(w, 10))
				}
				// Double keys: NaN is one group, and -0 is 0.
				got = resultLines(t, s, "SELECT fk, count(*) FROM "+from+" GROUP BY fk")
				if len(got) != 4 {
					t.Fatalf("double keys: %d groups, want 4 (NaN, 0, 1.5, 2.25): %v", len(got), got)
				}
			})
		}
	}
}

// TestGroupByFixtureMatchesReference compares GROUP BY answers over five
// copies of the orders fixture (several row groups each, so that row
// groups' partial aggregates merge) with a reference aggregated here from
// the raw rows, for integer, date and computed keys.
func TestGroupByFixtureMatchesReference(t *testing.T) {
	lowerSplit(t)
	t.Chdir(moduleRoot(t))
	for _, key := range []string{"customer_id", "order_date", "priority", "customer_id % 7", "CASE WHEN quantity > 3 THEN customer_id END"} {
		raw := "SELECT " + key + ", quantity, amount, priority FROM " + ordersTimes5
		ref := map[string]*[4]big.Int{}
		counts := map[string]*[4]int64{} // rows, then each column's non-NULL values
		for _, line := range resultLines(t, NewSession(), raw) {
			f := strings.Split(line, "|")
			g := ref[f[0]]
			if g == nil {
				g = new([4]big.Int)
				ref[f[0]] = g
				counts[f[0]] = new([4]int64)
			}
			c := counts[f[0]]
			c[0]++
			for i, x := range f[1:] {
				if x == "NULL" {
					continue
				}
				c[1+i]++
				r, ok := new(big.Rat).SetString(x)
				if !ok {
					t.Fatalf("%q is no number", x)
				}
				g[i].Add(&g[i], new(big.Int).Quo(new(big.Int).Mul(r.Num(), big.NewInt(100)), r.Denom()))
			}
		}
		var want []string
		for k, g := range ref {
			c := counts[k]
			want = append(want, strings.Join([]string{k, fmt.Sprint(c[0]), refSum(new(big.Int).Quo(&g[0], big.NewInt(100)), c[1], 0),
				refAvg(&g[0], c[1], 2), refSum(&g[1], c[2], 2), refAvg(&g[1], c[2], 2), fmt.Sprint(c[3])}, "|"))
		}
		q := "SELECT " + key + ", count(*), sum(quantity), avg(quantity), sum(amount), avg(amount), count(priority) FROM " + ordersTimes5 + " GROUP BY 1"
		for _, setup := range [][]string{
			{"SET threads = 1"},
			{"SET threads = 2"},
			{"SET threads = 2", "SET memory_limit = '1MB'", "SET temp_directory = '" + t.TempDir() + "'"},
		} {
			t.Run(key+", "+strings.Join(setup, ", "), func(t *testing.T) {
				s := NewSession()
				for _, st := range setup {
					mustExec(t, s, st)
				}
				got := sortedLines(strings.Join(resultLines(t, s, q), "\n"))
				if w := sortedLines(strings.Join(want, "\n")); got != w {
					t.Fatalf("answers differ\ngot:\n%s\nwant:\n%s", firstLines(got, 10), firstLines(w, 10))
				}
			})
		}
	}
}

// lowerSplit makes the columnar groups split into parts per thread at a
// handful of groups, so that the small inputs of tests take that path.
func lowerSplit(t *testing.T) {
	old := splitGroups
	splitGroups = 4
	t.Cleanup(func() { splitGroups = old })
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// refSum is the text of a sum of n values whose unscaled sum is s.
func refSum(s *big.Int, n int64, scale int) string {
	if n == 0 {
		return "NULL"
	}
	if scale == 0 {
		return s.String()
	}
	r := new(big.Rat).SetFrac(s, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	return r.FloatString(scale)
}

// refAvg is the average of n values whose unscaled sum is s, correctly
// rounded to a double.
func refAvg(s *big.Int, n int64, scale int) string {
	if n == 0 {
		return "NULL"
	}
	return fmt.Sprint(longDoubleQuo(s, n, scale))
}

// longDoubleQuo is the exact quotient of s over n·10^scale rounded to a
// 64-bit significand, then to a double: DuckDB's long double average.
func longDoubleQuo(s *big.Int, n int64, scale int) float64 {
	r := new(big.Rat).SetFrac(s, new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	f, _ := new(big.Float).SetPrec(64).SetRat(r).Float64()
	return f
}

// resultLines runs q and returns its rows, columns joined by "|": integers
// and decimals as exact text, doubles as Go prints them.
func resultLines(t *testing.T, s *Session, q string) []string {
	t.Helper()
	res, err := s.Execute(context.Background(), q)
	if err != nil {
		t.Fatalf("%.200s: %v", q, err)
	}
	var lines []string
	for _, b := range res.Batches {
		for r := range b.Len {
			var cols []string
			for _, v := range b.Vectors {
				switch {
				case v.IsNull(r):
					cols = append(cols, "NULL")
				case v.Float != nil:
					cols = append(cols, fmt.Sprint(v.Float[r]))
				case v.Big != nil && v.Type.ID == TypeDecimal:
					cols = append(cols, new(big.Rat).SetFrac(v.Big[r], new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(v.Type.Scale)), nil)).FloatString(v.Type.Scale))
				case v.Big != nil:
					cols = append(cols, v.Big[r].String())
				default:
					cols = append(cols, string(AppendText(nil, v, r)))
				}
			}
			lines = append(lines, strings.Join(cols, "|"))
		}
	}
	return lines
}

func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestGroupColsSpill checks that groups held in columns spill under a
// memory_limit they exceed, with the answer they give in memory.
func TestGroupColsSpill(t *testing.T) {
	t.Chdir(moduleRoot(t))
	q := "SELECT order_id, count(*), sum(amount), avg(quantity), count(priority) FROM " + ordersTimes5 + " GROUP BY order_id ORDER BY order_id"
	want, files, _ := spillRun(t, NewSession(), q)
	if files != 0 {
		t.Fatalf("without a limit, %d temporary files", files)
	}
	s := NewSession()
	mustExec(t, s, "SET memory_limit = '512KB'")
	mustExec(t, s, "SET temp_directory = '"+t.TempDir()+"'")
	got, files, _ := spillRun(t, s, q)
	if files == 0 {
		t.Fatalf("under 512KB nothing spilled")
	}
	if got != want {
		t.Fatalf("under 512KB the answer differs (%d bytes, want %d)", len(got), len(want))
	}
}

// TestAvgOf checks the average against the exact quotient rounded to a
// 64-bit significand and then to a double, as DuckDB's long double
// division makes it, where the float division's operands are exact and
// where they are not; and SMALLINT's double division.
func TestAvgOf(t *testing.T) {
	for _, tc := range []struct {
		sum   int128
		n     int64
		scale int
	}{
		{int128{}.addInt(10), 3, 0},
		{int128{}.addInt(-7), 2, 2},
		{int128{}.addInt(1 << 60), 3, 0},
		{int128{}.addInt(123456789), 18447, 15}, // n·10^15 leaves int64
		{int128{}.addInt(math.MaxInt64).addInt(math.MaxInt64), 7, 3},
		{int128{}.addInt(math.MinInt64).addInt(-5), 9, 0},
		// The quotient rounded to 64 bits lands halfway between two
		// doubles: DuckDB answers 1596.4201204819278, one ulp above the
		// correctly rounded quotient.
		{int128{}.addInt(13250287), 83, 2},
		{int128{}.addInt(-13250287), 83, 2},
	} {
		typ := Type{ID: TypeBigInt}
		if tc.scale > 0 {
			typ = Type{ID: TypeDecimal, Precision: 12, Scale: tc.scale}
		}
		want := longDoubleQuo(tc.sum.big(), tc.n, tc.scale)
		if got := avgOf128(tc.sum, tc.n, typ); got != want {
			t.Errorf("avgOf128(%v, %d, scale %d) = %v, want %v", tc.sum.big(), tc.n, tc.scale, got, want)
		}
	}
	if got := avgOf128(int128{}.addInt(13250287), 83, Type{ID: TypeDecimal, Precision: 12, Scale: 2}); got != 1596.4201204819278 {
		t.Errorf("avg of 132502.87 over 83 = %v, want DuckDB's 1596.4201204819278", got)
	}
	// SMALLINT sums as a double: (2^53+1)/1 rounds the sum first.
	if got := avgOf128(int128{}.addInt(1<<53+1), 1, Type{ID: TypeSmallInt}); got != 1<<53 {
		t.Errorf("SMALLINT average = %v, want %v", got, float64(1<<53))
	}
}

// TestGroupColsPlainRows checks the groups of plain columns (integer keys
// and arguments without NULLs, read in place by each part) against sums
// computed here, with sums that leave int64 and widen part way through a
// batch.
func TestGroupColsPlainRows(t *testing.T) {
	lowerSplit(t)
	const rows, groups = 30000, 4001
	q := fmt.Sprintf("SELECT i %% %d AS k, count(*), sum(i), sum(9223372036854775807 - i), avg(i), sum(i::DOUBLE / 4), count(i) FROM (SELECT range AS i FROM range(%d)) GROUP BY k", groups, rows)
	want := map[string]string{}
	for k := range int64(groups) {
		var n int64
		var s, w big.Int
		var f float64
		for i := k; i < rows; i += groups {
			n++
			s.Add(&s, big.NewInt(i))
			w.Add(&w, big.NewInt(math.MaxInt64-i))
			f += float64(i) / 4
		}
		want[fmt.Sprint(k)] = strings.Join([]string{fmt.Sprint(k), fmt.Sprint(n), s.String(), w.String(), refAvg(&s, n, 0), fmt.Sprint(f), fmt.Sprint(n)}, "|")
	}
	for _, threads := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("threads %d", threads), func(t *testing.T) {
			s := NewSession()
			mustExec(t, s, fmt.Sprintf("SET threads = %d", threads))
			got := resultLines(t, s, q)
			if len(got) != groups {
				t.Fatalf("%d groups, want %d", len(got), groups)
			}
			for _, line := range got {
				k, _, _ := strings.Cut(line, "|")
				if want[k] != line {
					t.Fatalf("group %s: got %s, want %s", k, line, want[k])
				}
			}
		})
	}
}

// TestGroupColsReadAhead checks the groups of a part large enough that its
// probes read a batch's slots and rows ahead (groupsOf), keys repeating
// across batches in another order, against counts and sums computed here.
func TestGroupColsReadAhead(t *testing.T) {
	const rows, groups = 300000, 3 * touchGroups
	q := fmt.Sprintf("SELECT (i * 7919) %% %d AS k, count(*), sum(i) FROM (SELECT range AS i FROM range(%d)) GROUP BY k", groups, rows)
	n := map[int64]int64{}
	sum := map[int64]int64{}
	for i := range int64(rows) {
		k := (i * 7919) % groups
		n[k]++
		sum[k] += i
	}
	for _, threads := range []int{1, 2} {
		s := NewSession()
		mustExec(t, s, fmt.Sprintf("SET threads = %d", threads))
		got := resultLines(t, s, q)
		if len(got) != groups {
			t.Fatalf("threads %d: %d groups, want %d", threads, len(got), groups)
		}
		for _, line := range got {
			var k, c, x int64
			if _, err := fmt.Sscanf(line, "%d|%d|%d", &k, &c, &x); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			if c != n[k] || x != sum[k] {
				t.Fatalf("threads %d: group %d: count %d sum %d, want %d %d", threads, k, c, x, n[k], sum[k])
			}
		}
	}
}
