-- Answers from the footer: count(*) alone, min/max/count from trusted
-- statistics, and count(*) over row groups whose statistics prove the WHERE.
EXPLAIN SELECT count(*) FROM 'fixtures/orders_sorted.parquet';
EXPLAIN SELECT count(*), min(order_id) FROM 'fixtures/orders_sorted.parquet';
EXPLAIN ANALYZE SELECT count(*) FROM 'fixtures/orders_sorted.parquet' WHERE order_id > 500;
