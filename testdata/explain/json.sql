-- EXPLAIN (FORMAT JSON): the plan as a tree of operators, pages as
-- objects with VERBOSE, < and > as themselves. Its keys are documented in
-- JSON.md and checked by TestExplainJSONSchema.
EXPLAIN (FORMAT JSON, VERBOSE) SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 19990 AND order_id < 19995;
