-- A correlated EXISTS under OR is a mark join: a LEFT join with the
-- subquery's rows counted per correlation key, so the outer scan is read
-- once and the subquery's filter is pushed down once.
EXPLAIN SELECT count(*) FROM 'fixtures/orders_sorted.parquet' a WHERE a.quantity = 10 OR EXISTS (SELECT 1 FROM 'fixtures/orders_shuffled.parquet' s WHERE s.customer_id = a.customer_id AND s.quantity = 10);
-- A correlation that is no equality stays an expression, run per distinct
-- outer value with that value as a constant.
EXPLAIN SELECT a.order_id, (SELECT count(*) FROM 'fixtures/statistics.parquet' b WHERE b.order_id < a.order_id) FROM 'fixtures/statistics.parquet' a;
