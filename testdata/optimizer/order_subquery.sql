-- A sorted subquery is not inlined, but the filter moves below its sort; unused columns are pruned.
SELECT order_id FROM (SELECT order_id, city, amount FROM 'fixtures/orders_sorted.parquet' ORDER BY amount) WHERE order_id < 100
