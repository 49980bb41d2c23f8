-- A LIMIT without WHERE reads the first page of each column of the first
-- row group: the rest of the plan is not read after LIMIT.
EXPLAIN ANALYZE SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' LIMIT 3;
