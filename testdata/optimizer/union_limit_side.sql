-- A side with a LIMIT keeps its rows: the filter is wrapped above it, not pushed below.
SELECT order_id FROM (SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id < 10 UNION ALL (SELECT order_id FROM 'fixtures/orders_shuffled.parquet' LIMIT 5)) WHERE order_id > 3
