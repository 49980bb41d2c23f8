-- Joins of a view and a CTE: both inline, USING keys the join, only the columns used are read.
CREATE VIEW v AS SELECT order_id, city, amount FROM 'fixtures/orders_sorted.parquet';
WITH c AS (SELECT order_id, coupon FROM 'fixtures/statistics.parquet') SELECT order_id, coupon FROM v JOIN c USING (order_id) WHERE city = 'Oslo'
