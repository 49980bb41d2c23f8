-- Two files: the totals first, then the files; files one mechanism skips
-- whole are grouped by it (VERBOSE shows each in full).
EXPLAIN SELECT order_id FROM 'fixtures/orders_s*.parquet' WHERE customer_id = 424242;
EXPLAIN ANALYZE SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id < 3 UNION ALL SELECT order_id FROM 'fixtures/orders_shuffled.parquet' WHERE order_id < 3;
EXPLAIN VERBOSE SELECT order_id FROM 'fixtures/orders_s*.parquet' WHERE customer_id = 424242;
