-- A LIMIT without WHERE reads the first page of each column of the first
-- row group: the rest of the plan is not read after LIMIT.
EXPLAIN ANALYZE SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' LIMIT 3;
-- Without ANALYZE the plan cannot know where the LIMIT stops the scan: it
-- says so instead of a share skipped.
EXPLAIN SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' LIMIT 3;
EXPLAIN SELECT order_id FROM 'fixtures/orders_s*.parquet' WHERE order_id < 5000 LIMIT 10;
