-- DISTINCT keeps all its columns; the filter moves below it.
SELECT customer_id FROM (SELECT DISTINCT customer_id, status FROM 'fixtures/orders_sorted.parquet') WHERE status = 'returned'
