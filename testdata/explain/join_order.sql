-- Three inputs written largest first: the chain starts from the filtered
-- statistics file (the fewest estimated rows), joins the input a key
-- connects to it, builds on the smaller side, and a projection keeps the
-- written column order. The "join order" line names the order chosen,
-- each input's estimate, and the written order.
EXPLAIN SELECT a.order_id, b.status, s.city FROM 'fixtures/orders_sorted.parquet' a JOIN 'fixtures/orders_shuffled.parquet' b ON a.order_id = b.order_id JOIN 'fixtures/statistics.parquet' s ON s.order_id = b.order_id WHERE s.delta < 0;
EXPLAIN ANALYZE SELECT a.order_id, b.status, s.city FROM 'fixtures/orders_sorted.parquet' a JOIN 'fixtures/orders_shuffled.parquet' b ON a.order_id = b.order_id JOIN 'fixtures/statistics.parquet' s ON s.order_id = b.order_id WHERE s.delta < 0;
-- Written as a cross product of two large inputs that only the third
-- connects: no cross product is left.
EXPLAIN SELECT count(*), sum(a.amount) FROM 'fixtures/orders_sorted.parquet' a, 'fixtures/orders_sorted.parquet' b, 'fixtures/orders_shuffled.parquet' c WHERE a.order_id = c.order_id AND b.order_id = c.order_id AND c.quantity = 1;
-- Without the optimizer the joins run as written.
SET optimizer = false;
EXPLAIN SELECT a.order_id, b.status, s.city FROM 'fixtures/orders_sorted.parquet' a JOIN 'fixtures/orders_shuffled.parquet' b ON a.order_id = b.order_id JOIN 'fixtures/statistics.parquet' s ON s.order_id = b.order_id WHERE s.delta < 0;
