-- A LIMIT picks rows before the filter sees them: the filter stays above it.
SELECT * FROM (SELECT order_id, city FROM 'fixtures/orders_sorted.parquet' LIMIT 10) WHERE order_id > 5
