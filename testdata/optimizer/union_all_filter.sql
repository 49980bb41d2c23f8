-- A filter above a UNION ALL reaches both files; only the columns used are read.
SELECT sum(amount) FROM (SELECT * FROM 'fixtures/orders_sorted.parquet' UNION ALL SELECT * FROM 'fixtures/orders_shuffled.parquet') WHERE order_id < 1000
