-- Files whose schemas differ are read with the first file's: orders'
-- BIGINT customer_id is cast to statistics' UINTEGER in a run of its own
-- under UNION ALL, and the filter still prunes both runs, since the cast
-- keeps the order of the values it converts.
EXPLAIN ANALYZE SELECT count(*), sum(order_id) FROM read_parquet(['fixtures/statistics.parquet', 'fixtures/orders_sorted.parquet']) WHERE customer_id < 100300;
