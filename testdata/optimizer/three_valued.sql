-- TRUE AND x is x and x OR TRUE is TRUE; NULL AND x is never TRUE, so a WHERE with a NULL conjunct keeps no row: FALSE.
SELECT count(*) FROM 'fixtures/orders_sorted.parquet' WHERE (order_id < 10 AND 1 = 1) AND (NULL AND city = 'Paris') AND (quantity > 3 OR 2 > 1)
