-- Filters on each side of an inner join go below it; a filter on a join key also reaches the other side through the key (a.k = b.k and a.k < 5 give b.k < 5).
SELECT a.order_id, b.city FROM 'fixtures/orders_sorted.parquet' a JOIN 'fixtures/orders_shuffled.parquet' b ON a.order_id = b.order_id WHERE a.order_id < 5 AND b.status = 'shipped'
