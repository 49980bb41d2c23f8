-- A comma join is a cross product until the WHERE's equality becomes its key; the other conjuncts go to the sides or stay as the residual.
SELECT count(*) FROM 'fixtures/orders_sorted.parquet' a, 'fixtures/statistics.parquet' b WHERE a.customer_id = b.customer_id AND a.amount > b.amount AND b.delta < 0
