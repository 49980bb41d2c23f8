-- Two files: a plan each, then the totals.
EXPLAIN SELECT order_id FROM 'fixtures/orders_s*.parquet' WHERE customer_id = 424242;
EXPLAIN ANALYZE SELECT order_id FROM 'fixtures/orders_sorted.parquet' WHERE order_id < 3 UNION ALL SELECT order_id FROM 'fixtures/orders_shuffled.parquet' WHERE order_id < 3;
