package exec

import (
	"testing"
)

// A CTE referenced once streams, holding nothing; one referenced twice is
// shared while its rows fit under memory_limit and run again for each
// reference when they do not, with the same answer, rather than failing.
// NOT MATERIALIZED runs it for each reference whatever its size.
func TestCTEHeldOnlyWhenShared(t *testing.T) {
	t.Chdir(moduleRoot(t))
	s := NewSession()
	const cte = "WITH t AS (SELECT order_id, city FROM " + ordersTimes5 + " LIMIT 100000) "
	// Read once, it holds nothing even under a limit its rows pass.
	mustExec(t, s, "SET memory_limit = '2MB'")
	if got := resultText(t, s, cte+"SELECT count(*), count(city) FROM (SELECT * FROM t)"); got != "100000\t95940\t\n" {
		t.Errorf("read once under 2MB: %q", got)
	}
	mustExec(t, s, "RESET memory_limit")

	twice := cte + "SELECT count(order_id), max(city) FROM t UNION ALL SELECT sum(order_id), min(city) FROM t"
	// DuckDB's answer (testdata/queries/cte_references.test).
	const want = "100000\tŁódź\t\n1000050000\tAarhus\t\n"
	if got := resultText(t, s, twice); got != want {
		t.Fatalf("shared: %q, want %q", got, want)
	}
	shared := bytesRead(t, s, twice)
	mustExec(t, s, "SET memory_limit = '2MB'")
	if got := resultText(t, s, twice); got != want {
		t.Errorf("under 2MB: %q, want %q", got, want)
	}
	if again := bytesRead(t, s, twice); again <= shared {
		t.Errorf("under 2MB read %d bytes, shared %d: want the CTE read again", again, shared)
	}
	mustExec(t, s, "RESET memory_limit")
	inline := "WITH t AS NOT MATERIALIZED (SELECT order_id, city FROM " + ordersTimes5 + " LIMIT 100000) " + twice[len(cte):]
	if got := resultText(t, s, inline); got != want {
		t.Errorf("NOT MATERIALIZED: %q, want %q", got, want)
	}
	if again := bytesRead(t, s, inline); again <= shared {
		t.Errorf("NOT MATERIALIZED read %d bytes, shared %d: want the CTE read again", again, shared)
	}
}
