package exec

import (
	"fmt"
	"runtime"
	"strconv"

	"github.com/pqsql/pqsql/format"
	"github.com/pqsql/pqsql/format/meta"
	"github.com/pqsql/pqsql/planner"
	"github.com/pqsql/pqsql/storage"
)

// A settingDef is one setting SET changes, RESET restores and
// duckdb_settings() lists. Those DuckDB shares keep its description, input
// type and scope; pqsql's own pushdown switches are per session (LOCAL).
type settingDef struct {
	name, description, inputType, scope string
	aliases                             []string
	// value renders the setting as duckdb_settings() shows it.
	value func(st *Settings) string
	// restore copies the setting from def (the defaults) into st.
	restore func(st, def *Settings)
}

func boolSetting(name, description string, field func(*Settings) *bool, aliases ...string) settingDef {
	return settingDef{
		name: name, description: description, inputType: "BOOLEAN", scope: "LOCAL", aliases: aliases,
		value:   func(st *Settings) string { return strconv.FormatBool(*field(st)) },
		restore: func(st, def *Settings) { *field(st) = *field(def) },
	}
}

// settingDefs are the session's settings, in duckdb_settings() order (by name).
var settingDefs = []settingDef{
	boolSetting("bloom_filter", "Skip row groups whose Bloom filters rule out every value an equality or IN list asks for",
		func(s *Settings) *bool { return &s.Bloom }, "bloom_filters", "bloom"),
	boolSetting("dictionary", "Skip row groups whose dictionaries hold no value the predicate can match",
		func(s *Settings) *bool { return &s.Dictionary }),
	boolSetting("join_filters", "Let an inner join rule out probe rows, and the pages holding them, with its build side's keys",
		func(s *Settings) *bool { return &s.JoinFilters }, "join_filter"),
	{
		name: "memory_limit", description: "The maximum memory of the system (e.g. 1GB)", inputType: "VARCHAR", scope: "GLOBAL",
		aliases: []string{"max_memory"},
		value: func(st *Settings) string {
			n := st.MemoryLimit
			if n == 0 {
				n = defaultMemoryLimit()
			}
			return humanBytes(n)
		},
		restore: func(st, def *Settings) { st.MemoryLimit = def.MemoryLimit },
	},
	boolSetting("optimizer", "Rewrite plans before they run (filter and projection pushdown, constant folding); off, EXPLAIN shows the plan as bound",
		func(s *Settings) *bool { return &s.Optimizer }),
	boolSetting("page_index", "Skip pages whose column index bounds rule out the predicate",
		func(s *Settings) *bool { return &s.PageIndex }),
	boolSetting("statistics", "Skip row groups whose column statistics rule out the predicate",
		func(s *Settings) *bool { return &s.Statistics }),
	{
		name: "temp_directory", description: "Set the directory to which to write temp files", inputType: "VARCHAR", scope: "GLOBAL",
		value: func(st *Settings) string {
			if st.TempDirectory == "" {
				return defaultTempDirectory()
			}
			return st.TempDirectory
		},
		restore: func(st, def *Settings) { st.TempDirectory = def.TempDirectory },
	},
	{
		name: "threads", description: "The number of total threads used by the system.", inputType: "BIGINT", scope: "GLOBAL",
		aliases: []string{"worker_threads"},
		value: func(st *Settings) string {
			if st.Threads == 0 {
				return strconv.Itoa(runtime.NumCPU())
			}
			return strconv.Itoa(st.Threads)
		},
		restore: func(st, def *Settings) { st.Threads = def.Threads },
	},
}

// lookupSetting finds a setting by its name or an alias.
func lookupSetting(name string) (*settingDef, bool) {
	for i := range settingDefs {
		d := &settingDefs[i]
		if d.name == name {
			return d, true
		}
		for _, a := range d.aliases {
			if a == name {
				return d, true
			}
		}
	}
	return nil, false
}

// reset restores one setting to its default, as a new session has it.
func (s *Session) reset(st *planner.Reset) (*Result, error) {
	d, ok := lookupSetting(st.Name)
	if !ok {
		if s.store.Reset(st.Name) {
			return &Result{}, nil
		}
		return nil, fmt.Errorf("%w \"%s\"", ErrUnknownSetting, st.Name)
	}
	def := NewSession().Settings
	d.restore(&s.Settings, &def)
	return &Result{}, nil
}

// settingRows are duckdb_settings()'s rows: each setting under its name,
// then each alias as a row of its own, as DuckDB lists them.
func (x *executor) settingRows() [][]planner.Datum {
	var rows [][]planner.Datum
	for _, d := range settingDefs {
		aliases := format.List{}
		for _, a := range d.aliases {
			aliases = append(aliases, format.Scalar{Logical: format.Logical{Kind: format.KindString},
				Values: &format.Values{Type: meta.ByteArray, Bytes: [][]byte{[]byte(a)}}})
		}
		v := d.value(&x.settings)
		rows = append(rows, []planner.Datum{str(d.name), str(v), str(d.description), str(d.inputType), str(d.scope), {N: aliases}})
		for _, a := range d.aliases {
			rows = append(rows, []planner.Datum{str(a), str(v), str(d.description), str(d.inputType), str(d.scope), {N: format.List{}}})
		}
	}
	if x.store != nil {
		for _, name := range storage.SettingNames {
			v, _ := x.store.Setting(name)
			rows = append(rows, []planner.Datum{str(name), str(v), str(storageSettingDescription), str("VARCHAR"), str("GLOBAL"), {N: format.List{}}})
		}
	}
	return rows
}

// storageSettingDescription describes the remote-file settings that
// duckdb_settings() lists from the session's storage.
const storageSettingDescription = "Remote files (S3, GCS, HTTP): credentials, retries and request shaping; keys read as redacted"

// humanBytes renders a size as DuckDB does in its settings: the largest
// binary unit with a whole part, and one truncated decimal ("953.6 MiB").
func humanBytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"}
	var parts [6]int64
	parts[0] = n
	for i := 1; i < len(parts); i++ {
		parts[i] = parts[i-1] / 1024
		parts[i-1] %= 1024
	}
	for i := len(parts) - 1; i >= 1; i-- {
		if parts[i] != 0 {
			return fmt.Sprintf("%d.%d %s", parts[i], parts[i-1]*10/1024, units[i])
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
