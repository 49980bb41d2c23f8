-- A LEFT JOIN is an input of the chain above it, reordered inside but never across: the inner joins around it move, its sides stay.
SELECT count(*) FROM 'fixtures/orders_sorted.parquet' a JOIN ('fixtures/orders_shuffled.parquet' b LEFT JOIN 'fixtures/types.parquet' t ON b.order_id = t.id) ON a.order_id = b.order_id JOIN 'fixtures/statistics.parquet' s ON s.customer_id = a.customer_id
