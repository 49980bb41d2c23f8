package format

import "strings"

// QuoteFieldName is a STRUCT field name as DuckDB writes it in a type
// name: bare when it is letters, digits (not first) and underscores and
// no keyword of DuckDB's grammar, else in double quotes with quotes
// doubled (STRUCT("select" INTEGER, "Name" INTEGER, x1 INTEGER)).
func QuoteFieldName(name string) string {
	bare := name != "" && !duckKeywords[strings.ToLower(name)]
	for i := 0; i < len(name) && bare; i++ {
		c := name[i]
		bare = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
	}
	if bare {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// duckKeywords are the 489 words of DuckDB 1.5's grammar, of every category
// (duckdb_keywords()); a field name that is one is quoted.
var duckKeywords = map[string]bool{
	"abort": true, "absolute": true, "access": true, "action": true, "add": true, "admin": true, "after": true,
	"aggregate": true, "all": true, "also": true, "alter": true, "always": true, "analyse": true,
	"analyze": true, "and": true, "anti": true, "any": true, "array": true, "as": true, "asc": true,
	"asof": true, "assertion": true, "assignment": true, "asymmetric": true, "at": true, "attach": true,
	"attribute": true, "authorization": true, "backward": true, "before": true, "begin": true, "between": true,
	"bigint": true, "binary": true, "bit": true, "boolean": true, "both": true, "by": true, "cache": true,
	"call": true, "called": true, "cascade": true, "cascaded": true, "case": true, "cast": true,
	"catalog": true, "centuries": true, "century": true, "chain": true, "char": true, "character": true,
	"characteristics": true, "check": true, "checkpoint": true, "class": true, "close": true, "cluster": true,
	"coalesce": true, "collate": true, "collation": true, "column": true, "columns": true, "comment": true,
	"comments": true, "commit": true, "committed": true, "compression": true, "concurrently": true,
	"configuration": true, "conflict": true, "connection": true, "constraint": true, "constraints": true,
	"content": true, "continue": true, "conversion": true, "copy": true, "cost": true, "create": true,
	"cross": true, "csv": true, "cube": true, "current": true, "cursor": true, "cycle": true, "data": true,
	"database": true, "day": true, "days": true, "deallocate": true, "dec": true, "decade": true,
	"decades": true, "decimal": true, "declare": true, "default": true, "defaults": true, "deferrable": true,
	"deferred": true, "definer": true, "delete": true, "delimiter": true, "delimiters": true, "depends": true,
	"desc": true, "describe": true, "detach": true, "dictionary": true, "disable": true, "discard": true,
	"distinct": true, "do": true, "document": true, "domain": true, "double": true, "drop": true, "each": true,
	"else": true, "enable": true, "encoding": true, "encrypted": true, "end": true, "enum": true, "error": true,
	"escape": true, "event": true, "except": true, "exclude": true, "excluding": true, "exclusive": true,
	"execute": true, "exists": true, "explain": true, "export": true, "export_state": true, "extension": true,
	"extensions": true, "external": true, "extract": true, "false": true, "family": true, "fetch": true,
	"filter": true, "first": true, "float": true, "following": true, "for": true, "force": true,
	"foreign": true, "forward": true, "freeze": true, "from": true, "full": true, "function": true,
	"functions": true, "generated": true, "glob": true, "global": true, "grant": true, "granted": true,
	"group": true, "grouping": true, "grouping_id": true, "groups": true, "handler": true, "having": true,
	"header": true, "hold": true, "hour": true, "hours": true, "identity": true, "if": true, "ignore": true,
	"ilike": true, "immediate": true, "immutable": true, "implicit": true, "import": true, "in": true,
	"include": true, "including": true, "increment": true, "index": true, "indexes": true, "inherit": true,
	"inherits": true, "initially": true, "inline": true, "inner": true, "inout": true, "input": true,
	"insensitive": true, "insert": true, "install": true, "instead": true, "int": true, "integer": true,
	"intersect": true, "interval": true, "into": true, "invoker": true, "is": true, "isnull": true,
	"isolation": true, "join": true, "json": true, "key": true, "label": true, "lambda": true, "language": true,
	"large": true, "last": true, "lateral": true, "leading": true, "leakproof": true, "left": true,
	"level": true, "like": true, "limit": true, "listen": true, "load": true, "local": true, "location": true,
	"lock": true, "locked": true, "logged": true, "macro": true, "map": true, "mapping": true, "match": true,
	"matched": true, "materialized": true, "maxvalue": true, "merge": true, "method": true, "microsecond": true,
	"microseconds": true, "millennia": true, "millennium": true, "millisecond": true, "milliseconds": true,
	"minute": true, "minutes": true, "minvalue": true, "mode": true, "month": true, "months": true,
	"move": true, "name": true, "names": true, "national": true, "natural": true, "nchar": true, "new": true,
	"next": true, "no": true, "none": true, "not": true, "nothing": true, "notify": true, "notnull": true,
	"nowait": true, "null": true, "nullif": true, "nulls": true, "numeric": true, "object": true, "of": true,
	"off": true, "offset": true, "oids": true, "old": true, "on": true, "only": true, "operator": true,
	"option": true, "options": true, "or": true, "order": true, "ordinality": true, "others": true, "out": true,
	"outer": true, "over": true, "overlaps": true, "overlay": true, "overriding": true, "owned": true,
	"owner": true, "parallel": true, "parser": true, "partial": true, "partition": true, "partitioned": true,
	"passing": true, "password": true, "percent": true, "persistent": true, "pivot": true, "pivot_longer": true,
	"pivot_wider": true, "placing": true, "plans": true, "policy": true, "position": true, "positional": true,
	"pragma": true, "preceding": true, "precision": true, "prepare": true, "prepared": true, "preserve": true,
	"primary": true, "prior": true, "privileges": true, "procedural": true, "procedure": true, "program": true,
	"publication": true, "qualify": true, "quarter": true, "quarters": true, "quote": true, "range": true,
	"read": true, "real": true, "reassign": true, "recheck": true, "recursive": true, "ref": true,
	"references": true, "referencing": true, "refresh": true, "reindex": true, "relative": true,
	"release": true, "rename": true, "repeatable": true, "replace": true, "replica": true, "reset": true,
	"respect": true, "restart": true, "restrict": true, "returning": true, "returns": true, "revoke": true,
	"right": true, "role": true, "rollback": true, "rollup": true, "row": true, "rows": true, "rule": true,
	"sample": true, "savepoint": true, "schema": true, "schemas": true, "scope": true, "scroll": true,
	"search": true, "second": true, "seconds": true, "secret": true, "security": true, "select": true,
	"semi": true, "sequence": true, "sequences": true, "serializable": true, "server": true, "session": true,
	"set": true, "setof": true, "sets": true, "share": true, "show": true, "similar": true, "simple": true,
	"skip": true, "smallint": true, "snapshot": true, "some": true, "sorted": true, "source": true, "sql": true,
	"stable": true, "standalone": true, "start": true, "statement": true, "statistics": true, "stdin": true,
	"stdout": true, "storage": true, "stored": true, "strict": true, "strip": true, "struct": true,
	"subscription": true, "substring": true, "summarize": true, "symmetric": true, "sysid": true,
	"system": true, "table": true, "tables": true, "tablesample": true, "tablespace": true, "target": true,
	"temp": true, "template": true, "temporary": true, "text": true, "then": true, "ties": true, "time": true,
	"timestamp": true, "to": true, "trailing": true, "transaction": true, "transform": true, "treat": true,
	"trigger": true, "trim": true, "true": true, "truncate": true, "trusted": true, "try_cast": true,
	"type": true, "types": true, "unbounded": true, "uncommitted": true, "unencrypted": true, "union": true,
	"unique": true, "unknown": true, "unlisten": true, "unlogged": true, "unpack": true, "unpivot": true,
	"until": true, "update": true, "use": true, "user": true, "using": true, "vacuum": true, "valid": true,
	"validate": true, "validator": true, "value": true, "values": true, "varchar": true, "variable": true,
	"variadic": true, "varying": true, "verbose": true, "version": true, "view": true, "views": true,
	"virtual": true, "volatile": true, "week": true, "weeks": true, "when": true, "where": true,
	"whitespace": true, "window": true, "with": true, "within": true, "without": true, "work": true,
	"wrapper": true, "write": true, "xml": true, "xmlattributes": true, "xmlconcat": true, "xmlelement": true,
	"xmlexists": true, "xmlforest": true, "xmlnamespaces": true, "xmlparse": true, "xmlpi": true,
	"xmlroot": true, "xmlserialize": true, "xmltable": true, "year": true, "years": true, "yes": true,
	"zone": true,
}
